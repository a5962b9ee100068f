import Foundation
import Testing
@testable import Quarry

/// No delay traps, on either scheduler, on any thread: NaN, negative, infinite and huge finite
/// delays, given to the schedulers directly and through every option that makes a timer.
@Suite struct TimerDelayTests {
  static let neverDelays: [Double] = [.infinity, .greatestFiniteMagnitude, 1e300, 1e23, ClockScheduler<ContinuousClock>.maximumDelay]
  static let nowDelays: [Double] = [.nan, -.infinity, -.greatestFiniteMagnitude, -1, -0.0, 0, 0.4]

  @Test func aClockSchedulerNeverSchedulesDelaysTooLongToRepresent() async {
    let scheduler = ClockScheduler(clock: ContinuousClock())
    let fired = Counter()
    await Task.detached {
      for delay in Self.neverDelays {
        let timeout = scheduler.setTimeout(delay) { fired.increment() }
        let interval = scheduler.setInterval(delay) { fired.increment() }
        scheduler.clearTimeout(timeout)  // clearing a "never" timer is harmless
        scheduler.clearTimeout(interval)
        _ = scheduler.setTimeout(delay) { fired.increment() }
        _ = scheduler.setInterval(delay) { fired.increment() }
      }
    }.value
    #expect(scheduler.pendingTimerCount == 0)
    // The longest delay that is scheduled converts without trapping.
    #expect(ClockScheduler<ContinuousClock>.duration(ClockScheduler<ContinuousClock>.maximumDelay.nextDown, atLeast: .zero) != nil)
    try? await Task.sleep(for: .milliseconds(20))
    #expect(fired.value == 0)
  }

  @Test func aClockSchedulerTreatsNaNAndNegativeDelaysAsNow() async {
    let scheduler = ClockScheduler(clock: ContinuousClock())
    let fired = Counter()
    let repeats = LockedMap<Int, Int>()
    let intervals = LockedMap<Int, TimerID>()
    let thread = Thread {
      for (i, delay) in Self.nowDelays.enumerated() {
        _ = scheduler.setTimeout(delay) { fired.increment() }
        intervals[i] = scheduler.setInterval(delay) { repeats.update(i, default: 0) { $0 += 1 } }
      }
    }
    thread.start()
    let done = await eventually(within: hangGuardSeconds) {
      let snapshot = repeats.snapshot
      return fired.value == Self.nowDelays.count && Self.nowDelays.indices.allSatisfy { (snapshot[$0] ?? 0) >= 2 }
    }
    #expect(done, "timeouts fired: \(fired.value), interval repeats: \(repeats.snapshot)")
    for (_, id) in intervals.snapshot { scheduler.clearTimeout(id) }
    #expect(scheduler.pendingTimerCount == 0)
  }

  @Test func aVirtualSchedulerFollowsTheFakeTimerRulesForEveryDelay() {
    let scheduler = VirtualScheduler()
    let log = Log()
    for delay in Self.nowDelays { _ = scheduler.setTimeout(delay) { log.append("now \(delay)") } }
    _ = scheduler.setTimeout(.infinity) { log.append("infinity") }
    _ = scheduler.setTimeout(.greatestFiniteMagnitude) { log.append("greatest") }
    let interval = scheduler.setInterval(.nan) { log.append("nan interval") }
    _ = scheduler.setInterval(.infinity) { log.append("infinite interval") }
    scheduler.advance(by: 0)
    #expect(log.entries == Self.nowDelays.map { "now \($0)" })
    scheduler.advance(by: 2)
    #expect(log.entries.suffix(2) == ["nan interval", "nan interval"])
    scheduler.clearTimeout(interval)
    scheduler.advance(by: 1e15)
    #expect(log.entries.count == Self.nowDelays.count + 2)
    #expect(scheduler.nextTimerDue == .greatestFiniteMagnitude)
    // Not clamped: a huge finite delay comes due if the clock gets there.
    scheduler.advance(to: .greatestFiniteMagnitude)
    #expect(log.entries.last == "greatest")
    #expect(scheduler.pendingTimerCount == 2)  // the infinite timeout and interval
  }

  /// Every option that makes a timer, at `.greatestFiniteMagnitude` ms, on a background thread.
  static func hugeOptions(_ key: QueryKey, calls: Counter) -> QueryOptions {
    var options = QueryOptions(queryKey: key)
    options.gcTime = .greatestFiniteMagnitude
    options.staleTime = .value(.milliseconds(.greatestFiniteMagnitude))
    options.refetchInterval = .milliseconds(.greatestFiniteMagnitude)
    options.retry = .count(1)
    options.retryDelay = .milliseconds(.greatestFiniteMagnitude)
    options.queryFn = .fn { _ in
      calls.increment()
      throw TestFailure("fails")
    }
    return options
  }

  @Test func hugeOptionDelaysOnTheRealClockMeanNever() async {
    let scheduler = ClockScheduler(clock: ContinuousClock())
    let client = QueryClient(scheduler: scheduler)
    let calls = Counter()
    let unsubscribe: @Sendable () -> Void = await Task.detached {
      _ = client.setQueryData(["fresh"], value: 1)
      var fresh = Self.hugeOptions(["fresh"], calls: calls)
      fresh.queryFn = .fn { _ in 2 }
      let freshObserver = QueryObserver(client: client, options: fresh)
      let a = freshObserver.subscribe { _ in }
      let observer = QueryObserver(client: client, options: Self.hugeOptions(["failing"], calls: calls))
      let b = observer.subscribe { _ in }
      return { @Sendable in a(); b() }
    }.value
    // The first attempt fails; the retry waits "forever", so the fetch stays fetching.
    let failedOnce = await eventually(within: hangGuardSeconds) { client.getQueryState(["failing"])?.fetchFailureCount == 1 }
    #expect(failedOnce)
    #expect(client.getQueryState(["failing"])?.fetchStatus == .fetching)
    #expect(client.getQueryState(["fresh"])?.fetchStatus == .idle)
    #expect(calls.value == 1)
    unsubscribe()
    #expect(client.queryCache.getAll().count == 2)  // a "never" gc timer keeps them
    #expect(scheduler.pendingTimerCount == 0)
  }

  @Test func hugeOptionDelaysOnVirtualTimeAreNotClamped() async {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let calls = Counter()
    let observer = await Task.detached {
      let observer = QueryObserver(client: client, options: Self.hugeOptions(["failing"], calls: calls))
      _ = observer.subscribe { _ in }
      return observer
    }.value
    scheduler.advance(by: 1e15)
    #expect(calls.value == 1)
    #expect(client.getQueryState(["failing"])?.fetchFailureCount == 1)
    #expect(client.getQueryState(["failing"])?.fetchStatus == .fetching)
    observer.destroy()
    #expect(client.queryCache.getAll().count == 1)
  }
}
