import Foundation

/// The scheduler the engine uses: the client's ``QueryScheduler``, with every job and timer
/// that a transaction of the engine lock creates recorded as an effect of that transaction.
///
/// Query functions start after the transaction that called them (never under the lock), so
/// the jobs and timers a transaction creates must be created then too, in the order recorded:
/// equal due times fire in creation order, and a query function's first `sleep` must be created
/// between the timers that TanStack creates before and after calling it.
final class TransactionalScheduler: QueryScheduler, @unchecked Sendable {
  // Safe: `base` and `lock` are immutable; `timers` and `nextID` are guarded by `timersLock`.
  let base: any QueryScheduler
  private let lock: EngineLock
  private let timersLock = NSLock()
  private var nextID: UInt64 = 0
  /// Live timers by engine id: the base timer, or `nil` while its creation is still recorded.
  private var timers: [UInt64: TimerID?] = [:]

  init(base: any QueryScheduler, lock: EngineLock) {
    self.base = base
    self.lock = lock
  }

  func now() -> Double { base.now() }

  var taskExecutor: (any TaskExecutor)? { base.taskExecutor }

  func enqueue(_ job: @escaping @Sendable () -> Void) {
    if lock.isHeldByCurrentThread {
      lock.record(.plumbing) { [base] in base.enqueue(job) }
    } else {
      base.enqueue(job)
    }
  }

  func setTimeout(_ delay: Double, _ body: @escaping @Sendable () -> Void) -> TimerID {
    schedule { [base] id in
      base.setTimeout(delay) { [weak self] in
        self?.fired(id)
        body()
      }
    }
  }

  func setInterval(_ interval: Double, _ body: @escaping @Sendable () -> Void) -> TimerID {
    schedule { [base] _ in base.setInterval(interval, body) }
  }

  func clearTimeout(_ id: TimerID) {
    let baseID: TimerID?? = timersLock.withLock { timers.removeValue(forKey: id.rawValue) }
    if case .some(.some(let baseID)) = baseID { base.clearTimeout(baseID) }
  }

  /// Allocates an engine id and creates the base timer now, or when the transaction ends.
  private func schedule(_ create: @escaping @Sendable (UInt64) -> TimerID) -> TimerID {
    let id: UInt64 = timersLock.withLock {
      nextID += 1
      timers[nextID] = .some(nil)
      return nextID
    }
    let start: @Sendable () -> Void = { [weak self] in
      guard let self else { return }
      self.timersLock.withLock {
        // Cleared before its creation ran: never create it.
        guard self.timers[id] != nil else { return }
        self.timers[id] = .some(create(id))
      }
    }
    if lock.isHeldByCurrentThread { lock.record(.plumbing, start) } else { start() }
    return TimerID(rawValue: id)
  }

  private func fired(_ id: UInt64) {
    _ = timersLock.withLock { timers.removeValue(forKey: id) }
  }
}
