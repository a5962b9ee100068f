import Testing
@testable import Quarry

/// `PromiseCountdown` (what `refetchQueries` waits on) must settle in the same job, with the same
/// outcome, as the `promiseAll(…).then` over `.catch(noop)` promises it replaces.
@Suite struct PromiseCountdownTests {
  enum Mode { case ignoringRejection, ignoringRejectionOnly, throwing, fulfilled }

  /// Settles three promises one after another, the last with `lastFails`, while a chain of
  /// numbered jobs runs; logs where the combined promise settles among them.
  private func trace(
    mode: Mode, lastFails: Bool, countdown: Bool, order: [Int] = [0, 1, 2], settledFirst: Bool = false,
    callbacks: Bool = false
  ) -> [String] {
    let scheduler = VirtualScheduler()
    let log = Log()
    let promises = (0..<4).map { _ in Promise<any Sendable>(scheduler: scheduler) }
    // A fourth promise, settled before it is counted (or at job 2).
    if settledFirst { promises[3].resolve(3) }
    let combined: Promise<Void>
    if countdown {
      let c = PromiseCountdown(count: promises.count, scheduler: scheduler)
      for p in promises {
        switch mode {
        case .ignoringRejection: c.countIgnoringRejection(p)
        case .ignoringRejectionOnly: c.countIgnoringRejectionOnly(p)
        case .throwing: c.count(p)
        case .fulfilled: c.countFulfilled()
        }
      }
      combined = c.all.then { _ in () }
    } else {
      let followed: [Promise<any Sendable>] = promises.map { p in
        switch mode {
        case .ignoringRejection, .ignoringRejectionOnly: return p.ignoringRejection()
        case .throwing: return p
        case .fulfilled: return Promise.resolved((), scheduler: scheduler)
        }
      }
      combined = promiseAll(followed, scheduler: scheduler).then { _ in () }
    }
    if callbacks {
      // Callbacks of their own, registered after the counting, on a pending and a settled promise.
      promises[order[1]].whenSettled { _ in log.append("callback \(order[1])") }
      promises[3].whenSettled { _ in log.append("callback 3") }
    }
    combined.whenSettled { result in
      switch result {
      case .success: log.append("fulfilled")
      case .failure: log.append("rejected")
      }
    }
    @Sendable func tick(_ i: Int) {
      scheduler.enqueue {
        log.append("job \(i)")
        if i == 1 { promises[order[0]].resolve(0) }
        if i == 2 {
          promises[order[1]].resolve(1)
          if !settledFirst { promises[3].resolve(3) }
        }
        if i == 3 {
          if lastFails { promises[order[2]].reject(QuarryError.undefinedData(queryHash: "k")) } else { promises[order[2]].resolve(2) }
        }
        if i < 10 { tick(i + 1) }
      }
    }
    tick(0)
    scheduler.runUntilIdle()
    return log.entries
  }

  @Test(arguments: [Mode.ignoringRejection, .ignoringRejectionOnly, .throwing, .fulfilled], [false, true])
  func settlesInTheJobPromiseAllWould(mode: Mode, lastFails: Bool) {
    let expected = trace(mode: mode, lastFails: lastFails, countdown: false)
    #expect(expected.contains("fulfilled") || expected.contains("rejected"))
    #expect(trace(mode: mode, lastFails: lastFails, countdown: true) == expected)
  }

  /// The promises settling in another order than they were counted, one of them settled before
  /// it is counted, and callbacks of their own beside the countdown.
  @Test(arguments: [[0, 1, 2], [2, 0, 1], [1, 2, 0]], [false, true])
  func onlyTheLastToSettleQueuesAJob(order: [Int], lastFails: Bool) {
    for settledFirst in [false, true] {
      for callbacks in [false, true] {
        let expected = trace(
          mode: .ignoringRejectionOnly, lastFails: lastFails, countdown: false, order: order,
          settledFirst: settledFirst, callbacks: callbacks)
        #expect(expected.contains("fulfilled"))
        #expect(!callbacks || expected.contains("callback 3"))
        for mode in [Mode.ignoringRejectionOnly, .ignoringRejection] {
          let actual = trace(
            mode: mode, lastFails: lastFails, countdown: true, order: order, settledFirst: settledFirst,
            callbacks: callbacks)
          #expect(actual == expected, "\(mode) settledFirst: \(settledFirst) callbacks: \(callbacks)")
        }
      }
    }
  }

  /// Every promise settled before it is counted: the last counted queues the jobs.
  @Test func promisesSettledBeforeTheyAreCounted() {
    func trace(countdown: Bool) -> [String] {
      let scheduler = VirtualScheduler()
      let log = Log()
      let promises = (0..<2).map { _ in Promise<any Sendable>.resolved(0, scheduler: scheduler) }
      let combined: Promise<Void>
      if countdown {
        let c = PromiseCountdown(count: promises.count, scheduler: scheduler)
        for p in promises { c.countIgnoringRejectionOnly(p) }
        combined = c.all.then { _ in () }
      } else {
        combined = promiseAll(promises.map { $0.ignoringRejection() }, scheduler: scheduler).then { _ in () }
      }
      combined.whenSettled { _ in log.append("fulfilled") }
      @Sendable func tick(_ i: Int) {
        scheduler.enqueue {
          log.append("job \(i)")
          if i < 6 { tick(i + 1) }
        }
      }
      tick(0)
      scheduler.runUntilIdle()
      return log.entries
    }
    let expected = trace(countdown: false)
    #expect(expected.contains("fulfilled"))
    #expect(trace(countdown: true) == expected)
  }

  @Test func withNothingToCountItHasFulfilledAtOnce() {
    let scheduler = VirtualScheduler()
    let countdown = PromiseCountdown(count: 0, scheduler: scheduler)
    let log = Log()
    countdown.all.whenSettled { _ in log.append("settled") }
    #expect(log.entries.isEmpty)
    scheduler.runUntilIdle()
    #expect(log.entries == ["settled"])
  }
}
