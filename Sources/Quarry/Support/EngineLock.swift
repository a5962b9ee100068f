import Foundation
import Synchronization

/// The one recursive lock that guards all of a client's engine state, used as a transaction:
/// code inside records what it would do outside the engine (call a listener, start a query
/// function, enqueue a job, create a timer) and the outermost level performs those effects,
/// in the order recorded, after unlocking.
///
/// That is how the engine keeps TanStack's synchronous order while never running user code
/// other than value callbacks (`select`, option functions, updaters) under the lock; see
/// ARCHITECTURE.md, "Threading".
///
/// Effects from all threads go through one FIFO that one thread drains at a time, in commit
/// order: a committing thread takes its place in the FIFO (or the deliverer's role) before it
/// releases the lock, so a thread descheduled between its commit and its delivery cannot fall
/// behind a later commit. A thread that commits while another drains appends and returns
/// without waiting, so a listener that waits for another thread touching the client cannot
/// deadlock it. Effects that user code run by the delivering thread causes (a listener's or a
/// query function's own client calls) are performed at once, nested, as TanStack's synchronous
/// listeners would run them.
final class EngineLock: @unchecked Sendable {
  // Safe: `outbox`, `batches` and `afterCommit` are only touched by the thread holding
  // `mutex`; `fifo`, `isDraining` and `deliverer` are guarded by `fifoLock`, which is taken under
  // `mutex` (never the other way round) and held only briefly; `owner` is atomic.
  /// A plain (non-recursive) mutex: a thread that holds it already (`owner`) runs a nested
  /// `sync` without locking again, and only the outermost level unlocks.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  // Safe (`@exclusivity(unchecked)` on `outbox`, `batches`, `afterCommit`): they are touched only
  // by the thread holding `mutex`, each access a single read, write or append that runs no user
  // code and touches no other member, so no two accesses can overlap.
  /// What the holding thread's transaction has recorded, in order.
  @exclusivity(unchecked) private var outbox: [Effect] = []
  /// The thread holding `mutex` (0 when none): written only by that thread, under `mutex`.
  private let owner = Atomic<UInt>(0)
  private let fifoLock = NSLock()
  private var fifo: [() -> Void] = []
  private var fifoHead = 0
  private var isDraining = false
  /// The thread delivering effects (guarded by `fifoLock`).
  private var deliverer: UInt = 0
  /// Threads inside ``batch(_:)`` (guarded by `mutex`): how deep, and the listener effects
  /// waiting for the outermost batch to end.
  // Safe: as `outbox` (only the thread holding `mutex`, single accesses, no user code).
  @exclusivity(unchecked) private var batches: [UInt: Batch] = [:]
  /// A test seam (guarded by `mutex`): called by a thread that has committed effects, right after
  /// it releases the mutex and before it performs them, so a test can stall it there.
  // Safe: as `outbox` (only the thread holding `mutex`, single accesses, no user code).
  @exclusivity(unchecked) private var afterCommit: (@Sendable () -> Void)?

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Takes `mutex` unless the calling thread holds it already; returns whether it took it.
  @inline(__always)
  private func acquire() -> Bool {
    if owner.load(ordering: .relaxed) == currentThreadID() { return false }
    pthread_mutex_lock(mutex)
    return true
  }

  /// Runs `body` under the lock; the outermost call then performs the recorded effects.
  @inline(__always)
  func sync<T>(_ body: () throws -> T) rethrows -> T {
    let me = currentThreadID()
    // Nested in this thread's own transaction: the mutex is held already, and the outermost
    // level performs what this one records.
    if owner.load(ordering: .relaxed) == me { return try body() }
    pthread_mutex_lock(mutex)
    owner.store(me, ordering: .relaxed)
    defer { exit() }
    return try body()
  }

  /// Ends the outermost level of a transaction.
  @inline(__always)
  private func exit() {
    owner.store(0, ordering: .relaxed)
    if outbox.isEmpty {
      pthread_mutex_unlock(mutex)
      return
    }
    var effects = outbox
    outbox = []
    if !batches.isEmpty { effects = deferListenerEffects(effects) }
    if effects.isEmpty {
      pthread_mutex_unlock(mutex)
      return
    }
    commit(effects)
  }

  /// Runs `body` (without holding the lock) and delivers the listener effects the calling thread
  /// commits meanwhile when the outermost batch ends, in order; plumbing still runs at once.
  /// TanStack's `notifyManager.batch`.
  func batch<T>(_ body: () throws -> T) rethrows -> T {
    let me = currentThreadID()
    let took = acquire()
    batches[me, default: Batch()].depth += 1
    if took { pthread_mutex_unlock(mutex) }
    defer { endBatch(me) }
    return try body()
  }

  private func endBatch(_ me: UInt) {
    let took = acquire()
    var batch = batches.removeValue(forKey: me)!
    batch.depth -= 1
    if batch.depth > 0 {
      batches[me] = batch
      if took { pthread_mutex_unlock(mutex) }
      return
    }
    if !took {
      // The batch ended inside a transaction of this thread: its outermost level delivers them.
      outbox.append(contentsOf: batch.effects)
      return
    }
    if batch.effects.isEmpty {
      pthread_mutex_unlock(mutex)
      return
    }
    commit(batch.effects)
  }

  /// Delivers `effects`, which the calling thread has just committed: takes their place in the
  /// FIFO while still holding `mutex` (see ``claim(_:)``), releases it, calls the test seam and
  /// performs them. Called with `mutex` held, outside any transaction of the calling thread.
  @inline(__always)
  private func commit(_ effects: [Effect]) {
    let role = claim(effects)
    let hook = afterCommit
    pthread_mutex_unlock(mutex)
    hook?()
    perform(effects, as: role)
  }

  /// Keeps the listener effects of a thread inside a batch for its end; returns the rest.
  /// Called with `mutex` held.
  private func deferListenerEffects(_ effects: [Effect]) -> [Effect] {
    let me = currentThreadID()
    guard batches[me] != nil else { return effects }
    var now: [Effect] = []
    for effect in effects {
      if effect.kind == .listener { batches[me]!.effects.append(effect) } else { now.append(effect) }
    }
    return now
  }

  /// Installs (or, with `nil`, removes) the test seam called between a commit and its effects.
  func setAfterCommit(_ hook: (@Sendable () -> Void)?) {
    let took = acquire()
    afterCommit = hook
    if took { pthread_mutex_unlock(mutex) }
  }

  /// Whether the calling thread is inside a transaction of this lock.
  var isHeldByCurrentThread: Bool { owner.load(ordering: .relaxed) == currentThreadID() }

  /// Whether plumbing the calling thread creates now (a job, a timer) lands exactly where
  /// recording it would: outside a transaction, or inside one that has recorded nothing yet
  /// (every effect recorded later runs after it either way).
  var canActNow: Bool {
    guard isHeldByCurrentThread else { return true }
    return outbox.isEmpty
  }

  /// Records `effect` to run after the outermost `sync` returns; outside a transaction it runs
  /// at once. Listener effects keep commit order across threads (see the type's comment);
  /// plumbing (jobs, timers, query-function starts) runs on the committing thread.
  func record(_ kind: EffectKind, _ effect: @escaping () -> Void) {
    if isHeldByCurrentThread {
      outbox.append(Effect(kind: kind, run: effect))
    } else {
      pthread_mutex_lock(mutex)
      let effects = batches.isEmpty ? [Effect(kind: kind, run: effect)] : deferListenerEffects([Effect(kind: kind, run: effect)])
      if effects.isEmpty {
        pthread_mutex_unlock(mutex)
        return
      }
      let role = claim(effects)
      pthread_mutex_unlock(mutex)
      perform(effects, as: role)
    }
  }

  /// Takes the place of `effects` in the FIFO: called with `mutex` held, by the thread that
  /// committed them, so threads take their places in the order they committed. A thread that
  /// released the lock first and queued after would let a later commit's listener calls (another
  /// thread's, delivered meanwhile) run before its own: a listener would hear an older result
  /// after a newer one.
  ///
  /// If another thread is delivering, the listener calls are queued behind its FIFO now; if none
  /// is, the calling thread becomes the deliverer now, so any later commit queues behind it.
  private func claim(_ effects: [Effect]) -> Role {
    let me = currentThreadID()
    return fifoLock.withLock {
      if isDraining {
        // User code run by this (delivering) thread — a listener, a query function's prefix, a
        // mutation callback — made these client calls: deliver them at once, nested, before the
        // current batch goes on, as TanStack's synchronous listeners would.
        if deliverer == me { return .inline }
        for effect in effects where effect.kind == .listener { fifo.append(effect.run) }
        return .queued
      }
      isDraining = true
      deliverer = me
      return .deliverer
    }
  }

  /// Performs `effects` (without holding `mutex`) in the role ``claim(_:)`` gave them: the
  /// deliverer runs them in order and then the FIFO; a queued thread runs only the plumbing.
  private func perform(_ effects: [Effect], as role: Role) {
    switch role {
    case .queued:
      for effect in effects where effect.kind == .plumbing { effect.run() }
      return
    case .inline:
      for effect in effects { effect.run() }
      return
    case .deliverer:
      break
    }
    for effect in effects { effect.run() }
    while true {
      let next: (() -> Void)? = fifoLock.withLock {
        guard fifoHead < fifo.count else {
          fifo.removeAll(keepingCapacity: true)
          fifoHead = 0
          isDraining = false
          deliverer = 0
          return nil
        }
        let effect = fifo[fifoHead]
        fifoHead += 1
        return effect
      }
      guard let next else { return }
      next()
    }
  }

  /// What the thread performing effects does with them.
  private enum Role {
    /// Delivers them and then the FIFO.
    case deliverer
    /// Runs plumbing now and queues listener calls behind the ones being delivered.
    case queued
    /// Runs them all now: user code the delivering thread runs made them (a listener, a query
    /// function's prefix, a mutation callback), so they are delivered nested, as in TanStack.
    case inline
  }

  /// What kind of work an effect is.
  enum EffectKind: Equatable {
    /// A call of user code whose order across threads matters: a listener or cache callback.
    case listener
    /// Engine plumbing: enqueue a job, create a timer, start a query function.
    case plumbing
  }

  /// One thread's open batch.
  private struct Batch {
    var depth = 0
    var effects: [Effect] = []
  }

  private struct Effect {
    let kind: EffectKind
    let run: () -> Void
  }
}

/// A number identifying the calling thread, never 0.
@inline(__always)
private func currentThreadID() -> UInt {
  #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
  #else
    return UInt(pthread_self())
  #endif
}
