import Foundation
import Quarry
@testable import QuarryPersist
import Testing

/// TanStack's `storageIsFull.test.ts` and `retryStrategies.test.ts`.
@Suite struct StorageFullTests {
  // retryStrategies.test.ts: "should remove the query with the oldest dataUpdatedAt"
  @Test func removeOldestQueryDropsTheOldest() throws {
    let client = PersistedClient(timestamp: 1, buster: "", clientState: try snapshot([("b", 1, 20), ("a", 1, 10), ("c", 1, 30)]))
    let out = try #require(removeOldestQuery(.init(persistedClient: client, error: TestFailure(message: "full"), errorCount: 1)))
    #expect(out.clientState.queries.map(\.queryHash) == [#"["b"]"#, #"["c"]"#])
  }

  // retryStrategies.test.ts: "should remove only a single query when multiple share the oldest dataUpdatedAt"
  @Test func removeOldestQueryDropsOneOfEquals() throws {
    let client = PersistedClient(timestamp: 1, buster: "", clientState: try snapshot([("a", 1, 10), ("b", 1, 10)]))
    let out = try #require(removeOldestQuery(.init(persistedClient: client, error: TestFailure(message: "full"), errorCount: 1)))
    #expect(out.clientState.queries.map(\.queryHash) == [#"["b"]"#])
  }

  // retryStrategies.test.ts: "should return undefined when there are no queries to remove" and
  // "should preserve mutations when removing the oldest query"
  @Test func removeOldestQueryKeepsMutationsAndGivesUp() throws {
    let mutation = DehydratedMutation(mutationKey: ["m"], state: MutationState())
    let client = PersistedClient(timestamp: 1, buster: "", clientState: try snapshot([("a", 1, 10)], mutations: [mutation]))
    let once = try #require(removeOldestQuery(.init(persistedClient: client, error: TestFailure(message: "full"), errorCount: 1)))
    #expect(once.clientState.queries.isEmpty)
    #expect(once.clientState.mutations.count == 1)
    #expect(removeOldestQuery(.init(persistedClient: once, error: TestFailure(message: "full"), errorCount: 2)) == nil)
  }

  // storageIsFull.test.ts: "should clean the old queries when storage full": five 2,000-character
  // queries into a 10,000-byte quota keep the newest four.
  @Test func aFullStorageDropsTheOldestQueries() throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let storage = InMemoryStorage(quota: 10_000)
    let errors = Locked(0)
    let persister = StoragePersister(storage: storage, scheduler: scheduler, throttleTime: 0, retry: removeOldestQuery, onError: { _ in errors.withLock { $0 += 1 } })
    for name in ["A", "B", "C", "D", "E"] {
      _ = client.setQueryData([.string(name)], value: JSONValue.string(String(repeating: name, count: 2000)))
      scheduler.advance(by: 1)
    }
    persistQueryClientSave(client, PersistQueryClientOptions(persister: persister, buster: "test-limit"))
    scheduler.advance(by: 10)
    let restored = try #require(try persister.restoreClient())
    #expect(restored.clientState.queries.map { $0.queryKey.parts[0] } == ["B", "C", "D", "E"])
    #expect(errors.current == 1)
    _ = client.setQueryData(["A"], value: JSONValue.string(String(repeating: "a", count: 2000)))
    persistQueryClientSave(client, PersistQueryClientOptions(persister: persister, buster: "test-limit"))
    scheduler.advance(by: 10)
    let again = try #require(try persister.restoreClient())
    #expect(again.clientState.queries.map { $0.queryKey.parts[0] } == ["A", "C", "D", "E"])  // cache order
    #expect(again.clientState.queries[0].state.data as? JSONValue == .string(String(repeating: "a", count: 2000)))
  }

  // storageIsFull.test.ts: "should clear storage as default error handling": when nothing fits,
  // nothing is written (the old value stays, here none).
  @Test func whenNothingFitsNothingIsWritten() throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let storage = InMemoryStorage(quota: 0)
    let persister = StoragePersister(storage: storage, scheduler: scheduler, throttleTime: 0, retry: removeOldestQuery)
    _ = client.setQueryData(["A"], value: JSONValue.string("A"))
    persistQueryClientSave(client, PersistQueryClientOptions(persister: persister))
    scheduler.advance(by: 10)
    #expect(try persister.restoreClient() == nil)
  }

  // storageIsFull.test.ts: "basic store and recover"
  @Test func storeAndRecover() throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let persister = StoragePersister(storage: InMemoryStorage(), scheduler: scheduler)
    scheduler.advance(to: 1)  // a timestamp of 0 counts as none (TanStack's falsy check)
    _ = client.setQueryData(["todos"], value: JSONValue.array(["milk"]))
    persistQueryClientSave(client, PersistQueryClientOptions(persister: persister))
    scheduler.runUntilIdle()
    let restoredClient = QueryClient(scheduler: scheduler)
    try persistQueryClientRestore(restoredClient, PersistQueryClientOptions(persister: persister))
    #expect(try restoredClient.getQueryData(["todos"], as: [String].self) == ["milk"])
  }
}
