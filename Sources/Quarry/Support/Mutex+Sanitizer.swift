import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// What a `Mutex` does, told to ThreadSanitizer (Linux).
///
/// On Linux the `Synchronization` module's `Mutex` takes a contended lock in the kernel
/// (`FUTEX_LOCK_PI`, called from the standard library, which is not instrumented), so the
/// sanitizer sees no ordering between the thread that unlocked and the one that acquired next,
/// and reports a data race on whatever the mutex guards (a promise's state and callbacks, an
/// abort signal's flag and handlers) although every access is under the lock. An `NSLock` (a
/// pthread mutex, which the sanitizer intercepts) had no such reports, but costs two heap
/// allocations per promise.
///
/// Code under such a mutex calls ``sanitizerAcquire(_:)`` first and ``sanitizerRelease(_:)``
/// last (`Mutex.withLock(orderingFor:_:)` does both): with the sanitizer's runtime linked in (`--sanitize=thread`) they call its
/// `__tsan_acquire` / `__tsan_release` on the guarded object's address, which orders the
/// critical sections as the lock does; otherwise they test one `nil` and do nothing. On Apple
/// platforms `Mutex` is an `os_unfair_lock`, which the sanitizer intercepts, so nothing is
/// looked up there.
struct SanitizerHooks: Sendable {
  typealias Hook = @convention(c) (UnsafeMutableRawPointer?) -> Void

  /// `__tsan_acquire`, when the thread sanitizer's runtime is in the process.
  let acquire: Hook?
  /// `__tsan_release`, when the thread sanitizer's runtime is in the process.
  let release: Hook?

  init() {
    #if canImport(Glibc)
      // `nil` is `RTLD_DEFAULT` on glibc: every object loaded, including the executable, into
      // which the sanitizer's runtime is linked statically.
      acquire = dlsym(nil, "__tsan_acquire").map { unsafeBitCast($0, to: Hook.self) }
      release = dlsym(nil, "__tsan_release").map { unsafeBitCast($0, to: Hook.self) }
    #else
      acquire = nil
      release = nil
    #endif
  }

  /// The hooks of this process, looked up once.
  static let current = SanitizerHooks()
}

/// `1` once ``SanitizerHooks/current`` was found to hold no hooks (the process has no thread
/// sanitizer), `0` before, and always `0` with the sanitizer. An `Atomic` with a constant initial
/// value is initialised statically, so reading it is one load; every read of the lazily
/// initialised `SanitizerHooks.current` went through `swift_once` (about ten instructions, once
/// per critical section of every promise, abort signal and engine lock).
@usableFromInline
let sanitizerAbsent = Atomic<UInt8>(0)

/// Tells the thread sanitizer that the calling thread has just acquired the `Mutex` guarding
/// `object` (call it first thing inside `withLock`); does nothing without the sanitizer.
@inlinable @inline(__always)
func sanitizerAcquire(_ object: AnyObject) {
  if sanitizerAbsent.load(ordering: .relaxed) == 1 { return }
  sanitizerHookLookingUp(acquire: true, object)
}

/// Tells the thread sanitizer that the calling thread is about to release the `Mutex` guarding
/// `object` (call it last thing inside `withLock`, with `defer`); does nothing without the
/// sanitizer.
@inlinable @inline(__always)
func sanitizerRelease(_ object: AnyObject) {
  if sanitizerAbsent.load(ordering: .relaxed) == 1 { return }
  sanitizerHookLookingUp(acquire: false, object)
}

/// ``sanitizerAcquire(_:)`` (`acquire`) or ``sanitizerRelease(_:)`` before the hooks are known
/// to be absent, and with the sanitizer: calls the hook, or notes that there is none.
@usableFromInline @inline(never)
func sanitizerHookLookingUp(acquire: Bool, _ object: AnyObject) {
  let hooks = SanitizerHooks.current
  if let hook = acquire ? hooks.acquire : hooks.release {
    hook(Unmanaged.passUnretained(object).toOpaque())
  } else {
    sanitizerAbsent.store(1, ordering: .relaxed)
  }
}

extension Mutex where Value: ~Copyable {
  /// `withLock(body)` for a mutex that `object` holds, with the lock's ordering told to the
  /// thread sanitizer: ``sanitizerAcquire(_:)`` first and ``sanitizerRelease(_:)`` last.
  /// `package`, so that the app layer's locks (QuarryApp's per-type tables) are ordered too.
  @inlinable @inline(__always)
  package borrowing func withLock<R: Sendable>(orderingFor object: AnyObject, _ body: (inout sending Value) -> R) -> R {
    withLock { value in
      sanitizerAcquire(object)
      defer { sanitizerRelease(object) }
      return body(&value)
    }
  }
}
