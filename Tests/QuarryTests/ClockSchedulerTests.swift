import Foundation
import Testing
@testable import Quarry

/// `ClockScheduler` on the real clock, with each of its wakers: the Dispatch timer source it uses
/// on `ContinuousClock`, and the sleeping task it uses on any other clock (`ForwardingClock`).
/// Every wait is bounded, so a lost timer fails the test instead of hanging it.
@Suite struct ClockSchedulerTests {
  // The timer race (issue 8) shows when the pool is idle: a timer set on its own, waited for,
  // then the next. Each wait is bounded, so a lost timer ends the loop early. The bounds allow
  // for a full parallel run on a loaded two-core machine: the task waker resumes on the
  // cooperative pool, behind every other suite's queued work, and one such run (load 8.8) kept
  // the first timer waiting over 30 s.

  @Test(arguments: Waker.allCases) func zeroDelayTimersSetOneAtATimeAllFire(waker: Waker) async {
    let scheduler = waker.scheduler()
    let fired = Counter()
    let finished = Counter()
    Thread {
      for _ in 0..<500 {
        let done = DispatchSemaphore(value: 0)
        _ = scheduler.setTimeout(0) { fired.increment(); done.signal() }
        if done.wait(timeout: .now() + 90) == .timedOut { break }
      }
      finished.increment()
    }.start()
    let ended = await eventually(within: hangGuardSeconds) { finished.value == 1 }
    #expect(ended)
    #expect(fired.value == 500, "\(fired.value) of 500 zero-delay timers fired")
    #expect(scheduler.pendingTimerCount == 0)
  }

  @Test(arguments: Waker.allCases) func zeroDelayIntervalsStartedOneAtATimeAllRepeat(waker: Waker) async {
    let scheduler = waker.scheduler()
    let repeated = Counter()
    let finished = Counter()
    Thread {
      for _ in 0..<200 {
        let twice = DispatchSemaphore(value: 0)
        let ticks = Counter()
        let id = scheduler.setInterval(0) {
          ticks.increment()
          if ticks.value == 2 { twice.signal() }
        }
        let timedOut = twice.wait(timeout: .now() + 90) == .timedOut
        scheduler.clearTimeout(id)
        if timedOut { break }
        repeated.increment()
      }
      finished.increment()
    }.start()
    let ended = await eventually(within: hangGuardSeconds) { finished.value == 1 }
    #expect(ended)
    #expect(repeated.value == 200, "\(repeated.value) of 200 intervals repeated")
    #expect(scheduler.pendingTimerCount == 0)
  }

  @Test(arguments: Waker.allCases) func zeroDelayTimersSetFromManyThreadsAllFire(waker: Waker) async {
    let scheduler = waker.scheduler()
    let fired = Counter()
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<500 { _ = scheduler.setTimeout(0) { fired.increment() } }
    }
    let allFired = await eventually(within: hangGuardSeconds) { fired.value == 2_000 }
    #expect(allFired, "\(fired.value) of 2000 zero-delay timers fired")
    #expect(scheduler.pendingTimerCount == 0)
  }

  static func retriedOnce(_ key: QueryKey, _ value: Int, calls: Counter) -> QueryOptions {
    var options = QueryOptions(queryKey: key)
    options.retry = .count(1)
    options.retryDelay = .milliseconds(0)
    options.queryFn = .fn { _ in
      calls.increment()
      if calls.value % 2 == 1 { throw TestFailure("first attempt of \(value)") }
      return value
    }
    return options
  }

  @Test(arguments: Waker.allCases) func fetchesRetriedAfterAZeroDelayAllSettle(waker: Waker) async {
    let client = QueryClient(scheduler: waker.scheduler())
    let calls = Counter()
    let settled = LockedMap<Int, Int>()
    Task.detached {
      for i in 0..<500 {
        let value = try? await client.fetchQuery(Self.retriedOnce(["retry", .number(Double(i))], i, calls: calls))
        settled[i] = value as? Int ?? -1
      }
    }
    let allSettled = await eventually(within: hangGuardSeconds) { settled.snapshot.count == 500 }
    #expect(allSettled, "\(settled.snapshot.count) of 500 fetches settled")
    #expect(settled.snapshot.allSatisfy { $0.key == $0.value })
    #expect(calls.value == 1_000)
  }

  @Test(arguments: Waker.allCases) func concurrentFetchesRetriedAfterAZeroDelayAllSettle(waker: Waker) async {
    let client = QueryClient(scheduler: waker.scheduler())
    let settled = LockedMap<Int, Int>()
    for i in 0..<500 {
      let options = Self.retriedOnce(["retry", .number(Double(i))], i, calls: Counter())
      Task.detached { settled[i] = try? await client.fetchQuery(options) as? Int ?? -1 }
    }
    let allSettled = await eventually(within: hangGuardSeconds) { settled.snapshot.count == 500 }
    #expect(allSettled, "\(settled.snapshot.count) of 500 fetches settled")
    #expect(settled.snapshot.allSatisfy { $0.key == $0.value })
  }

  @Test(arguments: Waker.allCases) func queriesWithZeroGcTimeAreAllCollected(waker: Waker) async throws {
    let client = QueryClient(scheduler: waker.scheduler())
    for i in 0..<500 {
      var options = QueryOptions(queryKey: ["gc", .number(Double(i))])
      options.gcTime = 0
      options.queryFn = .fn { _ in i }
      #expect(try await client.fetchQuery(options) as? Int == i)
    }
    let allCollected = await eventually(within: hangGuardSeconds) { client.queryCache.getAll().isEmpty }
    #expect(allCollected, "\(client.queryCache.getAll().count) of 500 queries with gcTime 0 were never collected")
  }

  @Test(arguments: Waker.allCases) func anEarlierTimerRearmsTheWaker(waker: Waker) async {
    let scheduler = waker.scheduler()
    let log = Log()
    let late = scheduler.setTimeout(600_000) { log.append("late") }
    _ = scheduler.setTimeout(1) { log.append("early") }
    let fired = await eventually(within: hangGuardSeconds) { log.entries == ["early"] }
    #expect(fired, "\(log.entries)")
    #expect(scheduler.pendingTimerCount == 1)
    scheduler.clearTimeout(late)
    #expect(scheduler.pendingTimerCount == 0)
  }

  @Test(arguments: Waker.allCases) func timersFireInDeadlineThenCreationOrder(waker: Waker) async {
    let scheduler = waker.scheduler()
    let log = Log()
    // The latest deadline is set first, far enough out that setting the other 101 timers (slow
    // under the thread sanitizer on a loaded machine) cannot carry their deadlines past it; the
    // rest are set in deadline order, so the expected order holds however long the setup takes.
    _ = scheduler.setTimeout(500) { log.append("500") }
    _ = scheduler.setTimeout(10) { log.append("10") }
    for i in 0..<100 { _ = scheduler.setTimeout(20) { log.append("20.\(i)") } }
    let done = await eventually(within: hangGuardSeconds) { log.entries.count == 102 }
    #expect(done)
    #expect(log.entries == ["10"] + (0..<100).map { "20.\($0)" } + ["500"])
  }

  @Test(arguments: Waker.allCases) func aTimerClearedAfterComingDueButBeforeItsCallbackNeverRuns(waker: Waker) async {
    let scheduler = waker.scheduler()
    let log = Log()
    let gate = DispatchSemaphore(value: 0)
    scheduler.enqueue { gate.wait() }  // holds the serial queue
    let id = scheduler.setTimeout(0) { log.append("ran") }
    try? await Task.sleep(for: .milliseconds(20))
    scheduler.clearTimeout(id)
    gate.signal()
    let drained = DispatchSemaphore(value: 0)
    scheduler.enqueue { drained.signal() }
    let drainedInTime = await eventually(within: hangGuardSeconds) { drained.wait(timeout: .now()) == .success }
    #expect(drainedInTime)
    #expect(log.entries.isEmpty)
    #expect(scheduler.pendingTimerCount == 0)
  }

  @Test(arguments: Waker.allCases) func anIntervalRepeatsUntilCleared(waker: Waker) async throws {
    let scheduler = waker.scheduler()
    let ticks = Counter()
    let id = scheduler.setInterval(2) { ticks.increment() }
    let repeated = await eventually(within: hangGuardSeconds) { ticks.value >= 3 }
    #expect(repeated)
    scheduler.clearTimeout(id)
    let count = ticks.value
    try await Task.sleep(for: .milliseconds(30))
    #expect(ticks.value <= count + 1)  // at most one tick queued before the clear
    #expect(scheduler.pendingTimerCount == 0)
  }

  /// The example in `ClockScheduler`'s doc comment, verbatim, then used.
  @Test func theDocCommentExampleRuns() async throws {
    let client = QueryClient(scheduler: ClockScheduler(clock: ContinuousClock()))
    let value = try await client.fetchQuery(["doc"], as: Int.self) { _ in
      try await Task.sleep(for: .milliseconds(2))
      return 7
    }
    #expect(value == 7)
  }

  @Test(arguments: Waker.allCases) func aReleasedSchedulerFiresNothing(waker: Waker) async throws {
    let fired = Counter()
    do {
      let scheduler = waker.scheduler()
      _ = scheduler.setTimeout(10) { fired.increment() }
    }
    try await Task.sleep(for: .milliseconds(50))
    #expect(fired.value == 0)
  }
  @Test(arguments: Waker.allCases) func aTimerSetAfterAllWereClearedFires(waker: Waker) async {
    let scheduler = waker.scheduler()
    let log = Log()
    let first = scheduler.setTimeout(600_000) { log.append("cleared") }
    scheduler.clearTimeout(first)  // disarms the waker
    _ = scheduler.setTimeout(1) { log.append("fired") }
    let fired = await eventually(within: hangGuardSeconds) { log.entries == ["fired"] }
    #expect(fired, "\(log.entries)")
    #expect(scheduler.pendingTimerCount == 0)
  }

  /// The Dispatch waker and the serial queue need no thread of Swift's cooperative pool: with
  /// every pool thread blocked, a timer set on `ContinuousClock` still fires. (The task waker
  /// cannot pass this: its sleep resumes on the pool.) The blocking and the wait run on a thread
  /// of their own; the test's task waits off the pool's threads until they are released. If
  /// another suite holds a pool thread so that the blockers cannot all start within 10 s, they
  /// are released and the attempt is made again, for up to three minutes (a long synchronous test
  /// elsewhere holds its pool thread for about a minute under the thread sanitizer): the pool is
  /// never held long.
  @Test func aTimerFiresWhileTheCooperativePoolIsBlocked() async {
    let scheduler = ClockScheduler(clock: ContinuousClock())
    let width = ProcessInfo.processInfo.activeProcessorCount
    let saturated = Counter()
    let firedWhileBlocked = Counter()
    let finished = Counter()
    Thread {
      let clock = ContinuousClock()
      let giveUpAt = clock.now.advanced(by: .seconds(180))
      while clock.now < giveUpAt {
        let started = Counter()
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<width {
          Task.detached {
            started.increment()
            release.wait()  // holds a pool thread until the timer has had its chance
          }
        }
        let startBy = clock.now.advanced(by: .seconds(10))
        while started.value < width && clock.now < startBy { usleep(1_000) }
        let blocked = started.value == width
        if blocked {
          saturated.increment()
          let fired = DispatchSemaphore(value: 0)
          _ = scheduler.setTimeout(5) { fired.signal() }
          if fired.wait(timeout: .now() + 10) == .success { firedWhileBlocked.increment() }
        }
        for _ in 0..<width { release.signal() }
        if blocked { break }
        usleep(100_000)  // let the other suite's work through before trying again
      }
      finished.increment()
    }.start()
    let ended = await eventually(within: hangGuardSeconds) { finished.value == 1 }
    #expect(ended)
    #expect(saturated.value == 1, "the blockers never held all \(width) pool threads at once")
    #expect(firedWhileBlocked.value == 1, "the timer did not fire while the pool was blocked")
  }

  @Test func aDispatchWaitIsNowWhenDueAndDistantFutureWhenPastRange() {
    let before = DispatchTime.now()
    #expect(ClockScheduler<ContinuousClock>.dispatchTime(after: .zero) >= before)
    #expect(ClockScheduler<ContinuousClock>.dispatchTime(after: .milliseconds(-5)) <= DispatchTime.now())
    #expect(ClockScheduler<ContinuousClock>.dispatchTime(after: .seconds(Int64.max)) == .distantFuture)
    let inASecond = ClockScheduler<ContinuousClock>.dispatchTime(after: .seconds(1))
    #expect(inASecond.uptimeNanoseconds >= before.uptimeNanoseconds + 1_000_000_000)
    #expect(inASecond.uptimeNanoseconds < DispatchTime.now().uptimeNanoseconds + 2_000_000_000)
    // A part of a nanosecond rounds up, so a wake is never before the deadline by rounding.
    let justOver = ClockScheduler<ContinuousClock>.dispatchTime(after: .nanoseconds(1) / 2)
    #expect(justOver.uptimeNanoseconds >= before.uptimeNanoseconds + 1)
  }
}

/// The two wakers of ``ClockScheduler``, each on a clock that selects it.
enum Waker: CaseIterable, Sendable, CustomTestStringConvertible {
  /// The Dispatch timer source, on `ContinuousClock`.
  case dispatchSource
  /// The task sleeping on the clock, on any other clock.
  case sleepingTask

  var testDescription: String { self == .dispatchSource ? "Dispatch source" : "sleeping task" }

  /// A scheduler with this waker.
  func scheduler() -> any PendingTimerCounting {
    switch self {
    case .dispatchSource: ClockScheduler(clock: ContinuousClock())
    case .sleepingTask: ClockScheduler(clock: ForwardingClock())
    }
  }
}

/// A scheduler whose registered timers can be counted (``ClockScheduler``, whichever its clock).
protocol PendingTimerCounting: QueryScheduler {
  var pendingTimerCount: Int { get }
}

extension ClockScheduler: PendingTimerCounting {}

/// `ContinuousClock` under another type, so that ``ClockScheduler`` uses its task waker.
struct ForwardingClock: Clock {
  private let base = ContinuousClock()
  var now: ContinuousClock.Instant { base.now }
  var minimumResolution: Duration { base.minimumResolution }
  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}

/// An error thrown by scripted query functions in tests.
struct TestFailure: Error, Equatable, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
