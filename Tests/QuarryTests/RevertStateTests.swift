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

  // A fetch keeps only the members its own actions write (`FetchRevert`); the state it reverts
  // to is the current one with those put back. These fail if a member is not put back, or if an
  // action that writes other members does not copy the state out first.

  /// A query that has failed once (error, `isInvalidated`, a failure count and reason), then a
  /// fetch with `meta` that fails an attempt (`.failed`) and waits to retry.
  private func failedThenRefetching(_ meta: JSONValue?) -> (VirtualScheduler, QueryClient, Query) {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var options = QueryOptions(queryKey: ["k"])
    options.queryFn = .fn { _ in await scheduler.sleep(10); throw QuarryError.missingQueryFn(queryHash: "boom") }
    options.retry = .bool(false)
    client.prefetchQueryPromise(options)
    scheduler.advance(by: 10)
    options.retry = .count(1)
    options.retryDelay = .milliseconds(100)
    let query = client.queryCache.find(QueryFilters(queryKey: ["k"]))!
    #expect(query.state.status == .error)
    _ = client.engine.lock.sync { query.fetch(options, FetchOptions(meta: meta)) }
    scheduler.advance(by: 10)  // the first attempt failed: `.failed`, waiting 100 ms to retry
    #expect(query.state.fetchFailureCount == 1 && query.state.status == .pending)
    return (scheduler, client, query)
  }

  @Test func aCancelledFetchRevertsEveryMemberItsActionsWrote() {
    let (scheduler, client, query) = failedThenRefetching(.string("second"))
    let before = client.engine.lock.sync { query.revertState }!
    _ = client.cancelQueriesPromise(QueryFilters(queryKey: ["k"]))
    scheduler.advance(by: 1)
    let state = query.state
    #expect(state.status == .error)
    #expect(state.fetchStatus == .idle)
    #expect((state.error as? QuarryError) == .missingQueryFn(queryHash: "boom"))
    #expect(state.fetchFailureCount == 1)
    #expect((state.fetchFailureReason as? QuarryError) == .missingQueryFn(queryHash: "boom"))
    #expect(state.fetchMeta == nil)
    #expect(state.isInvalidated)
    #expect(state.errorUpdateCount == 1)
    #expect(before.status == .error && before.fetchFailureCount == 1 && before.fetchMeta == nil)
  }

  /// A query holding `"a"`, 10 ms into a fetch (with `meta`) whose function takes 100 ms.
  private func fetchingSlowly(meta: JSONValue? = nil) -> (VirtualScheduler, QueryClient, Query) {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    client.setQueryData(["k"], value: "a")
    var options = QueryOptions(queryKey: ["k"])
    options.queryFn = .fn { _ in await scheduler.sleep(100); return "b" }
    let query = client.queryCache.find(QueryFilters(queryKey: ["k"]))!
    _ = client.engine.lock.sync { query.fetch(options, meta.map { FetchOptions(meta: $0) }) }
    scheduler.advance(by: 10)
    return (scheduler, client, query)
  }

  @Test func anInvalidationDuringAFetchIsReverted() {
    let (scheduler, client, query) = fetchingSlowly(meta: .string("m"))
    client.engine.lock.sync { query.invalidate() }
    #expect(query.state.isInvalidated && query.state.fetchMeta == .string("m"))
    _ = client.cancelQueriesPromise(QueryFilters(queryKey: ["k"]))
    scheduler.advance(by: 200)
    #expect(!query.state.isInvalidated)
    #expect(query.state.fetchMeta == nil)
    #expect(query.state.fetchStatus == .idle)
    #expect(client.getQueryData(["k"]) as? String == "a")
  }

  @Test func aStateSetDuringAFetchIsNotWhatItRevertsTo() {
    let (scheduler, client, query) = fetchingSlowly()
    var replaced = query.state
    replaced.dataUpdateCount = 7
    replaced.errorUpdateCount = 5
    client.engine.lock.sync { query.setState(replaced) }
    // The state the fetch started from, copied out before `setState` changed other members.
    #expect(client.engine.lock.sync { query.revertState }?.dataUpdateCount == 1)
    _ = client.cancelQueriesPromise(QueryFilters(queryKey: ["k"]))
    scheduler.advance(by: 200)
    #expect(query.state.dataUpdateCount == 1)
    #expect(query.state.errorUpdateCount == 0)
    #expect(query.state.fetchStatus == .idle)
  }

  @Test func aFetchThatSucceededKeepsNothingToRevertTo() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var options = QueryOptions(queryKey: ["k"])
    options.queryFn = .fn { _ in "b" }
    client.prefetchQueryPromise(options)
    scheduler.runUntilIdle()
    let query = client.queryCache.find(QueryFilters(queryKey: ["k"]))!
    #expect(client.engine.lock.sync { query.fetchRevert == nil && query.revertState == nil })
  }
}
