import Foundation
import Quarry
@testable import QuarryPersist
import Testing

/// The snapshot is data: `Codable`, in TanStack's JSON shape, readable both ways.
@Suite struct SnapshotCodableTests {
  struct Todo: Codable, Equatable, Sendable {
    var id: Int
    var title: String
  }

  @Test func encodableDataRoundTripsAndReadsBackTyped() throws {
    let scheduler = VirtualScheduler()
    scheduler.advance(to: 5)
    let client = QueryClient(scheduler: scheduler)
    _ = client.setQueryData(["todos"], value: [Todo(id: 1, title: "milk")])
    let json = try JSONEncoder().encode(dehydrate(client))
    let decoded = try JSONDecoder().decode(DehydratedState.self, from: json)
    let restored = QueryClient(scheduler: scheduler)
    hydrate(restored, decoded)
    #expect(try restored.getQueryData(["todos"], as: [Todo].self) == [Todo(id: 1, title: "milk")])
    #expect(restored.getQueryState(["todos"])?.dataUpdatedAt == 5)
    #expect(throws: QuarryError.self) { try restored.getQueryData(["todos"], as: Int.self) }
  }

  // The JSON TanStack's hydration-001 trace recorded (`dehydrate` on 5.102.0) hydrates in Quarry.
  @Test func tanstackSnapshotHydrates() throws {
    let text = #"{"mutations":[{"mutationKey":["add"],"state":{"context":{"optimistic":1},"error":null,"failureCount":0,"failureReason":null,"isPaused":true,"status":"pending","submittedAt":3,"variables":{"text":"t"}}}],"queries":[{"dehydratedAt":20,"queryHash":"[\"string\"]","queryKey":["string"],"state":{"data":"string","dataUpdateCount":1,"dataUpdatedAt":10,"error":null,"errorUpdateCount":0,"errorUpdatedAt":0,"fetchFailureCount":0,"fetchFailureReason":null,"fetchMeta":null,"fetchStatus":"idle","isInvalidated":false,"status":"success"}}]}"#
    let decoded = try JSONDecoder().decode(DehydratedState.self, from: Data(text.utf8))
    let client = QueryClient(scheduler: VirtualScheduler())
    hydrate(client, decoded)
    #expect(client.getQueryData(["string"]) as? JSONValue == "string")
    let mutation = try #require(client.mutationCache.getAll().first)
    #expect(mutation.state.isPaused)
    #expect(mutation.state.context as? JSONValue == ["optimistic": 1])
    // And back: the same JSON (keys sorted).
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let again = try JSONDecoder().decode(JSONValue.self, from: encoder.encode(dehydrate(client, options: DehydrateOptions(shouldDehydrateMutation: { _ in true }))))
    #expect(again["queries"]?.arrayValue?.first?["state"] == (try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))["queries"]?.arrayValue?.first?["state"])
  }

  // `hydrate(_:json:)` takes TanStack's `unknown`: non-objects are ignored; an entry it cannot
  // read throws before anything is restored.
  @Test func jsonHydrationIgnoresNonObjectsAndRejectsBrokenEntries() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    try hydrate(client, json: "not a snapshot")
    try hydrate(client, json: .null)
    #expect(client.queryCache.getAll().isEmpty)
    let broken: JSONValue = ["queries": [
      ["queryKey": ["ok"], "queryHash": #"["ok"]"#, "state": ["status": "success", "data": 1, "dataUpdatedAt": 1]],
      ["queryKey": "not a key", "queryHash": "x", "state": [:]],
    ]]
    #expect(throws: HydrationError.self) { try hydrate(client, json: broken) }
    #expect(client.queryCache.getAll().isEmpty)
  }

  @Test func dataThatCannotBeWrittenIsReported() throws {
    struct Opaque: Sendable {}
    let scheduler = VirtualScheduler()
    scheduler.advance(to: 1)
    let client = QueryClient(scheduler: scheduler)
    _ = client.setQueryData(["opaque"], value: Opaque())
    #expect(throws: HydrationError.notEncodable(type: "Opaque")) { try JSONEncoder().encode(dehydrate(client)) }
    let errors = Locked<[String]>([])
    let persister = StoragePersister(storage: InMemoryStorage(), scheduler: scheduler, onError: { error in errors.withLock { $0.append("\(error)") } })
    persistQueryClientSave(client, PersistQueryClientOptions(persister: persister))
    scheduler.runUntilIdle()
    #expect(errors.current.count == 1)
    #expect(try persister.restoreClient() == nil)
  }
}

/// Registered types: restored data is typed, and data of a changed type is dropped and reported.
@Suite struct PersistedTypesTests {
  struct Todo: Codable, Equatable, Sendable {
    var id: Int
    var title: String
  }

  @Test func restoredDataIsTypedAndUndecodableQueriesAreDropped() throws {
    let scheduler = VirtualScheduler()
    scheduler.advance(to: 10)
    let storage = InMemoryStorage()
    let persister = StoragePersister(storage: storage, scheduler: scheduler)
    let stored = PersistedClient(timestamp: 5, buster: "", clientState: try snapshot([
      ("todos", [["id": 1, "title": "milk"]], 5),
      ("user", ["name": "Ada"], 5),   // the app's User type now needs an id: no longer decodes
      ("other", "kept as JSON", 5),
    ]))
    try storage.setItem(persister.key, stored.jsonData())
    struct User: Codable, Sendable { var id: Int; var name: String }
    var types = PersistedTypes()
    types.register([Todo].self, for: ["todos"])
    types.register(User.self, for: ["user"])
    let errors = Locked<[String]>([])
    let client = QueryClient(scheduler: scheduler)
    try persistQueryClientRestore(client, PersistQueryClientOptions(persister: persister, types: types, onRestoreError: { error in
      errors.withLock { $0.append("\(error)") }
    }))
    #expect(client.getQueryData(["todos"]) as? [Todo] == [Todo(id: 1, title: "milk")])
    #expect(client.getQueryData(["user"]) == nil)
    #expect(client.getQueryData(["other"]) as? JSONValue == "kept as JSON")
    #expect(errors.current.count == 1)
    #expect(errors.current.first?.contains(#"["user"]"#) == true)
  }
}
