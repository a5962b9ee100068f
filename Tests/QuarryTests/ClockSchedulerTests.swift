import Foundation
import Testing
@testable import Quarry

/// `ClockScheduler` on the real `ContinuousClock`. Every wait is bounded, so a lost timer fails
/// the test instead of hanging it.
@Suite struct ClockSchedulerTests {
  // The timer race (issue 8) shows when the pool is idle: a timer set on its own, waited for,
  // then the next. Each wait is bounded, so a lost timer ends the loop early. The bounds allow
  // for a full parallel run on a loaded two-core machine: the sleeper resumes on the cooperative
  // pool, behind every other suite's queued work, and one such run (load 8.8) kept the first
  // timer waiting over 30 s.

  @Test func zeroDelayTimersSetOneAtATimeAllFire() async {
    let scheduler = ClockScheduler(clock: ContinuousClock())
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
    let ended = await eventually(within: 240) { finished.value == 1 }
    #expect(ended)
    #expect(fired.value == 500, "\(fired.value) of 500 zero-delay timers fired")
    #expect(scheduler.pendingTimerCount == 0)
  }

  @Test func zeroDelayIntervalsStartedOneAtATimeAllRepeat() async {
    let scheduler = ClockScheduler(clock: ContinuousClock())
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
    let ended = await eventually(within: 240) { finished.value == 1 }
    #expect(ended)
    #expect(repeated.value == 200, "\(repeated.value) of 200 intervals repeated")
    #expect(scheduler.pendingTimerCount == 0)
  }

  @Test func zeroDelayTimersSetFromManyThreadsAllFire() async {
    let scheduler = ClockScheduler(clock: ContinuousClock())
    let fired = Counter()
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<500 { _ = scheduler.setTimeout(0) { fired.increment() } }
    }
    let allFired = await eventually(within: 60) { fired.value == 2_000 }
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

  @Test func fetchesRetriedAfterAZeroDelayAllSettle() async {
    let client = QueryClient(scheduler: ClockScheduler(clock: ContinuousClock()))
    let calls = Counter()
    let settled = LockedMap<Int, Int>()
    Task.detached {
      for i in 0..<500 {
        let value = try? await client.fetchQuery(Self.retriedOnce(["retry", .number(Double(i))], i, calls: calls))
        settled[i] = value as? Int ?? -1
      }
    }
    let allSettled = await eventually(within: 60) { settled.snapshot.count == 500 }
    #expect(allSettled, "\(settled.snapshot.count) of 500 fetches settled")
    #expect(settled.snapshot.allSatisfy { $0.key == $0.value })
    #expect(calls.value == 1_000)
  }

  @Test func concurrentFetchesRetriedAfterAZeroDelayAllSettle() async {
    let client = QueryClient(scheduler: ClockScheduler(clock: ContinuousClock()))
    let settled = LockedMap<Int, Int>()
    for i in 0..<500 {
      let options = Self.retriedOnce(["retry", .number(Double(i))], i, calls: Counter())
      Task.detached { settled[i] = try? await client.fetchQuery(options) as? Int ?? -1 }
    }
    let allSettled = await eventually(within: 60) { settled.snapshot.count == 500 }
    #expect(allSettled, "\(settled.snapshot.count) of 500 fetches settled")
    #expect(settled.snapshot.allSatisfy { $0.key == $0.value })
  }

  @Test func queriesWithZeroGcTimeAreAllCollected() async throws {
    let client = QueryClient(scheduler: ClockScheduler(clock: ContinuousClock()))
    for i in 0..<500 {
      var options = QueryOptions(queryKey: ["gc", .number(Double(i))])
      options.gcTime = 0
      options.queryFn = .fn { _ in i }
      #expect(try await client.fetchQuery(options) as? Int == i)
    }
    let allCollected = await eventually(within: 60) { client.queryCache.getAll().isEmpty }
    #expect(allCollected, "\(client.queryCache.getAll().count) of 500 queries with gcTime 0 were never collected")
  }

  @Test func anEarlierTimerRearmsTheSleeper() async {
    let scheduler = ClockScheduler(clock: ContinuousClock())
    let log = Log()
    let late = scheduler.setTimeout(600_000) { log.append("late") }
    _ = scheduler.setTimeout(1) { log.append("early") }
    let fired = await eventually(within: 60) { log.entries == ["early"] }
    #expect(fired, "\(log.entries)")
    #expect(scheduler.pendingTimerCount == 1)
    scheduler.clearTimeout(late)
    #expect(scheduler.pendingTimerCount == 0)
  }

  @Test func timersFireInDeadlineThenCreationOrder() async {
    let scheduler = ClockScheduler(clock: ContinuousClock())
    let log = Log()
    _ = scheduler.setTimeout(30) { log.append("30") }
    _ = scheduler.setTimeout(10) { log.append("10") }
    for i in 0..<100 { _ = scheduler.setTimeout(20) { log.append("20.\(i)") } }
    let done = await eventually(within: 60) { log.entries.count == 102 }
    #expect(done)
    #expect(log.entries == ["10"] + (0..<100).map { "20.\($0)" } + ["30"])
  }

  @Test func aTimerClearedAfterComingDueButBeforeItsCallbackNeverRuns() async {
    let scheduler = ClockScheduler(clock: ContinuousClock())
    let log = Log()
    let gate = DispatchSemaphore(value: 0)
    scheduler.enqueue { gate.wait() }  // holds the serial queue
    let id = scheduler.setTimeout(0) { log.append("ran") }
    try? await Task.sleep(for: .milliseconds(20))
    scheduler.clearTimeout(id)
    gate.signal()
    let drained = DispatchSemaphore(value: 0)
    scheduler.enqueue { drained.signal() }
    let drainedInTime = await eventually(within: 60) { drained.wait(timeout: .now()) == .success }
    #expect(drainedInTime)
    #expect(log.entries.isEmpty)
    #expect(scheduler.pendingTimerCount == 0)
  }

  @Test func anIntervalRepeatsUntilCleared() async throws {
    let scheduler = ClockScheduler(clock: ContinuousClock())
    let ticks = Counter()
    let id = scheduler.setInterval(2) { ticks.increment() }
    let repeated = await eventually(within: 60) { ticks.value >= 3 }
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

  @Test func aReleasedSchedulerFiresNothing() async throws {
    let fired = Counter()
    do {
      let scheduler = ClockScheduler(clock: ContinuousClock())
      _ = scheduler.setTimeout(10) { fired.increment() }
    }
    try await Task.sleep(for: .milliseconds(50))
    #expect(fired.value == 0)
  }
}

/// An error thrown by scripted query functions in tests.
struct TestFailure: Error, Equatable, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
