import Testing
@testable import Quarry

/// A manual write keeps a revert state only while a fetch runs (TanStack keeps it always, but
/// only a running fetch's cancellation reads it, and every fetch first stores its own).
@Suite struct RevertStateTests {
  @Test func aWriteWithoutAFetchKeepsNoRevertStateAndAFetchRevertsToIt() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    client.setQueryData(["k"], value: "a")
    let query = client.queryCache.find(QueryFilters(queryKey: ["k"]))!
    #expect(client.engine.lock.sync { query.revertState } == nil)  // no fetch: nothing kept
    var options = QueryOptions(queryKey: ["k"])
    options.queryFn = .fn { _ in await scheduler.sleep(100); return "b" }
    client.prefetchQueryPromise(options)
    scheduler.advance(by: 10)
    _ = client.cancelQueriesPromise(QueryFilters(queryKey: ["k"]))
    scheduler.advance(by: 10)
    #expect(client.getQueryData(["k"]) as? String == "a")
    #expect(client.getQueryState(["k"])?.fetchStatus == .idle)
    #expect(client.getQueryState(["k"])?.dataUpdateCount == 1)
  }

  @Test func aWriteDuringAFetchIsWhatACancellationRevertsTo() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    client.setQueryData(["k"], value: "a")
    var options = QueryOptions(queryKey: ["k"])
    options.queryFn = .fn { _ in await scheduler.sleep(100); return "b" }
    client.prefetchQueryPromise(options)
    scheduler.advance(by: 10)
    client.setQueryData(["k"], value: "c")  // while fetching: kept to revert to
    let query = client.queryCache.find(QueryFilters(queryKey: ["k"]))!
    #expect(client.engine.lock.sync { query.revertState?.data } as? String == "c")
    _ = client.cancelQueriesPromise(QueryFilters(queryKey: ["k"]))
    scheduler.advance(by: 200)
    #expect(client.getQueryData(["k"]) as? String == "c")
    #expect(client.getQueryState(["k"])?.fetchStatus == .idle)
    #expect(client.getQueryState(["k"])?.dataUpdateCount == 2)
  }
}
