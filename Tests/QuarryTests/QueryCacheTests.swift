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

/// A query's state change reaches the cache's listeners exactly while there are any
/// (`QueryCacheLink.hasListeners`, which lets a change without listeners skip the cache).
@Suite struct QueryCacheListenerFlagTests {
  @Test func updatesReachListenersWhileThereAreAny() {
    let client = QueryClient(scheduler: VirtualScheduler())
    let first = Log(), second = Log()
    func record(_ log: Log) -> @Sendable (QueryCacheEvent) -> Void {
      { event in if case .updated = event { log.append(event.query.queryHash) } }
    }
    client.setQueryData(["a"], value: 0)
    #expect(!client.queryCache.link.hasListeners)
    let unsubscribeFirst = client.queryCache.subscribe(record(first))
    let unsubscribeSecond = client.queryCache.subscribe(record(second))
    client.setQueryData(["a"], value: 1)
    unsubscribeFirst()
    #expect(client.queryCache.link.hasListeners)
    client.setQueryData(["b"], value: 2)
    unsubscribeSecond()
    #expect(!client.queryCache.link.hasListeners)
    client.setQueryData(["a"], value: 3)
    let unsubscribeAgain = client.queryCache.subscribe(record(first))
    client.setQueryData(["c"], value: 4)
    unsubscribeAgain()
    #expect(first.entries == [#"["a"]"#, #"["c"]"#])
    #expect(second.entries == [#"["a"]"#, #"["b"]"#])
  }
}
