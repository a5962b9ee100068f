import Dispatch
import Foundation

/// The production ``QueryScheduler``: timers on an injected `Clock`, jobs one at a time in order
/// on a serial queue, query functions on the global concurrent executor.
///
/// **Timers.** Pending timers wait in a heap ordered by (deadline, creation number), and one waker
/// per scheduler waits until the earliest deadline; a timer added with an earlier deadline re-arms
/// it. A timer therefore costs a heap entry, not a task, and adding, clearing or firing one costs
/// O(log n) however many exist. On the system clocks (`ContinuousClock`, `SuspendingClock`) the
/// waker is a Dispatch timer source, so timers come due on time however busy Swift's cooperative
/// thread pool is (an app that floods the pool with tasks does not hold back its queries' retries
/// and garbage collection). It counts time with `DispatchTime`, which stops while the system
/// sleeps, and it checks the clock when it wakes: a timer due during a system sleep fires when the
/// wait it had left has passed after the wake. On any other clock the waker is a task that sleeps
/// on the clock, so a test clock controls it. A timer is registered, under the scheduler's
/// lock, before anything can fire it, so even a 0 ms timer is never lost. Due callbacks run on
/// the serial queue in (deadline, creation) order; a timer cleared before its callback starts
/// never runs. An interval is rescheduled one interval after its deadline (or after now, if it
/// fell behind), so missed repeats are skipped rather than bunched.
///
/// **Delays** never trap: NaN, negative or 0 means now (an interval waits at least 1 ms); a delay
/// of ``maximumDelay`` (2^63 ns, about 292 years) or more, including `.infinity`, means never: no
/// timer is registered and the returned id clears nothing. TanStack on node would instead fire
/// a delay over 2^31 - 1 ms after 1 ms (see `Conformance/tanstack/deviations.json`).
///
/// **Timestamps** (``now()``, TanStack's `Date.now()`) come from `wallTime`, not from the clock.
///
/// ```swift
/// let client = QueryClient(scheduler: ClockScheduler(clock: ContinuousClock()))
/// ```
public final class ClockScheduler<C: Clock>: QueryScheduler, @unchecked Sendable where C.Duration == Duration {
  // Safe: `timers`, `dispatched`, `nextID`, `sleeper`, `sleeperDeadline` and `generation` are
  // guarded by `lock`; the other stored properties are immutable and thread-safe (a Dispatch
  // source may be rescheduled from any thread; it is rescheduled only under `lock`).
  private struct Timer {
    var body: @Sendable () -> Void
    var interval: Duration?
  }

  private let clock: C
  private let wallTime: @Sendable () -> Double
  private let queue = DispatchQueue(label: "quarry.scheduler")
  private let lock = NSLock()
  /// Timers waiting for their deadline.
  private var timers = TimerQueue<C.Instant, Timer>()
  /// One-shot timers that came due and whose callback is queued but has not started.
  private var dispatched: Set<UInt64> = []
  private var nextID: UInt64 = 0
  /// The task sleeping until `sleeperDeadline` (other clocks); only the one of the current
  /// `generation` fires.
  private var sleeper: Task<Void, Never>?
  /// The deadline the waker is armed for; `nil` when nothing is pending.
  private var sleeperDeadline: C.Instant?
  private var generation: UInt64 = 0
  /// The waker on the system clocks: one timer source, rescheduled for each earliest deadline
  /// (`nil` on other clocks, which use `sleeper`).
  private let wakeSource: DispatchSourceTimer?

  /// The longest delay that is scheduled, in milliseconds: 2^63 ns, about 292 years. Longer
  /// delays (and `.infinity`) never fire.
  public static var maximumDelay: Double { 9_223_372_036_854.775 }

  /// Creates a scheduler whose timers sleep on `clock`; `wallTime` gives epoch milliseconds for
  /// timestamps.
  public init(clock: C, wallTime: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 * 1000 }) {
    self.clock = clock
    self.wallTime = wallTime
    if C.self == ContinuousClock.self || C.self == SuspendingClock.self {
      let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "quarry.scheduler.timers"))
      wakeSource = source
      source.setEventHandler { [weak self] in self?.wake() }
      source.activate()  // unscheduled: it fires once `arm` schedules it
    } else {
      wakeSource = nil
    }
  }

  deinit {
    sleeper?.cancel()
    wakeSource?.cancel()
  }

  /// Epoch milliseconds from `wallTime`.
  public func now() -> Double { wallTime() }

  /// Runs `body` on the serial queue once `delay` ms have passed on the clock.
  public func setTimeout(_ delay: Double, _ body: @escaping @Sendable () -> Void) -> TimerID {
    addTimer(Self.duration(delay, atLeast: .zero), repeating: false, body)
  }

  /// Runs `body` on the serial queue every `interval` ms (at least 1 ms) until cleared.
  public func setInterval(_ interval: Double, _ body: @escaping @Sendable () -> Void) -> TimerID {
    addTimer(Self.duration(interval, atLeast: .milliseconds(1)), repeating: true, body)
  }

  /// Cancels a timer or interval; a callback already queued but not started does not run.
  public func clearTimeout(_ id: TimerID) {
    lock.withLock {
      if timers.remove(id.rawValue) == nil { dispatched.remove(id.rawValue) }
      if timers.count == 0 { disarm() }
    }
  }

  /// Runs `job` on the serial queue.
  public func enqueue(_ job: @escaping @Sendable () -> Void) { queue.async(execute: job) }

  /// `nil`: query functions run on the global concurrent executor.
  public var taskExecutor: (any TaskExecutor)? { nil }

  /// The number of timers and intervals registered and not cleared, counting a fired timeout
  /// until its callback starts (for tests and diagnostics).
  public var pendingTimerCount: Int { lock.withLock { timers.count + dispatched.count } }

  // MARK: Timers

  /// `ms` as a `Duration` no shorter than `minimum`, or `nil` for never.
  static func duration(_ ms: Double, atLeast minimum: Duration) -> Duration? {
    if ms.isNaN || ms <= 0 { return minimum }
    guard ms < maximumDelay else { return nil }
    return max(minimum, .milliseconds(ms))
  }

  private func addTimer(_ delay: Duration?, repeating: Bool, _ body: @escaping @Sendable () -> Void) -> TimerID {
    lock.withLock {
      nextID += 1
      let id = nextID
      guard let delay else { return TimerID(rawValue: id) }
      let deadline = clock.now.advanced(by: delay)
      timers.insert(id: id, due: deadline, Timer(body: body, interval: repeating ? delay : nil))
      if sleeperDeadline.map({ deadline < $0 }) ?? true { arm(until: deadline) }
      return TimerID(rawValue: id)
    }
  }

  /// Arms the waker for `deadline`: reschedules the timer source, or replaces the sleeper with one
  /// that sleeps until `deadline`. Called with `lock` held.
  private func arm(until deadline: C.Instant) {
    if let wakeSource {
      sleeperDeadline = deadline
      schedule(wakeSource, for: deadline)
      return
    }
    sleeper?.cancel()
    generation &+= 1
    let generation = self.generation
    sleeperDeadline = deadline
    let clock = self.clock
    // Starting a task runs none of its code here, so this is safe under the lock.
    sleeper = Task.detached { [weak self] in
      var wake = deadline
      while true {
        do { try await clock.sleep(until: wake, tolerance: nil) } catch { return }
        guard let next = self?.fireDueTimers(generation: generation) else { return }
        wake = next
      }
    }
  }

  /// Stops the waker (nothing is pending). Called with `lock` held.
  private func disarm() {
    if let wakeSource {
      guard sleeperDeadline != nil else { return }
      sleeperDeadline = nil
      wakeSource.schedule(deadline: .distantFuture)
      return
    }
    guard let sleeper else { return }
    sleeper.cancel()
    generation &+= 1
    self.sleeper = nil
    sleeperDeadline = nil
  }

  /// Queues the callbacks of every timer due now and returns the next deadline to sleep until,
  /// or `nil` when nothing is pending or a newer sleeper has taken over.
  private func fireDueTimers(generation: UInt64) -> C.Instant? {
    lock.withLock {
      guard generation == self.generation else { return nil }
      return fireDueTimersLocked()
    }
  }

  /// The timer source's handler: queues the due callbacks and re-arms the source for the next
  /// deadline. A wake before the deadline (Dispatch's time and the clock's may differ slightly)
  /// queues nothing and re-arms for the time left.
  private func wake() {
    lock.withLock {
      guard let next = fireDueTimersLocked(), let wakeSource else { return }
      schedule(wakeSource, for: next)
    }
  }

  /// `fireDueTimers`' work, with `lock` held.
  private func fireDueTimersLocked() -> C.Instant? {
    let now = clock.now
    var fired: [(id: UInt64, timer: Timer)] = []
    while let (id, deadline, timer) = timers.popFirst(dueBy: now) {
      if let interval = timer.interval {
        let next = deadline.advanced(by: interval)
        timers.insert(id: id, due: next > now ? next : now.advanced(by: interval), timer)
      } else {
        dispatched.insert(id)
      }
      fired.append((id, timer))
    }
    // Queued under the lock so that batches reach the serial queue in firing order.
    if !fired.isEmpty {
      let batch = fired
      queue.async { [weak self] in self?.run(batch) }
    }
    guard let next = timers.firstDue() else {
      sleeper = nil
      sleeperDeadline = nil
      return nil
    }
    sleeperDeadline = next
    return next
  }

  /// Schedules the timer source to fire at the clock's `deadline`. Called with `lock` held.
  private func schedule(_ wakeSource: DispatchSourceTimer, for deadline: C.Instant) {
    wakeSource.schedule(deadline: Self.dispatchTime(after: clock.now.duration(to: deadline)))
  }

  /// The Dispatch time `wait` from now: now for a wait of zero or less, `.distantFuture` for one
  /// past what `DispatchTime` holds.
  static func dispatchTime(after wait: Duration) -> DispatchTime {
    guard wait > .zero else { return .now() }
    let (seconds, attoseconds) = wait.components
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    // Rounded up: a wake before the deadline waits again rather than spinning.
    let nanoseconds = whole.addingReportingOverflow(UInt64((attoseconds + 999_999_999) / 1_000_000_000))
    guard !overflow, !nanoseconds.overflow else { return .distantFuture }
    let (sum, late) = DispatchTime.now().uptimeNanoseconds.addingReportingOverflow(nanoseconds.partialValue)
    return late || sum >= DispatchTime.distantFuture.uptimeNanoseconds ? .distantFuture : DispatchTime(uptimeNanoseconds: sum)
  }

  /// Runs fired callbacks on the serial queue, skipping timers cleared since they fired.
  private func run(_ fired: [(id: UInt64, timer: Timer)]) {
    for (id, timer) in fired {
      let isLive = lock.withLock {
        timer.interval == nil ? dispatched.remove(id) != nil : timers.contains(id)
      }
      if isLive { timer.body() }
    }
  }
}
