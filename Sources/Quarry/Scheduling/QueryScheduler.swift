/// The source of time, timers and deferred jobs for a ``QueryClient`` (TanStack's `timeoutManager`
/// and microtask queue, injected instead of global).
///
/// Production code uses ``ClockScheduler``; tests and the scenario runner use ``VirtualScheduler``,
/// which makes every run deterministic.
///
/// ```swift
/// let scheduler = VirtualScheduler()
/// let client = QueryClient(scheduler: scheduler)
/// scheduler.advance(by: 1_000)
/// ```
public protocol QueryScheduler: AnyObject, Sendable {
  /// The current time in milliseconds (TanStack's `Date.now()`).
  func now() -> Double
  /// Calls `body` once after `delay` milliseconds. Any `Double` is accepted and none may trap:
  /// NaN and negative delays mean 0. The engine passes delays as TanStack does: a retry delay
  /// unchecked; gc, stale and refetch-interval delays only when finite and not negative.
  func setTimeout(_ delay: Double, _ body: @escaping @Sendable () -> Void) -> TimerID
  /// Calls `body` every `interval` milliseconds until the timer is cleared (any `Double`, as
  /// for ``setTimeout(_:_:)``).
  func setInterval(_ interval: Double, _ body: @escaping @Sendable () -> Void) -> TimerID
  /// Cancels a timer or interval; unknown or fired timers are ignored. Once it returns, the
  /// timer's callback does not start again (an interval's callback already running finishes).
  func clearTimeout(_ id: TimerID)
  /// Runs `job` soon, after the current synchronous work (a JavaScript microtask).
  func enqueue(_ job: @escaping @Sendable () -> Void)
  /// The executor that query functions run on, or `nil` for the global concurrent executor.
  var taskExecutor: (any TaskExecutor)? { get }
}

/// Identifies a timer created by a ``QueryScheduler``.
public struct TimerID: Hashable, Sendable {
  /// The scheduler-assigned number.
  public let rawValue: UInt64
  /// Creates an identifier.
  public init(rawValue: UInt64) { self.rawValue = rawValue }
}

