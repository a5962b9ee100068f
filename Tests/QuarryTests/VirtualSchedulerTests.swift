import Synchronization
import Testing
@testable import Quarry
import QuarryScenarios

@Suite struct VirtualSchedulerTests {
  @Test func timersFireInDueThenCreationOrder() {
    let scheduler = VirtualScheduler()
    let log = Log()
    _ = scheduler.setTimeout(20) { log.append("b20") }
    _ = scheduler.setTimeout(10) { log.append("a10") }
    _ = scheduler.setTimeout(20) { log.append("c20") }
    scheduler.advance(to: 15)
    #expect(log.entries == ["a10"])
    #expect(scheduler.now() == 15)
    scheduler.advance(to: 100)
    #expect(log.entries == ["a10", "b20", "c20"])
  }

  @Test func aZeroDelayTimerCreatedWhileFiringIsDueOneMillisecondLater() {
    let scheduler = VirtualScheduler()
    let log = Log()
    _ = scheduler.setTimeout(5) {
      _ = scheduler.setTimeout(0) { log.append("inner at \(Int(scheduler.now()))") }
    }
    scheduler.advance(to: 5)
    #expect(log.entries == [])
    scheduler.advance(to: 6)
    #expect(log.entries == ["inner at 6"])
  }

  @Test func jobsDrainAfterEachTimer() {
    let scheduler = VirtualScheduler()
    let log = Log()
    _ = scheduler.setTimeout(1) { scheduler.enqueue { log.append("job of 1") } }
    _ = scheduler.setTimeout(1) { log.append("timer 2") }
    scheduler.advance(to: 1)
    #expect(log.entries == ["job of 1", "timer 2"])
  }

  @Test func clearedTimersNeverFire() {
    let scheduler = VirtualScheduler()
    let log = Log()
    let id = scheduler.setTimeout(1) { log.append("x") }
    scheduler.clearTimeout(id)
    scheduler.advance(to: 10)
    #expect(log.entries.isEmpty)
  }

  /// The example in `VirtualScheduler`'s doc comment, verbatim.
  @Test func theDocCommentExampleRuns() async {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var options = QueryOptions(queryKey: ["todos"])
    options.queryFn = .fn { _ in await scheduler.sleep(100); return ["buy milk"] }
    Task(executorPreference: scheduler) { await client.prefetchQuery(options) }
    scheduler.advance(by: 100)   // the fetch has finished when this returns
    #expect(client.getQueryData(["todos"]) as? [String] == ["buy milk"])
    #expect(scheduler.now() == 100)
    #expect(scheduler.pendingTimerCount == 1)  // the query's gc timer
    client.clear()
    #expect(scheduler.pendingTimerCount == 0)
  }

  @Test func tasksOnTheSchedulerFinishBeforeAdvanceReturns() async {
    let scheduler = VirtualScheduler()
    let log = Log()
    let task = Task(executorPreference: scheduler) {
      await scheduler.sleep(50)
      log.append("woke at \(Int(scheduler.now()))")
    }
    scheduler.advance(to: 49)
    #expect(log.entries.isEmpty)
    scheduler.advance(to: 50)
    #expect(log.entries == ["woke at 50"])
    await task.value
  }

  /// A task that starts awaiting a promise after the scheduler's last drain (it runs on its own
  /// thread, concurrently with the code driving the clock) still returns: a settled promise
  /// resumes it at once. Before, the resume was a job queued after the last drain, so a
  /// @MainActor test that advanced past a mutation's end just before its waiting task got there
  /// waited forever (about one `swift test` in twenty). Bounded on the real clock to fail, not hang.
  @Test func awaitingAPromiseThatSettledBeforeTheLastDrainNeedsNoMoreDrains() async {
    let scheduler = VirtualScheduler()
    let promise = Promise<Int>(scheduler: scheduler)
    promise.resolve(7)
    scheduler.runUntilIdle()
    let log = Log()
    let waiter = Task { log.append("got \(try await promise.value)") }
    let returned = await eventually(within: hangGuardSeconds) { !log.entries.isEmpty }
    waiter.cancel()
    #expect(returned)
    #expect(log.entries == ["got 7"])
  }

  /// The same through the public API: `fetchQuery` of fresh cached data returns with no
  /// `advance`, as TanStack's resolves on microtasks alone under fake timers.
  @Test func fetchQueryOfFreshCachedDataReturnsWithoutAdvancing() async throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    client.setQueryData(["todos"], value: ["buy milk"])
    let fetch = Task {
      try await client.fetchQuery(["todos"], as: [String].self, staleTime: .milliseconds(.infinity)) { _ in ["refetched"] }
    }
    let log = Log()
    let watcher = Task { log.append("\((try? await fetch.value) ?? [])") }
    let returned = await eventually(within: hangGuardSeconds) { !log.entries.isEmpty }
    fetch.cancel()
    _ = await watcher.value
    #expect(returned)
    #expect(log.entries == [#"["buy milk"]"#])
  }
}

/// The heap-based `VirtualScheduler` fires exactly as the linear-scan reference below (its
/// previous implementation, the harness's `VirtualClock`): (due, creation) order, sinon's 0 ms
/// rule, intervals keeping their creation number, timers made and cleared by callbacks.
@Suite struct VirtualSchedulerOrderTests {
  /// The previous implementation, kept as the model: a list scanned for the minimum.
  final class Reference: @unchecked Sendable {
    // Safe: used from one thread only (the test's).
    struct Timer { var due: Double; var id: UInt64; var body: () -> Void; var interval: Double? }
    var current = 0.0
    var timers: [Timer] = []
    var nextID: UInt64 = 0
    var inTimerPhase = false

    func add(_ delay: Double, repeating: Bool, _ body: @escaping () -> Void) -> UInt64 {
      nextID += 1
      var wait = delay.isNaN ? 0 : delay.rounded(.towardZero)
      if !(wait > 0) { wait = inTimerPhase ? 1 : 0 }
      if repeating && wait < 1 { wait = 1 }
      timers.append(Timer(due: current + wait, id: nextID, body: body, interval: repeating ? wait : nil))
      return nextID
    }
    func clear(_ id: UInt64) { timers.removeAll { $0.id == id } }
    func advance(to time: Double) {
      inTimerPhase = true
      defer { inTimerPhase = false }
      while true {
        let due = timers.indices.filter { timers[$0].due <= time }
        guard let b = due.min(by: { (timers[$0].due, timers[$0].id) < (timers[$1].due, timers[$1].id) }) else { break }
        let timer = timers[b]
        if let interval = timer.interval { timers[b].due += interval } else { timers.remove(at: b) }
        if timer.due > current { current = timer.due }
        timer.body()
      }
      if current < time { current = time }
    }
  }

  /// Drives either scheduler through the same pseudo-random script and returns the firing log.
  static func run(seed: UInt64, add: @escaping @Sendable (Double, Bool, @escaping @Sendable () -> Void) -> UInt64, clear: @escaping @Sendable (UInt64) -> Void, advance: (Double) -> Void, now: @escaping @Sendable () -> Double) -> [String] {
    let log = Log()
    let state = NSLockish()
    nonisolated(unsafe) var random = SplitMix64(seed: seed)
    nonisolated(unsafe) var ids: [UInt64] = []
    let delays: [Double] = [0, 0, 1, 2, 3, 5, 5, 10, -4, .nan, 2.7]
    nonisolated(unsafe) var makeTimer: (String) -> Void = { _ in }
    makeTimer = { label in
      let (delay, repeating) = state.sync { (delays.randomElement(using: &random)!, Int.random(in: 0..<8, using: &random) == 0) }
      nonisolated(unsafe) var fires = 0
      let id = add(delay, repeating) {
        fires += 1
        log.append("\(label)#\(fires)@\(now())")
        let action = state.sync { Int.random(in: 0..<10, using: &random) }
        if action < 3 && label.count < 12 { makeTimer(label + "." + String(fires)) }
        if action == 3, let victim = state.sync({ ids.randomElement(using: &random) }) { clear(victim) }
        if repeating && fires >= 4 { clear(state.sync { ids.last! }) }
      }
      state.sync { ids.append(id) }
    }
    for i in 0..<40 { makeTimer("t\(i)") }
    var time = 0.0
    for _ in 0..<30 {
      time += state.sync { Double(Int.random(in: 0..<4, using: &random)) }
      advance(time)
    }
    return log.entries
  }

  @Test(arguments: 1...20)
  func theHeapFiresInTheReferenceOrder(seed: UInt64) {
    let reference = Reference()
    let expected = Self.run(
      seed: seed, add: { reference.add($0, repeating: $1, $2) }, clear: { reference.clear($0) },
      advance: { reference.advance(to: $0) }, now: { reference.current })
    let scheduler = VirtualScheduler()
    let actual = Self.run(
      seed: seed,
      add: { $1 ? scheduler.setInterval($0, $2).rawValue : scheduler.setTimeout($0, $2).rawValue },
      clear: { scheduler.clearTimeout(TimerID(rawValue: $0)) },
      advance: { scheduler.advance(to: $0) }, now: { scheduler.now() })
    #expect(actual == expected)
    #expect(expected.count > 40)
  }

  /// The job queue is a ring that grows by doubling: jobs run in the order queued whatever the
  /// ring's wrap-around and growth (including jobs queued by running jobs, which land behind
  /// the wrapped ones), each job's closure is released once it has run, and jobs still queued
  /// when the scheduler goes away are released with it.
  @Test func jobsRunInQueueOrderAcrossTheRingsWrapAndGrowth() {
    final class Token: Sendable {}
    let ran = Mutex<[Int]>([])
    weak var firstToken: Token?
    do {
      let scheduler = VirtualScheduler()
      var next = 0
      var expected: [Int] = []
      // Rounds of different sizes move the ring's head around before it grows past 16, 32, 64.
      for round in [3, 15, 16, 17, 40, 5, 100] {
        for _ in 0..<round {
          let n = next
          next += 1
          expected.append(n)
          // Every fifth job queues one more, behind everything queued so far.
          if n % 5 == 0 {
            let child = 100_000 + n
            scheduler.enqueue {
              ran.withLock { $0.append(n) }
              scheduler.enqueue { ran.withLock { $0.append(child) } }
            }
          } else {
            scheduler.enqueue { ran.withLock { $0.append(n) } }
          }
        }
        #expect(!scheduler.isIdle)
        scheduler.runUntilIdle()
        #expect(scheduler.isIdle)
        let children = expected.filter { $0 % 5 == 0 }.map { 100_000 + $0 }
        #expect(ran.withLock { $0 } == expected + children, "round of \(round)")
        ran.withLock { $0 = [] }
        expected = []
      }
      do {
        let token = Token()
        firstToken = token
        scheduler.enqueue { withExtendedLifetime(token) {} }
      }
      #expect(firstToken != nil)
      scheduler.runUntilIdle()
      #expect(firstToken == nil)
      do {
        let queued = Token()
        firstToken = queued
        for _ in 0..<40 { scheduler.enqueue { withExtendedLifetime(queued) {} } }
      }
      #expect(firstToken != nil)
    }
    // The scheduler is gone with 40 jobs queued: their closures were released.
    #expect(firstToken == nil)
  }
}
