import Testing
@testable import Quarry

/// A keyed write of a new key whose hash no other key can have builds its query without writing
/// the hash (`QueryCache.buildUnhashed`): the query's `queryHash` is written on first read and
/// the cache's hash table gets it on the first lookup by hash that misses. These check that
/// everything reads as if the hash had been written at once.
@Suite struct PendingQueryHashTests {
  private func pendingCount(_ client: QueryClient) -> Int {
    client.queryCache.getAll().filter { query in client.engine.lock.sync { query.hashPending } }.count
  }

  @Test func aWrittenHashEqualsTheKeysHashKey() {
    let client = QueryClient(scheduler: VirtualScheduler())
    let keys: [QueryKey] = [["todos", 1, ["page": 1]], ["a\"b\\c\n", -0.0, 1e21, 1e-7, true, nil], [["z": 1, "10": 2, "9": 3]], []]
    for (i, key) in keys.enumerated() { client.setQueryData(key, value: i) }
    #expect(pendingCount(client) == keys.count)
    for (query, key) in zip(client.queryCache.getAll(), keys) {
      #expect(query.queryKey == key)
      #expect(query.queryHash.hasSameCodeUnits(as: key.queryHash))
      // Read twice: the same string, and the query's options carry it too.
      #expect(query.queryHash.hasSameCodeUnits(as: query.queryHash))
      #expect(query.options.queryHash == key.queryHash)
    }
    // Reading a query's hash does not put it into the hash table; a lookup by hash does.
    #expect(pendingCount(client) == keys.count)
    #expect(client.queryCache.get(keys[1].queryHash)?.queryKey == keys[1])
    #expect(pendingCount(client) == 0)
  }

  @Test func lookupsByHashFindPendingQueries() {
    let client = QueryClient(scheduler: VirtualScheduler())
    for i in 0..<50 { client.setQueryData(["k", .number(Double(i))], value: i) }
    #expect(pendingCount(client) == 50)
    #expect(client.queryCache.get(#"["k",7]"#)?.queryKey == ["k", 7])
    #expect(client.queryCache.get(#"["k",50]"#) == nil)
    #expect(pendingCount(client) == 0)
    // Queries added after the table was filled are pending again, and found the same way.
    client.setQueryData(["k", 50], value: 50)
    #expect(pendingCount(client) == 1)
    #expect(client.queryCache.get(#"["k",50]"#)?.queryKey == ["k", 50])
    // A hit needs no pending hash written: the table holds every other hash already.
    client.setQueryData(["k", 51], value: 51)
    #expect(client.queryCache.get(#"["k",3]"#)?.queryKey == ["k", 3])
    #expect(pendingCount(client) == 1)
  }

  @Test func aKeyOfTheSameHashFindsThePendingQuery() throws {
    // `[null]` and `[undefined]` both hash to `[null]`, so TanStack writes one query.
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData([nil], value: 1)
    #expect(pendingCount(client) == 1)
    client.setQueryData([.undefined], value: 2)
    let all = client.queryCache.getAll()
    #expect(all.count == 1)
    #expect(all.first?.queryKey == [nil])
    #expect(client.getQueryData([nil]) as? Int == 2)
    #expect(client.getQueryData([.undefined]) as? Int == 2)
    // `[NaN]` hashes to `[null]` too.
    client.setQueryData([.number(.nan)], value: 3)
    #expect(client.queryCache.getAll().count == 1)
    #expect(client.getQueryData([nil]) as? Int == 3)
  }

  @Test func aCustomHashOfTheSameTextFindsThePendingQueryAndViceVersa() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    var options = QueryOptions(queryKey: ["b"])
    options.queryKeyHashFn = FunctionBox { _ in #"["a"]"# }
    let custom = client.engine.lock.sync { client.queryCache.build(client, options) }
    #expect(custom.queryKey == ["a"])
    #expect(client.queryCache.getAll().count == 1)

    // The other way round: a custom hash cached first makes a new key's write look its hash up.
    let other = QueryClient(scheduler: VirtualScheduler())
    let built = other.engine.lock.sync { other.queryCache.build(other, options) }
    other.setQueryData(["a"], value: 2)
    #expect(other.queryCache.getAll().count == 1)
    #expect(other.getQueryData(["a"]) as? Int == 2)
    #expect(built.queryKey == ["b"])
    #expect(built.state.data as? Int == 2)
    other.setQueryData(["c"], value: 3)
    #expect(other.queryCache.getAll().count == 2)
    #expect(pendingCount(other) == 0)
  }

  @Test func removingPendingQueriesKeepsTheTablesRight() {
    let client = QueryClient(scheduler: VirtualScheduler())
    let log = Log()
    let unsubscribe = client.queryCache.subscribe { event in
      if case .removed = event { log.append(event.query.queryHash) }
    }
    for i in 0..<100 { client.setQueryData(["r", .number(Double(i))], value: i) }
    #expect(pendingCount(client) == 100)
    // Removed while pending, and (after a lookup by hash fills the table) while indexed; enough
    // to compact the insertion order twice.
    client.removeQueries(QueryFilters(predicate: { query in
      guard case .number(let n) = query.queryKey.parts[1] else { return false }
      return Int(n) % 4 != 0 && Int(n) < 60
    }))
    #expect(client.queryCache.get(#"["r",1]"#) == nil)
    #expect(client.queryCache.get(#"["r",4]"#)?.queryKey == ["r", 4])
    for i in 100..<140 { client.setQueryData(["r", .number(Double(i))], value: i) }
    client.removeQueries(QueryFilters(predicate: { query in
      guard case .number(let n) = query.queryKey.parts[1] else { return false }
      return Int(n) % 4 != 0
    }))
    unsubscribe()
    let left = client.queryCache.getAll().map(\.queryKey)
    #expect(left == stride(from: 0, to: 140, by: 4).map { ["r", .number(Double($0))] })
    for i in 0..<140 {
      let found = client.queryCache.get(QueryKey(["r", .number(Double(i))]).queryHash)
      #expect((found != nil) == (i % 4 == 0), "key \(i)")
      #expect(client.getQueryData(["r", .number(Double(i))]) as? Int == (i % 4 == 0 ? i : nil))
    }
    #expect(log.entries.count == 105)
    #expect(log.entries.first == #"["r",1]"#)
    // Written again after removal: a new query, found by key and by hash.
    client.setQueryData(["r", 1], value: -1)
    #expect(client.queryCache.get(#"["r",1]"#)?.state.data as? Int == -1)
  }

  @Test func aGarbageCollectedPendingQueryLeavesBothTables() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    client.setQueryData(["gc", 1], value: 1)
    client.setQueryData(["gc", 2], value: 2)
    #expect(pendingCount(client) == 2)
    scheduler.advance(by: 5 * 60 * 1000)
    #expect(client.queryCache.getAll().isEmpty)
    #expect(client.queryCache.get(#"["gc",1]"#) == nil)
    #expect(client.getQueryData(["gc", 1]) == nil)
    client.setQueryData(["gc", 1], value: 3)
    #expect(client.queryCache.get(#"["gc",1]"#)?.state.data as? Int == 3)
  }

  @Test func clearForgetsPendingQueries() {
    let client = QueryClient(scheduler: VirtualScheduler())
    for i in 0..<10 { client.setQueryData(["c", .number(Double(i))], value: i) }
    client.clear()
    #expect(client.queryCache.get(#"["c",1]"#) == nil)
    client.setQueryData(["c", 1], value: 1)
    #expect(pendingCount(client) == 1)
    #expect(client.queryCache.get(#"["c",1]"#)?.state.data as? Int == 1)
  }

  @Test func keysAreHashedFaithfullyUnlessTheirTextLosesSomething() {
    #expect(QueryKey(["todos", 1, ["page": 1]]).isHashedFaithfully)
    #expect(QueryKey([nil, true, "x", -0.0, [1, [2]], ["a": ["b": nil]]]).isHashedFaithfully)
    #expect(QueryKey([]).isHashedFaithfully)
    #expect(!QueryKey([.undefined]).isHashedFaithfully)
    #expect(!QueryKey([["a": .undefined]]).isHashedFaithfully)
    #expect(!QueryKey([[1, [2, .undefined]]]).isHashedFaithfully)
    #expect(!QueryKey([.number(.nan)]).isHashedFaithfully)
    #expect(!QueryKey([.number(.infinity)]).isHashedFaithfully)
    #expect(!QueryKey([.number(-.infinity)]).isHashedFaithfully)
    // Nested deeper than the structural hash looks: not known, so not faithful.
    #expect(QueryKey([[[[[1]]]]]).isHashedFaithfully)
    #expect(!QueryKey([[[[[[1]]]]]]).isHashedFaithfully)
    #expect(QueryKey([[[[[[]]]]]]).isHashedFaithfully)
    #expect(!QueryKey([DeepValueTests.deep(1_000)]).isHashedFaithfully)
    // Kept through mutation of the parts.
    var key: QueryKey = ["m", 1]
    key.parts = ["m", .undefined]
    #expect(!key.isHashedFaithfully)
    key.parts = ["m", 1]
    #expect(key.isHashedFaithfully)
  }

  @Test func aNewKeyThatIsNotHashedFaithfullyIsHashedAtOnce() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["u", .undefined], value: 1)
    #expect(pendingCount(client) == 0)
    // And while it is cached, new faithful keys are hashed at once too (it could share a hash).
    client.setQueryData(["v", 1], value: 2)
    #expect(pendingCount(client) == 0)
    client.removeQueries(QueryFilters(queryKey: ["u"]))
    client.setQueryData(["v", 2], value: 3)
    #expect(pendingCount(client) == 1)
  }

  @Test func concurrentReadsOfAPendingHashAgree() async {
    let client = QueryClient(scheduler: VirtualScheduler())
    for i in 0..<200 { client.setQueryData(["t", .number(Double(i)), ["p": "x"]], value: i) }
    let queries = client.queryCache.getAll()
    let hashes = await withTaskGroup(of: [String].self) { group in
      for _ in 0..<4 { group.addTask { queries.map(\.queryHash) } }
      var all: [[String]] = []
      for await hashes in group { all.append(hashes) }
      return all
    }
    let expected = queries.map(\.queryKey.queryHash)
    for hashes in hashes { #expect(hashes == expected) }
  }
}
