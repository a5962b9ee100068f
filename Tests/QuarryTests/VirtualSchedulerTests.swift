import Testing
@testable import Quarry

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
}
