import Testing
@testable import Quarry

@Suite struct QueryCacheTests {
  @Test func insertionOrderSurvivesManyRemovalsAndReadding() {
    let client = QueryClient(scheduler: VirtualScheduler())
    for i in 0..<100 { client.setQueryData(["q", .number(Double(i))], value: i) }
    client.removeQueries(QueryFilters(predicate: { query in
      guard case .number(let n) = query.queryKey.parts[1] else { return false }
      return Int(n) % 3 != 0
    }))
    client.setQueryData(["q", 1], value: 1)
    let order = client.queryCache.getAll().map { query -> Int in
      guard case .number(let n) = query.queryKey.parts[1] else { return -1 }
      return Int(n)
    }
    #expect(order == Array(stride(from: 0, to: 100, by: 3)) + [1])
    #expect(client.queryCache.get(#"["q",1]"#) != nil)
    #expect(client.queryCache.get(#"["q",2]"#) == nil)
  }

  @Test func clearRemovesEverythingAndNotifies() {
    let client = QueryClient(scheduler: VirtualScheduler())
    let log = Log()
    for i in 0..<5 { client.setQueryData(["k", .number(Double(i))], value: i) }
    let unsubscribe = client.queryCache.subscribe { event in
      if case .removed = event { log.append(event.query.queryHash) }
    }
    client.clear()
    unsubscribe()
    #expect(client.queryCache.getAll().isEmpty)
    #expect(log.entries == (0..<5).map { #"["k",\#($0)]"# })
  }
}
