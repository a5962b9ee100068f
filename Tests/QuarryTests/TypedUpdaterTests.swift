import Testing
@testable import Quarry

/// `setQueryData(_:updatedAt:_:)` with a typed updater finds its query as the untyped updater
/// does (by key while hashes follow keys, by hash otherwise) and writes once.
@Suite struct TypedUpdaterTests {
  private struct Todo: Codable, Equatable, Sendable { var title: String; var done: Bool }

  @Test func anUpdaterOfAMissingKeyBuildsItsQueryOnce() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    let written = try client.setQueryData(["n", 1]) { (old: Int?) in (old ?? 10) + 1 }
    #expect(written == 11)
    #expect(try client.setQueryData(["n", 1]) { (old: Int?) in old.map { $0 * 2 } } == 22)
    #expect(client.queryCache.getAll().count == 1)
    #expect(client.getQueryState(["n", 1])?.dataUpdateCount == 2)
  }

  @Test func anUpdaterReturningNilLeavesTheCacheAsItWas() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    #expect(try client.setQueryData(["none"]) { (_: Int?) in nil } == nil)
    #expect(client.queryCache.getAll().isEmpty)
    client.setQueryData(["n"], value: 1)
    #expect(try client.setQueryData(["n"]) { (_: Int?) in nil } == nil)
    #expect(client.getQueryState(["n"])?.dataUpdateCount == 1)
  }

  @Test func restoredJSONIsDecodedForTheUpdater() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["todo"], value: ["title": "milk", "done": false] as JSONValue)
    let written = try client.setQueryData(["todo"]) { (old: Todo?) in old.map { Todo(title: $0.title, done: true) } }
    #expect(written == Todo(title: "milk", done: true))
    #expect(try client.getQueryData(["todo"], as: Todo.self) == Todo(title: "milk", done: true))
  }

  @Test func aCustomHashFunctionNamesTheQueryTheUpdaterReads() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    var defaults = QueryOptions()
    defaults.queryKeyHashFn = FunctionBox { key in "custom:" + String(key.parts.count) }
    client.setQueryDefaults(["a"], defaults)
    client.setQueryData(["a", 1], value: 5)
    // ["a", 2] has the same custom hash, so it names the same query.
    #expect(try client.setQueryData(["a", 2]) { (old: Int?) in (old ?? 0) + 1 } == 6)
    #expect(client.queryCache.getAll().count == 1)
    #expect(client.queryCache.get("custom:2")?.state.data as? Int == 6)
  }

  @Test func anUpdaterThatRemovesItsQueryWritesIntoANewOne() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    let first = client.queryCache.get(#"["a"]"#)
    try client.setQueryData(["a"]) { (old: Int?) in
      client.removeQueries(QueryFilters(queryKey: ["a"]))
      return (old ?? 0) + 1
    }
    let second = client.queryCache.get(#"["a"]"#)
    #expect(second != nil && second !== first)
    #expect(client.getQueryData(["a"]) as? Int == 2)
  }
}
