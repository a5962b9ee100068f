import Dispatch
import Foundation

/// The production ``QueryScheduler``: timers sleep on an injected `Clock`, jobs run one at a time
/// in order on a serial queue, and query functions run on the global concurrent executor.
///
/// ```swift
/// let client = QueryClient(scheduler: ClockScheduler(clock: ContinuousClock()))
/// ```
public final class ClockScheduler<C: Clock>: QueryScheduler, @unchecked Sendable where C.Duration == Duration {
  // Safe: `timers` and `nextID` are guarded by `lock`; the rest is immutable.
  private let clock: C
  private let wallTime: @Sendable () -> Double
  private let queue = DispatchQueue(label: "quarry.scheduler")
  private let lock = NSLock()
  private var timers: [UInt64: Task<Void, Never>] = [:]
  private var nextID: UInt64 = 0

  /// Creates a scheduler on `clock`; `wallTime` gives epoch milliseconds for timestamps.
  public init(clock: C, wallTime: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 * 1000 }) {
    self.clock = clock
    self.wallTime = wallTime
  }

  /// Epoch milliseconds from `wallTime`.
  public func now() -> Double { wallTime() }

  /// Sleeps on the clock, then runs `body` on the serial queue.
  public func setTimeout(_ delay: Double, _ body: @escaping @Sendable () -> Void) -> TimerID {
    let id: UInt64 = lock.withLock { nextID += 1; return nextID }
    let clock = self.clock
    let task = Task { [weak self] in
      do {
        try await clock.sleep(for: .milliseconds(max(0, delay.isFinite ? delay : 0)))
      } catch { return }
      guard let self else { return }
      let live = self.lock.withLock { self.timers.removeValue(forKey: id) != nil }
      if live { self.queue.async(execute: body) }
    }
    lock.withLock { timers[id] = task }
    return TimerID(rawValue: id)
  }

  /// Repeats `body` every `interval` ms on the serial queue until cleared.
  public func setInterval(_ interval: Double, _ body: @escaping @Sendable () -> Void) -> TimerID {
    let id: UInt64 = lock.withLock { nextID += 1; return nextID }
    let clock = self.clock
    let task = Task { [weak self] in
      while !Task.isCancelled {
        do {
          try await clock.sleep(for: .milliseconds(max(1, interval)))
        } catch { return }
        guard let self, self.lock.withLock({ self.timers[id] != nil }) else { return }
        self.queue.async(execute: body)
      }
    }
    lock.withLock { timers[id] = task }
    return TimerID(rawValue: id)
  }

  /// Cancels the timer's sleep.
  public func clearTimeout(_ id: TimerID) {
    lock.withLock { timers.removeValue(forKey: id.rawValue) }?.cancel()
  }

  /// Runs `job` on the serial queue.
  public func enqueue(_ job: @escaping @Sendable () -> Void) { queue.async(execute: job) }

  /// `nil`: query functions run on the global concurrent executor.
  public var taskExecutor: (any TaskExecutor)? { nil }
}
