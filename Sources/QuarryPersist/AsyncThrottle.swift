import Foundation
import Quarry

/// Runs a function at most once per `interval`, always with the latest arguments
/// (TanStack's `asyncThrottle`, which storage persisters save through):
///
/// - the first call runs at once (leading edge);
/// - a call while a run is scheduled or under way only replaces the arguments (the latest wins);
/// - the next run starts `interval` ms after the previous one finished (checked every `interval`
///   ms while it is still running);
/// - a failing run does not block later calls.
///
/// Time is the scheduler's (virtual in tests). `run` gets the arguments and a completion to call
/// when it has finished (at once for synchronous work); it is called on the thread that called
/// ``callAsFunction(_:)`` (leading edge) or on the scheduler's timer thread, never under a lock.
public final class AsyncThrottle<Arguments: Sendable>: @unchecked Sendable {
  // Safe: every `var` below is only touched while `lock` is held.
  private let lock = NSLock()
  private let scheduler: any QueryScheduler
  private let interval: Double
  private let run: @Sendable (Arguments, @escaping @Sendable () -> Void) -> Void
  private var nextExecutionTime: Double = 0
  private var lastArguments: Arguments?
  private var isExecuting = false
  private var isScheduled = false

  /// Creates a throttle on `scheduler`'s clock.
  public init(interval: Double = 1000, scheduler: any QueryScheduler, run: @escaping @Sendable (Arguments, @escaping @Sendable () -> Void) -> Void) {
    self.interval = interval
    self.scheduler = scheduler
    self.run = run
  }

  /// Asks for a run with `arguments`.
  public func callAsFunction(_ arguments: Arguments) {
    let start: Bool = lock.withLock {
      lastArguments = arguments
      if isScheduled { return false }
      isScheduled = true
      return true
    }
    if start { waitWhileExecuting() }
  }

  /// Whether a run is scheduled or under way.
  public var isBusy: Bool { lock.withLock { isScheduled || isExecuting } }

  /// TanStack's `while (isExecuting) await sleep(interval)`.
  private func waitWhileExecuting() {
    if lock.withLock({ isExecuting }) {
      _ = scheduler.setTimeout(interval) { [self] in waitWhileExecuting() }
    } else {
      waitUntilNextExecutionTime()
    }
  }

  /// TanStack's `while (Date.now() < nextExecutionTime) await sleep(nextExecutionTime - now)`.
  private func waitUntilNextExecutionTime() {
    let now = scheduler.now()
    let next = lock.withLock { nextExecutionTime }
    if now < next {
      _ = scheduler.setTimeout(next - now) { [self] in waitUntilNextExecutionTime() }
      return
    }
    let arguments: Arguments = lock.withLock {
      isScheduled = false
      isExecuting = true
      return lastArguments!
    }
    run(arguments) { [self] in
      lock.withLock {
        nextExecutionTime = scheduler.now() + interval
        isExecuting = false
      }
    }
  }
}
