import QuarryScenarios
import Testing

@testable import Quarry

/// `QueryCache`'s table of queries by key, checked against a `Dictionary` model.
@Suite struct KeyTableTests {
  /// `count` queries of keys `["k", 0]`, `["k", 1]`, … (made by keyed writes of a new client).
  private static func queries(_ count: Int) -> (QueryClient, [Query]) {
    let client = QueryClient(scheduler: VirtualScheduler())
    for i in 0..<count { client.setQueryData(["k", .number(Double(i))], value: i) }
    let queries = client.queryCache.findAll()
    return (client, queries)
  }

  /// Random insertions, replacements, removals (of the query held, or of another of the same key,
  /// which leaves it) and lookups agree with a dictionary's, through many growths, and removals
  /// that shift runs back across the end of the slots.
  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func randomOperationsAgreeWithADictionary(seed: UInt64) {
    let (client, pool) = Self.queries(200)
    var generator = SplitMix64(seed: seed)
    var table = KeyTable()
    var model: [QueryKey: Query] = [:]
    // Keys of a small range, so that removals and re-insertions are frequent; a second query
    // of the same key (another client's) stands for a replacement.
    let (other, replacements) = Self.queries(200)
    for step in 0..<4_000 {
      let index = Int(generator.next() % 200)
      let key = pool[index].queryKey
      switch generator.next() % 4 {
      case 0, 1:
        let query = generator.next() % 3 == 0 ? replacements[index] : pool[index]
        table.set(query, for: Prehashed(key))
        model[key] = query
      case 2:
        // Removes the query under its key only if it is the one there.
        let query = generator.next() % 3 == 0 ? replacements[index] : pool[index]
        table.remove(query)
        if model[key] === query { model[key] = nil }
      default:
        break
      }
      if step % 97 == 0 || step == 3_999 {
        #expect(table.count == model.count)
        for query in pool {
          #expect(table.lookup(Prehashed(query.queryKey)) === model[query.queryKey])
        }
      }
    }
    #expect(table.lookup(Prehashed(["absent"])) == nil)
    table.removeAll()
    #expect(table.count == 0)
    #expect(table.lookup(Prehashed(key(0))) == nil)
    withExtendedLifetime((client, other)) {}
  }

  /// The table holds each query strongly, and lets go of it when it is removed, emptied or dropped.
  @Test func theTableHoldsItsQueriesUntilItLetsGo() {
    weak var removed: Query?
    weak var emptied: Query?
    weak var dropped: Query?
    do {
      var kept = KeyTable()
      var emptiedTable = KeyTable()
      do {
        let (client, queries) = Self.queries(3)
        removed = queries[0]
        emptied = queries[1]
        dropped = queries[2]
        kept.set(queries[0], for: Prehashed(queries[0].queryKey))
        emptiedTable.set(queries[1], for: Prehashed(queries[1].queryKey))
        var droppedTable = KeyTable()
        droppedTable.set(queries[2], for: Prehashed(queries[2].queryKey))
        client.clear()
        _ = consume droppedTable
      }
      #expect(dropped == nil)
      #expect(removed != nil && emptied != nil)
      kept.remove(removed!)
      #expect(removed == nil)
      emptiedTable.removeAll()
      #expect(emptied == nil)
    }
  }

  private func key(_ i: Int) -> QueryKey { ["k", .number(Double(i))] }
}
