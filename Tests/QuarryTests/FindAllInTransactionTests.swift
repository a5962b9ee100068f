import Testing
@testable import Quarry

/// `QueryCache.findAll` matches in one pass inside the engine's transaction (no predicate); it
/// must find the same queries, in the same order, as the matching on a copy outside it.
@Suite struct FindAllInTransactionTests {
  @Test func insideTheTransactionItFindsWhatItFindsOutside() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    for i in 0..<6 { client.setQueryData(["todos", .number(Double(i))], value: i) }
    client.setQueryData(["users", 1], value: 1)
    var options = QueryOptions(queryKey: ["todos", 2])
    options.queryFn = .fn { _ in 2 }
    options.staleTime = .value(.milliseconds(.infinity))
    let observer = QueryObserver(client: client, options: options)
    let unsubscribe = observer.subscribe { _ in }
    defer { unsubscribe() }
    let filters = [
      QueryFilters(queryKey: ["todos"]),
      QueryFilters(queryKey: ["todos"], type: .active),
      QueryFilters(queryKey: ["todos"], type: .inactive),
      QueryFilters(stale: false),
      QueryFilters(queryKey: ["todos", 3], exact: true),
    ]
    for filter in filters {
      let outside = client.queryCache.findAll(filter).map(\.queryHash)
      let inside = client.engine.lock.sync { client.queryCache.findAll(filter).map(\.queryHash) }
      #expect(!outside.isEmpty)
      #expect(inside == outside)
    }
    #expect(client.engine.lock.sync { client.queryCache.findAll(QueryFilters(queryKey: ["todos"], type: .active)).count } == 1)
  }
}
