import Testing
@testable import Quarry

/// The engine's promise runs the callbacks registered before it settled in one job, in order;
/// that must order everything as one job per callback (JavaScript's microtasks) would.
@Suite struct PromiseTests {
  @Test func callbacksRunInOrderAndTheirOwnJobsQueueBehindTheRest() {
    let scheduler = VirtualScheduler()
    let log = Log()
    let promise = Promise<any Sendable>(scheduler: scheduler)
    promise.whenSettled { result in
      log.append("first \(try! result.get())")
      scheduler.enqueue { log.append("job of first") }
    }
    promise.whenSettled { _ in log.append("second") }
    promise.whenSettled { _ in log.append("third") }
    scheduler.enqueue { log.append("queued before settling") }
    promise.resolve(1)
    #expect(log.entries.isEmpty)  // never synchronously inside `resolve`
    promise.whenSettled { _ in log.append("after settling") }
    scheduler.runUntilIdle()
    #expect(log.entries == [
      "queued before settling", "first 1", "second", "third", "after settling", "job of first",
    ])
  }

  @Test func aRejectionReachesEveryCallbackOnce() {
    let scheduler = VirtualScheduler()
    let log = Log()
    let promise = Promise<Void>(scheduler: scheduler)
    for i in 0..<3 {
      promise.whenSettled { result in
        if case .failure = result { log.append("rejected \(i)") }
      }
    }
    promise.reject(QuarryError.undefinedData(queryHash: "k"))
    promise.resolve(())  // settled already: ignored
    scheduler.runUntilIdle()
    #expect(log.entries == ["rejected 0", "rejected 1", "rejected 2"])
  }
}
