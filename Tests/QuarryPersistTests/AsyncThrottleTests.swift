import Quarry
import QuarryPersist
import Testing

/// TanStack's `asyncThrottle.test.ts`, on the virtual clock: a run takes `duration` ms.
@Suite struct AsyncThrottleTests {
  final class Harness: @unchecked Sendable {
    // Safe: the scheduler runs everything on the test's thread.
    let scheduler = VirtualScheduler()
    var calls: [Int] = []
    var finished: [Double] = []
    lazy var throttle = AsyncThrottle<Int>(interval: interval, scheduler: scheduler) { [unowned self] id, done in
      calls.append(id)
      _ = scheduler.setTimeout(duration) { [unowned self] in
        finished.append(scheduler.now())
        done()
      }
    }
    let interval: Double
    let duration: Double
    init(interval: Double, duration: Double) {
      self.interval = interval
      self.duration = duration
    }
  }

  // asyncThrottle.test.ts: "basic"
  @Test func theLatestArgumentsRunOneIntervalAfterTheFirstRun() {
    let h = Harness(interval: 10, duration: 1)
    h.throttle(1)
    h.scheduler.advance(by: 1)
    h.throttle(2)
    h.scheduler.advance(by: 1)
    h.throttle(3)
    h.scheduler.advance(by: 20)
    #expect(h.calls == [1, 3])
    #expect(h.finished.count == 2)
    #expect(h.finished[1] - h.finished[0] >= 10)
  }

  // asyncThrottle.test.ts: "Bug #3331 case 1: Special timing"
  @Test func callsDuringARunOnlyReplaceTheArguments() {
    let h = Harness(interval: 1000, duration: 30)
    h.throttle(1)
    h.throttle(2)
    h.scheduler.advance(by: 35)
    h.throttle(3)
    h.scheduler.advance(by: 35)
    h.throttle(4)
    h.scheduler.advance(by: 2000)
    #expect(h.calls == [1, 4])
    #expect(h.finished[1] - h.finished[0] >= 1000)
  }

  // asyncThrottle.test.ts: "Bug #3331 case 2: func execution time is greater than the interval."
  @Test func aRunLongerThanTheIntervalDelaysTheNext() {
    let h = Harness(interval: 1000, duration: 1010)
    h.throttle(1)
    h.throttle(2)
    h.throttle(3)
    h.scheduler.advance(by: 1010)
    #expect(h.calls == [1])
    h.scheduler.advance(by: 1010)
    h.scheduler.advance(by: 1010)
    #expect(h.calls == [1, 3])
    #expect(h.finished[1] - h.finished[0] >= 1000)
  }

  @Test func theFirstCallRunsAtOnce() {
    let h = Harness(interval: 1000, duration: 0)
    h.throttle(7)
    #expect(h.calls == [7])
    #expect(h.scheduler.now() == 0)
  }
}
