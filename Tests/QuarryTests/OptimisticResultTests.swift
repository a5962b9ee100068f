import Testing
@testable import Quarry

/// `getOptimisticResult(_:optimistic:isRestoring:)`: TanStack's `_optimisticResults`
/// (`'optimistic'` and `'isRestoring'`), as framework bindings read it before subscribing.
/// Expectations taken from query-core 5.102.0's `getOptimisticResult` run on the same setup.
@Suite struct OptimisticResultTests {
  func show(_ result: QueryObserverResult) -> String {
    "\(result.status) \(result.fetchStatus) \(result.error.map { "\($0)" } ?? "nil")"
  }

  @Test func whileRestoringTheMountFetchIsShownIdle() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let calls = Counter()
    var options = QueryOptions(queryKey: ["fresh"])
    options.queryFn = .fn { _ in calls.increment(); return 1 }
    let observer = QueryObserver(client: client, options: options)
    #expect(show(observer.getOptimisticResult(options)) == "pending idle nil")
    #expect(show(observer.getOptimisticResult(options, optimistic: true)) == "pending fetching nil")
    #expect(show(observer.getOptimisticResult(options, optimistic: true, isRestoring: true)) == "pending idle nil")
    scheduler.runUntilIdle()
    #expect(calls.value == 0)  // reading a result never fetches
  }

  @Test func anErroredQueryWithoutDataIsPendingWhileRestoring() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var options = QueryOptions(queryKey: ["e"])
    options.queryFn = .fn { _ in throw Boom() }
    options.retry = .count(0)
    _ = client.prefetchQueryPromise(options)
    scheduler.runUntilIdle()
    let observer = QueryObserver(client: client, options: options)
    #expect(show(observer.getOptimisticResult(options)) == "error idle boom")
    #expect(show(observer.getOptimisticResult(options, optimistic: true)) == "pending fetching nil")
    #expect(show(observer.getOptimisticResult(options, optimistic: true, isRestoring: true)) == "pending idle nil")
  }
}

private struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }
