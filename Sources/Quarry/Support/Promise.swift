import Foundation
import Synchronization

/// A JavaScript-style promise: settles once, and runs its callbacks as scheduler jobs
/// (microtasks), never synchronously inside `resolve`.
///
/// The engine chains these exactly where TanStack chains promises, so the order of events
/// matches TanStack's; public APIs expose them as `async` through ``value``.
///
/// Not `final` only so that an object the engine makes beside a promise can be that promise
/// (a query function's call, ``QueryFunctionCall``: one allocation instead of two); no subclass
/// overrides anything (every member is `final`, and none can be subclassed outside the module).
package class Promise<T: Sendable>: @unchecked Sendable {
  // Safe: `state` and `callbacks` are guarded by `lock`; callbacks run outside it. Every
  // critical section goes through `withLock(orderingFor:)` (Mutex+Sanitizer.swift), so the
  // thread sanitizer sees the lock's ordering on Linux too.
  /// The promise's state (``PromiseState``), not generic: destroying a `State<T>` nested in this
  /// generic class made every promise's deinit look its metadata up in the runtime's cache
  /// (about 250 instructions per promise). The value is kept as `any Sendable` (``stored(_:)``).
  typealias State = PromiseState

  /// A `Mutex` stored in the promise: an `NSLock` cost two more heap allocations and a mutex
  /// set-up per promise (a fetch makes several). It guards nothing of its own type, so its
  /// type does not depend on `T` and needs no metadata looked up per promise.
  private let lock = Mutex(())
  /// Whether `state` is no longer `.pending`, kept beside it (in the lock's padding: the object
  /// grows by nothing): testing the state's case copied the state through its outlined copy
  /// first (about 40 instructions), twice or more per promise.
  @exclusivity(unchecked) private var isSettled = false
  // `isSettled`, `state`, `firstCallback` and `moreCallbacks` are `@exclusivity(unchecked)`.
  // Safe: they are read and written only inside `lock`'s critical sections, which call no
  // callback and release nothing whose last reference they hold, so no two accesses can
  // overlap; the dynamic check cost about 60 instructions per access, five or so per promise.
  @exclusivity(unchecked) private var state: State = .pending
  /// The first callback registered while pending, inline: most promises get exactly one, and
  /// an array would cost an allocation for it.
  @exclusivity(unchecked) private var firstCallback: Callback?
  /// The callbacks registered while pending after the first, in order.
  @exclusivity(unchecked) private var moreCallbacks: [Callback] = []
  /// The countdown counting this promise (``PromiseCountdown/countIgnoringRejectionOnly(_:)``),
  /// registered before any callback; taken when the promise settles.
  @exclusivity(unchecked) private var countdown: PromiseCountdown?
  final let scheduler: any QueryScheduler

  typealias Callback = @Sendable (Result<T, any Error>) -> Void

  init(scheduler: any QueryScheduler) { self.scheduler = scheduler }

  static func resolved(_ value: T, scheduler: any QueryScheduler) -> Promise<T> {
    let p = Promise(scheduler: scheduler)
    p.resolve(value)
    return p
  }

  /// Fulfils the promise with `value` (taken: it moves into the state).
  final func resolve(_ value: consuming T) { settle(to: .fulfilled(Promise.stored(value))) }
  /// Rejects the promise with `error` (taken: it moves into the state).
  final func reject(_ error: consuming any Error) { settle(to: .rejected(error)) }

  /// Settles this promise the way `other` settles (JavaScript's resolve-with-a-promise).
  final func follow(_ other: Promise<T>) {
    other.whenSettled { self.settle($0) }
  }

  /// Settles this promise the way `other` settles, as an `async` function's `return other` does:
  /// JavaScript's resolve-with-a-thenable calls `other.then` in a job of its own, so this takes one
  /// job more than ``follow(_:)``.
  final func adopt(_ other: Promise<T>) {
    scheduler.enqueue { self.follow(other) }
  }

  private func settle(_ result: Result<T, any Error>) {
    switch result {
    case .success(let v): resolve(v)
    case .failure(let e): reject(e)
    }
  }

  /// Settles the promise to `settled` unless it has settled already.
  ///
  /// `settled` is built by the caller and swapped into the state under the lock: switching on a
  /// `Result` there copied its payload (through an outlined copy of the whole `Result`) into the
  /// new state and destroyed the `Result` after, about 150 instructions per promise.
  private func settle(to settled: consuming PromiseState) {
    var counted: PromiseCountdown?
    let hasCallbacks: Bool = lock.withLock(orderingFor: self) { _ in
      guard !isSettled else { return false }
      isSettled = true
      swap(&state, &settled)
      swap(&counted, &countdown)
      return firstCallback != nil
    }
    if let counted {
      // Counted now, where the delivery job would be queued (see `countIgnoringRejectionOnly`).
      let last = counted.countOne()
      if !hasCallbacks {
        // The countdown was all the job would have run: queued only for the last one.
        if last { counted.fulfilInTheJobAfterNext() }
        return
      }
      // The countdown was registered first, so its part of the job runs first.
      scheduler.enqueue { [self] in
        if last { counted.fulfilInTheJobAfterNext() }
        deliver()
      }
      return
    }
    guard hasCallbacks else { return }
    // JavaScript runs each callback as a microtask of its own, all queued here one after the
    // other; one job running them in order runs the same code in the same order (a callback's
    // own jobs queue behind the rest either way). The job captures only the promise, so it
    // costs no closure context; the callbacks stay here until it runs (none is added meanwhile:
    // the promise has settled).
    scheduler.enqueue { [self] in deliver() }
  }

  /// `value` as the state keeps it. `T` is usually `any Sendable` (kept as it is) or `Void`;
  /// other types are wrapped in the existential.
  @inline(__always)
  private static func stored(_ value: T) -> any Sendable {
    if T.self == (any Sendable).self { return unsafeBitCast(value, to: (any Sendable).self) }
    return value
  }

  /// The value ``stored(_:)`` kept, as `T` again.
  @inline(__always)
  private static func value(_ stored: any Sendable) -> T {
    // `as any Sendable`: passed as it is, the existential would be opened (SE-0352) and the
    // cast would see the value's own type.
    if T.self == (any Sendable).self { return unsafeBitCast(stored as any Sendable, to: T.self) }
    if T.self == Void.self { return unsafeBitCast((), to: T.self) }
    return stored as! T
  }

  /// Calls the callbacks registered before the promise settled, in order (the job `settle` queues).
  private func deliver() {
    // Taken into locals, not returned from the generic `withLock`: returning the closures
    // through its generic result reabstracted each one (a thunk context allocated per callback).
    var first: Callback?
    var more: [Callback] = []
    var settled = PromiseState.pending
    lock.withLock(orderingFor: self) { _ in
      swap(&first, &firstCallback)
      swap(&more, &moreCallbacks)
      settled = state
    }
    let result: Result<T, any Error>
    // Consumed: the payload moves into the result instead of being copied out (and the state
    // destroyed after).
    switch consume settled {
    case .fulfilled(let v): result = .success(Promise.value(v))
    case .rejected(let e): result = .failure(e)
    case .pending: preconditionFailure("a promise delivers only once settled")
    }
    first?(result)
    for callback in more { callback(result) }
  }

  /// Calls `callback` as a job once the promise settles.
  ///
  /// The common case, a pending promise, registers and answers a `Bool`: answering `nil` as an
  /// `Optional<Result>` (``settledOrWhenSettled(_:)``) destroyed that `nil` through the runtime's
  /// generic `Optional` witnesses, about 90 instructions per call. A settled promise's state never
  /// changes again, so reading its outcome under a second lock answers what one lock did.
  final package func whenSettled(_ callback: @escaping @Sendable (Result<T, any Error>) -> Void) {
    if registerIfPending(callback) { return }
    let settled = settledOutcome()
    scheduler.enqueue { callback(settled) }
  }

  /// Has `countdown` count this promise (``PromiseCountdown/countIgnoringRejectionOnly(_:)``):
  /// at once if it has settled, else as it settles. Registered before any callback.
  fileprivate final func count(in countdown: PromiseCountdown) {
    let pending: Bool = lock.withLock(orderingFor: self) { _ in
      guard !isSettled else { return false }
      precondition(firstCallback == nil && self.countdown == nil, "a promise is counted before any callback")
      self.countdown = countdown
      return true
    }
    // Settled: counted now, where the delivery job of a callback registered now would be queued.
    if !pending, countdown.countOne() { countdown.fulfilInTheJobAfterNext() }
  }

  /// Registers `callback` and answers `true` if the promise is pending; answers `false` (and
  /// registers nothing) once it has settled.
  private func registerIfPending(_ callback: @escaping @Sendable (Result<T, any Error>) -> Void) -> Bool {
    lock.withLock(orderingFor: self) { _ in
      guard !isSettled else { return false }
      if firstCallback == nil { firstCallback = callback } else { moreCallbacks.append(callback) }
      return true
    }
  }

  /// The outcome of a settled promise.
  private func settledOutcome() -> Result<T, any Error> {
    lock.withLock(orderingFor: self) { _ in
      switch state {
      case .fulfilled(let v): return .success(Promise.value(v))
      case .rejected(let e): return .failure(e)
      case .pending: preconditionFailure("a settled promise stays settled")
      }
    }
  }

  /// The outcome if the promise has settled; else `nil`, and `callback` runs as a job once it
  /// settles (checked and registered under one lock, so no settlement falls between).
  private func settledOrWhenSettled(_ callback: @escaping @Sendable (Result<T, any Error>) -> Void) -> Result<T, any Error>? {
    lock.withLock(orderingFor: self) { _ in
      switch state {
      case .pending:
        if firstCallback == nil { firstCallback = callback } else { moreCallbacks.append(callback) }
        return nil
      case .fulfilled(let v): return .success(Promise.value(v))
      case .rejected(let e): return .failure(e)
      }
    }
  }

  /// JavaScript's `then(onFulfilled, onRejected)`: a new promise settled by whichever runs.
  @discardableResult
  final package func then<U: Sendable>(
    _ onFulfilled: @escaping @Sendable (T) throws -> U,
    _ onRejected: (@Sendable (any Error) throws -> U)? = nil
  ) -> Promise<U> {
    let next = Promise<U>(scheduler: scheduler)
    whenSettled { result in
      do {
        switch result {
        case .success(let v): next.resolve(try onFulfilled(v))
        case .failure(let e):
          if let onRejected { next.resolve(try onRejected(e)) } else { next.reject(e) }
        }
      } catch {
        next.reject(error)
      }
    }
    return next
  }

  /// `then` whose callback returns a promise to follow.
  @discardableResult
  final func flatThen<U: Sendable>(
    _ onFulfilled: @escaping @Sendable (T) -> Promise<U>,
    _ onRejected: (@Sendable (any Error) -> Promise<U>)? = nil
  ) -> Promise<U> {
    let next = Promise<U>(scheduler: scheduler)
    whenSettled { result in
      switch result {
      case .success(let v): next.follow(onFulfilled(v))
      case .failure(let e):
        if let onRejected { next.follow(onRejected(e)) } else { next.reject(e) }
      }
    }
    return next
  }

  /// A promise that fulfills with `()` whatever happens, one job later (JavaScript's
  /// `.catch(noop)` on a `Promise<void>`, or `.then(noop, noop)`).
  final package func ignoringResult() -> Promise<Void> {
    then({ _ in () }, { _ in () })
  }

  /// `.then(noop).catch(noop)`: the same, two jobs later, as TanStack chains it.
  final package func thenNoopCatchNoop() -> Promise<Void> {
    then { _ in () }.ignoringResult()
  }

  /// Waits for the promise to settle. Cancelling the waiting task throws `CancellationError`
  /// at once; the promise itself (a fetch other callers may share) goes on.
  ///
  /// A promise that has already settled resumes the waiter at once, not in a scheduler job: the
  /// waiting task may get here after the scheduler's last drain (it registers on whatever
  /// thread runs it, concurrently with the code that drives a `VirtualScheduler`), and a job
  /// queued then would wait for a drain that may never come.
  final package var value: T {
    get async throws {
      let waiter = PromiseWaiter<T>()
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          waiter.install(continuation)
          if let settled = settledOrWhenSettled({ waiter.resume(with: $0) }) {
            waiter.resume(with: settled)
          }
        }
      } onCancel: {
        waiter.resume(with: .failure(CancellationError()))
      }
    }
  }
}

extension Promise where T == any Sendable {
  /// `.catch(noop)`: the value passes through, a rejection becomes a fulfilment (with `()` for
  /// JavaScript's `undefined`), one job later.
  func ignoringRejection() -> Promise<any Sendable> {
    then({ $0 }, { _ in () })
  }
}

/// A ``Promise``'s state: pending, or settled with a value (kept as `any Sendable`) or an error.
enum PromiseState {
  case pending
  case fulfilled(any Sendable)
  case rejected(any Error)
}

/// Settles when every promise has fulfilled, or with the first rejection (`Promise.all`).
func promiseAll<T: Sendable>(_ promises: [Promise<T>], scheduler: any QueryScheduler) -> Promise<[T]> {
  let all = Promise<[T]>(scheduler: scheduler)
  if promises.isEmpty {
    all.resolve([])
    return all
  }
  let box = PromiseAllBox<T>(count: promises.count)
  for (i, p) in promises.enumerated() {
    p.whenSettled { result in
      switch result {
      case .success(let v):
        let done: [T]? = box.lock.withLock {
          box.values[i] = v
          box.remaining -= 1
          return box.remaining == 0 ? box.values.map { $0! } : nil
        }
        if let done { all.resolve(done) }
      case .failure(let e): all.reject(e)
      }
    }
  }
  return all
}

/// `Promise.all` over promises whose values nobody reads, followed as `promiseAll` follows them
/// (`refetchQueries`'s `Promise.all(promises).then(noop)`): ``all`` fulfils with `()` once every
/// counted promise has fulfilled, or rejects with the first rejection.
///
/// Each callback captures only this object, so a callback costs no closure context, and no
/// array of values is kept (`promiseAll` allocated a context per promise for its index).
final class PromiseCountdown: @unchecked Sendable {
  // Safe: `remaining` is a `Mutex`; `all` and `scheduler` are immutable references.
  /// Settles when the count reaches zero, or with the first rejection.
  let all: Promise<Void>
  private let scheduler: any QueryScheduler
  private let remaining: Mutex<Int>

  /// A countdown over `count` promises; with none, ``all`` has fulfilled at once.
  init(count: Int, scheduler: any QueryScheduler) {
    self.scheduler = scheduler
    all = Promise(scheduler: scheduler)
    remaining = Mutex(count)
    if count == 0 { all.resolve(()) }
  }

  /// What `promiseAll` does when `promise` settles: counts its fulfilment, or rejects ``all``.
  func count(_ promise: Promise<any Sendable>) {
    promise.whenSettled { [self] outcome in
      switch outcome {
      case .success: fulfilOne()
      case .failure(let error): all.reject(error)
      }
    }
  }

  /// What `promiseAll` does with `promise.ignoringRejection()`: the fulfilment is counted one
  /// job after `promise` settles either way (the job in which the `catch` promise would deliver
  /// to `Promise.all`), without that intermediate promise and its closure.
  func countIgnoringRejection(_ promise: Promise<any Sendable>) {
    promise.whenSettled { [self] _ in scheduler.enqueue { [self] in fulfilOne() } }
  }

  /// ``countIgnoringRejection(_:)`` for a countdown that counts nothing else: only the last
  /// promise to settle queues jobs, the ones in which ``all`` fulfils.
  ///
  /// The same job as ``countIgnoringRejection(_:)``'s: there every promise's delivery job
  /// queued a job that only counts (where its `catch` promise would deliver to `Promise.all`),
  /// in the order the promises settle, and ``all`` fulfils in the last of them. The jobs before
  /// do nothing but count, and no job can observe the count, so leaving them out moves nothing
  /// else: every other job keeps its order. The promise does not queue its delivery job for the
  /// countdown either: it is counted when that job would be queued (as it settles, or at once if
  /// it has), which is the order those jobs would run in, and the last queues a job in that
  /// job's place, which queues the one in which ``all`` fulfils (``Promise/count(in:)``; a
  /// promise with callbacks of its own still queues its delivery job, which queues that one
  /// first).
  func countIgnoringRejectionOnly(_ promise: Promise<any Sendable>) {
    promise.count(in: self)
  }

  /// Counts one promise; answers whether it was the last.
  fileprivate func countOne() -> Bool {
    remaining.withLock { count -> Bool in
      count -= 1
      return count == 0
    }
  }

  /// Fulfils ``all`` in a job queued now (where `Promise.all` would take the last fulfilment).
  fileprivate func fulfilInTheNextJob() {
    scheduler.enqueue { [self] in all.resolve(()) }
  }

  /// Fulfils ``all`` in the job after a job queued now (the skipped delivery job's place).
  fileprivate func fulfilInTheJobAfterNext() {
    scheduler.enqueue { [self] in fulfilInTheNextJob() }
  }

  /// What `promiseAll` does with a promise that has already fulfilled: counted in a job queued now.
  func countFulfilled() {
    scheduler.enqueue { [self] in fulfilOne() }
  }

  private func fulfilOne() {
    if countOne() { all.resolve(()) }
  }
}

/// The shared tally of `promiseAll`.
private final class PromiseAllBox<T: Sendable>: @unchecked Sendable {
  // Safe: `values` and `remaining` are guarded by `lock`.
  let lock = NSLock()
  var values: [T?]
  var remaining: Int
  init(count: Int) { values = Array(repeating: nil, count: count); remaining = count }
}

/// Resumes one continuation exactly once: with the promise's outcome or with the waiting
/// task's cancellation, whichever comes first.
private final class PromiseWaiter<T: Sendable>: @unchecked Sendable {
  // Safe: `continuation` and `early` are guarded by `lock`.
  private let lock = NSLock()
  private var continuation: CheckedContinuation<T, any Error>?
  private var early: Result<T, any Error>?
  private var isDone = false

  func install(_ continuation: CheckedContinuation<T, any Error>) {
    let early: Result<T, any Error>? = lock.withLock {
      if let early = self.early { return early }
      self.continuation = continuation
      return nil
    }
    if let early { continuation.resume(with: early) }
  }

  func resume(with result: Result<T, any Error>) {
    let continuation: CheckedContinuation<T, any Error>? = lock.withLock {
      guard !isDone else { return nil }
      isDone = true
      guard let continuation = self.continuation else {
        early = result
        return nil
      }
      self.continuation = nil
      return continuation
    }
    continuation?.resume(with: result)
  }
}
