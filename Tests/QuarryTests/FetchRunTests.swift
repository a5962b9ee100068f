import Synchronization
import Testing
@testable import Quarry

/// A fetch's `QueryFetchRun` is its `Retryer`, held by the query until the fetch settles; then
/// it must be freed, whether the fetch succeeded, failed or was cancelled.
@Suite struct FetchRunTests {
  private final class Weak: @unchecked Sendable {
    // Safe: written once on the test's thread before being read there.
    weak var retryer: Retryer?
  }

  private func retryerIsFreed(after finish: (QueryClient, VirtualScheduler) -> Void, queryFn: (VirtualScheduler) -> QueryFnOption) -> Bool {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var options = QueryOptions(queryKey: ["k"])
    options.queryFn = queryFn(scheduler)
    options.retry = .bool(false)
    let weak = Weak()
    do {
      client.prefetchQueryPromise(options)
      let query = client.queryCache.find(QueryFilters(queryKey: ["k"]))!
      weak.retryer = client.engine.lock.sync { query.retryer }
      #expect(weak.retryer != nil)
      // The fetch's run is its retryer.
      #expect(weak.retryer is QueryFetchRun)
    }
    finish(client, scheduler)
    return weak.retryer == nil
  }

  @Test func aSucceededFetchFreesItsRetryer() {
    #expect(retryerIsFreed(after: { _, scheduler in scheduler.advance(by: 200) },
      queryFn: { _ in .fn { _ in "data" } }))
  }

  @Test func aFailedFetchFreesItsRetryer() {
    #expect(retryerIsFreed(after: { _, scheduler in scheduler.advance(by: 200) },
      queryFn: { _ in .fn { _ in throw QuarryError.undefinedData(queryHash: "x") } }))
  }

  @Test func aCancelledFetchFreesItsRetryer() {
    #expect(retryerIsFreed(after: { client, scheduler in
      scheduler.advance(by: 10)
      _ = client.cancelQueriesPromise(QueryFilters(queryKey: ["k"]))
      scheduler.advance(by: 2000)
    }, queryFn: { scheduler in .fn { _ in await scheduler.sleep(1000); return "late" } }))
  }

  /// Cancelling a fetch cancels the Swift task running its query function (registered with the
  /// fetch's abort state by `QueryFetchRun.startAttempt`, or with the signal by
  /// `QueryFunctionCall.start`), and a settled fetch's function saw no cancellation.
  @Test(arguments: [true, false]) func cancellingAFetchCancelsTheTaskOfItsQueryFunction(cancel: Bool) {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let sawCancellation = Mutex<Bool?>(nil)
    var options = QueryOptions(queryKey: ["k"])
    options.retry = .bool(false)
    options.queryFn = .fn { _ in
      await scheduler.sleep(1000)
      sawCancellation.withLock { $0 = Task.isCancelled }
      return "data"
    }
    client.prefetchQueryPromise(options)
    scheduler.advance(by: 10)
    #expect(sawCancellation.withLock { $0 } == nil)
    if cancel { _ = client.cancelQueriesPromise(QueryFilters(queryKey: ["k"])) }
    scheduler.advance(by: 2000)
    #expect(sawCancellation.withLock { $0 } == cancel)
  }

  private final class WeakPromise: @unchecked Sendable {
    // Safe: written and read on the test's thread only.
    weak var promise: Promise<any Sendable>?
  }

  /// A query function's call is the promise of its outcome: it settles with what the function
  /// returns or throws, and is freed once that has been delivered.
  @Test(arguments: [true, false]) func aQueryFunctionsCallIsItsPromiseAndIsFreedOnceDelivered(throwing: Bool) {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let query = client.engine.lock.sync { client.queryCache.build(client, QueryOptions(queryKey: ["k"])) }
    let outcome = Mutex<String?>(nil)
    let weak = WeakPromise()
    do {
      let context = QueryFunctionContext(queryKey: ["k"], meta: nil, signal: AbortSignal(), onSignalRead: {})
      let promise = client.engine.lock.sync {
        query.runQueryFn(context, nil, queryFn: .fn { _ in
          await scheduler.sleep(10)
          if throwing { throw QuarryError.undefinedData(queryHash: "x") }
          return "data"
        })
      }
      #expect(promise is QueryFunctionCall)
      weak.promise = promise
      promise.whenSettled { result in
        outcome.withLock { $0 = (try? result.get()).map { "\($0)" } ?? "failed" }
      }
    }
    #expect(weak.promise != nil)  // the running task holds it
    scheduler.advance(by: 10)
    #expect(outcome.withLock { $0 } == (throwing ? "failed" : "data"))
    #expect(weak.promise == nil)
  }

  /// A fetch's promise is its run: it settles with the fetch's data, the run has let go of its
  /// retryer by then, and it is freed once nobody holds the promise.
  @Test func aFetchsPromiseIsItsRunAndIsFreedOnceSettledAndDropped() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var options = QueryOptions(queryKey: ["k"])
    options.queryFn = .fn { _ in await scheduler.sleep(10); return "data" }
    let weak = WeakPromise()
    let data = Mutex<String?>(nil)
    do {
      let promise = client.fetchQueryPromise(options)
      #expect(promise is QueryFetchRun)
      weak.promise = promise
      promise.whenSettled { result in data.withLock { $0 = (try? result.get()) as? String } }
    }
    #expect(weak.promise != nil)  // the running fetch holds it
    scheduler.advance(by: 10)
    #expect(data.withLock { $0 } == "data")
    #expect(weak.promise == nil)
  }
}
