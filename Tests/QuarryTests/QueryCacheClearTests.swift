import Testing
@testable import Quarry

/// `QueryCache.clear()` empties its tables and cancels its gc timers in bulk: these pin what the
/// bulk paths must keep (other owners' timers, the events and their order, the cache usable
/// afterwards) and the order in which it frees the queries.
@Suite struct QueryCacheClearTests {
  /// Data whose release is recorded (the query's data box holds the only reference).
  final class Tracked: Sendable {
    let index: Int
    let released: OrderedLog<Int>
    init(_ index: Int, _ released: OrderedLog<Int>) {
      self.index = index
      self.released = released
    }
    deinit { released.append(index) }
  }

  /// The queries are freed in insertion order, as the insertion order drops the last
  /// references: had the key table (hash order) dropped them, their data would be freed in
  /// another order (and `clear` ran twice as slowly on 100k queries).
  @Test func clearFreesTheQueriesInInsertionOrder() {
    let client = QueryClient(scheduler: VirtualScheduler())
    let released = OrderedLog<Int>()
    for i in 0..<300 { client.setQueryData(["tracked", .number(Double(i))], value: Tracked(i, released)) }
    #expect(released.entries.isEmpty)
    client.clear()
    #expect(released.entries == Array(0..<300))
  }

  /// `clear` releases the insertion order in chunks, reading each chunk's lines first
  /// (`QueryCache+Release.swift`): across chunk boundaries and holes, with queries without data,
  /// one whose key keeps its parts in a box (nested deeper than the recursion limit) and one
  /// still held by the caller, every query's data is freed in insertion order inside the call,
  /// but the held one's, which goes when its holder lets it go.
  @Test func clearFreesInInsertionOrderAcrossChunksHolesAndHeldQueries() {
    let client = QueryClient(scheduler: VirtualScheduler())
    let released = OrderedLog<Int>()
    var deep: JSONValue = 0
    for _ in 0..<(JSONValue.recursionLimit + 4) { deep = .array([deep]) }
    var held: Query?
    for i in 0..<37 {
      let key: QueryKey = i == 12 ? ["tracked", deep] : ["tracked", .number(Double(i))]
      if i % 9 == 4 {
        // No data: built by the cache, as a fetch or an observer does.
        _ = client.engine.lock.sync { client.queryCache.build(client, QueryOptions(queryKey: key)) }
        continue
      }
      client.setQueryData(key, value: Tracked(i, released))
      if i == 21 { held = client.queryCache.find(QueryFilters(queryKey: key)) }
    }
    if case .deep = client.queryCache.getAll()[12].queryKey.storage {} else { Issue.record("the deep key keeps its parts in a box") }
    client.removeQueries(QueryFilters(queryKey: ["tracked", 7]))
    client.removeQueries(QueryFilters(queryKey: ["tracked", 16]))
    #expect(released.entries == [7, 16])
    client.clear()
    let freed = (0..<37).filter { $0 % 9 != 4 && $0 != 7 && $0 != 16 && $0 != 21 }
    #expect(released.entries == [7, 16] + freed)
    #expect(held?.state.data is Tracked)
    held = nil
    #expect(released.entries == [7, 16] + freed + [21])
    #expect(client.queryCache.getAll().isEmpty)
  }

  /// Every query is removed once, in insertion order (holes left by removals and queries whose
  /// hash was written or is still pending alike), and the emptied cache works as before.
  @Test func clearRemovesEachQueryOnceInInsertionOrder() {
    let client = QueryClient(scheduler: VirtualScheduler())
    for i in 0..<80 { client.setQueryData(["k", .number(Double(i))], value: i) }
    // Holes in the insertion order, and some hashes written by a lookup by hash.
    client.removeQueries(QueryFilters(queryKey: ["k", 3]))
    client.removeQueries(QueryFilters(queryKey: ["k", 40]))
    #expect(client.queryCache.get(#"["k",10]"#) != nil)
    client.setQueryData(["other"], value: "x")
    let removed = Log()
    let unsubscribe = client.queryCache.subscribe { event in
      if case .removed = event { removed.append(event.query.queryHash) }
    }
    client.clear()
    unsubscribe()
    let expected = (0..<80).filter { $0 != 3 && $0 != 40 }.map { #"["k",\#($0)]"# } + [#"["other"]"#]
    #expect(removed.entries == expected)
    #expect(client.queryCache.getAll().isEmpty)
    #expect(client.getQueryData(["k", 10]) == nil)
    #expect(client.queryCache.get(#"["k",10]"#) == nil)
    // Usable afterwards: new queries are found by key and by hash, and removed.
    client.setQueryData(["k", 10], value: 7)
    client.setQueryData(["k", 11], value: 8)
    #expect(client.getQueryData(["k", 10]) as? Int == 7)
    #expect(client.queryCache.get(#"["k",11]"#)?.state.data as? Int == 8)
    client.removeQueries(QueryFilters(queryKey: ["k", 10]))
    #expect(client.queryCache.getAll().map(\.queryHash) == [#"["k",11]"#])
  }

  /// The cache's gc timers go; a timer of another owner on the same scheduler, and another
  /// client's gc timers, stay and fire when due.
  @Test func clearKeepsTheTimersOfOtherOwners() {
    let scheduler = VirtualScheduler()
    let fired = Log()
    _ = scheduler.setTimeout(100) { fired.append("before") }
    var options = DefaultOptions()
    options.queries.gcTime = 50
    let cleared = QueryClient(scheduler: scheduler, defaultOptions: options)
    let other = QueryClient(scheduler: scheduler, defaultOptions: options)
    for i in 0..<40 {
      cleared.setQueryData(["a", .number(Double(i))], value: i)
      if i % 4 == 0 { other.setQueryData(["b", .number(Double(i))], value: i) }
    }
    _ = scheduler.setTimeout(100) { fired.append("after") }
    #expect(scheduler.pendingTimerCount == 2 + 40 + 10)
    let removedFromOther = Log()
    let unsubscribe = other.queryCache.subscribe { event in
      if case .removed = event { removedFromOther.append(event.query.queryHash) }
    }
    cleared.clear()
    #expect(scheduler.pendingTimerCount == 2 + 10)
    #expect(other.queryCache.getAll().count == 10)
    scheduler.advance(to: 49)
    #expect(removedFromOther.entries.isEmpty)
    scheduler.advance(to: 50)
    #expect(removedFromOther.entries == stride(from: 0, to: 40, by: 4).map { #"["b",\#($0)]"# })
    #expect(fired.entries.isEmpty)
    scheduler.advance(to: 100)
    #expect(fired.entries == ["before", "after"])
    #expect(scheduler.pendingTimerCount == 0)
    unsubscribe()
  }

  /// A query still referenced after `clear` has no gc timer left: it was cancelled, not left
  /// to fire.
  @Test func aQueryHeldAfterClearHasNoGcTimerLeft() {
    let scheduler = VirtualScheduler()
    var defaults = DefaultOptions()
    defaults.queries.gcTime = 10
    let client = QueryClient(scheduler: scheduler, defaultOptions: defaults)
    client.setQueryData(["held"], value: 1)
    let query = client.queryCache.getAll()[0]
    client.clear()
    #expect(query.gcTimeout == nil)
    #expect(scheduler.pendingTimerCount == 0)
    scheduler.advance(to: 20)
    #expect(client.queryCache.getAll().isEmpty)
  }
}
