/// What every part of one client shares: its lock, scheduler and managers.
final class Engine: @unchecked Sendable {
  // Safe: all members are immutable references to thread-safe objects.
  let lock: EngineLock
  /// The client's scheduler, recording what a transaction creates (``TransactionalScheduler``).
  let scheduler: TransactionalScheduler
  let focusManager: FocusManager
  let onlineManager: OnlineManager
  /// Quarry runs in apps, never on a server: TanStack's `isServer` is false.
  let isServer = false
  /// The client this engine belongs to, for query function contexts (`context.client`).
  // Safe: written once in `QueryClient.init`, before the engine is shared with any other thread.
  weak var client: QueryClient?

  init(scheduler: any QueryScheduler) {
    // Jobs a transaction records go straight to the base scheduler (``EngineLock/recordJob(_:)``).
    self.lock = EngineLock(jobScheduler: scheduler)
    self.scheduler = TransactionalScheduler(base: scheduler, lock: lock)
    self.focusManager = FocusManager(lock: lock)
    self.onlineManager = OnlineManager(lock: lock)
  }

  var now: Double { scheduler.now() }

  /// TanStack's `canFetch(networkMode)`.
  func canFetch(_ networkMode: NetworkMode?) -> Bool {
    (networkMode ?? .online) == .online ? onlineManager.isOnline : true
  }

  /// TanStack's `sleep(ms)`: a promise fulfilled by a timer.
  func sleep(_ ms: Double) -> Promise<Void> {
    let p = Promise<Void>(scheduler: scheduler)
    _ = scheduler.setTimeout(ms) { p.resolve(()) }
    return p
  }
}

/// TanStack's `isValidTimeout`: a finite, non-negative number.
func isValidTimeout(_ value: Double?) -> Bool {
  guard let value else { return false }
  return value >= 0 && value.isFinite
}

/// TanStack's `timeUntilStale`.
func timeUntilStale(_ updatedAt: Double, _ staleTime: StaleTime?, now: Double) -> Double {
  let ms: Double
  switch staleTime {
  case .milliseconds(let m)?: ms = m
  default: ms = 0
  }
  return max(updatedAt + ms - now, 0)
}
