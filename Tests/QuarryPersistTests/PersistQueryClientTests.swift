import Foundation
import Quarry
@testable import QuarryPersist
import Testing

/// TanStack's `persist.test.ts` and the persister rules of `../shared/facts/tanstack-areas.md` §4,
/// on the virtual clock.
@Suite struct PersistQueryClientTests {
  let scheduler = VirtualScheduler()
  let storage = SpyStorage()

  func persister(throttle: Double = 1000) -> StoragePersister {
    StoragePersister(storage: storage, scheduler: scheduler, throttleTime: throttle)
  }

  func stored(_ p: StoragePersister) throws -> PersistedClient? { try p.restoreClient() }

  // persist.test.ts: "should persist mutations"
  @Test func aMutationAddedIsSaved() throws {
    let client = QueryClient(scheduler: scheduler)
    let p = persister()
    let options = PersistQueryClientOptions(persister: p, dehydrateOptions: DehydrateOptions(shouldDehydrateMutation: { _ in true }))
    let stop = persistQueryClientSubscribe(client, options)
    client.onlineManager.setOnline(false)
    var mutation = MutationOptions(mutationKey: ["add"])
    mutation.mutationFn = MutationFunction { _, _ in "done" }
    _ = client.mutatePromise(mutation, variables: JSONValue.number(1))
    scheduler.runUntilIdle()
    let saved = try #require(try stored(p))
    #expect(saved.clientState.mutations.count == 1)
    #expect(saved.clientState.mutations[0].state.isPaused)
    stop()
  }

  // persist.test.ts: "should not be triggered on observer type events"
  @Test func observerEventsDoNotSave() throws {
    let client = QueryClient(scheduler: scheduler)
    _ = client.setQueryData(["k"], value: JSONValue.string("x"))
    let stop = persistQueryClientSubscribe(client, PersistQueryClientOptions(persister: persister()))
    var options = QueryOptions(queryKey: ["k"])
    options.staleTime = .value(.milliseconds(.infinity))
    let observer = QueryObserver(client: client, options: options)
    let unsubscribe = observer.subscribe { _ in }
    scheduler.runUntilIdle()
    unsubscribe()
    scheduler.runUntilIdle()
    #expect(storage.sets == 0)
    _ = client.setQueryData(["k"], value: JSONValue.string("y"))  // `updated`: saved
    scheduler.runUntilIdle()
    #expect(storage.sets == 1)
    stop()
  }

  // The persister's throttle: the first change is saved at once, a burst after it once, with
  // the latest state, 1000 ms later.
  @Test func savesAreThrottledAndTheLatestStateWins() throws {
    let client = QueryClient(scheduler: scheduler)
    let p = persister()
    let stop = persistQueryClientSubscribe(client, PersistQueryClientOptions(persister: p))
    _ = client.setQueryData(["k"], value: JSONValue.number(0))
    scheduler.runUntilIdle()
    #expect(storage.sets == 1)
    for i in 1...5 {
      scheduler.advance(by: 100)
      _ = client.setQueryData(["k"], value: JSONValue.number(Double(i)))
    }
    scheduler.advance(to: 999)
    #expect(storage.sets == 1)
    scheduler.advance(to: 1000)
    #expect(storage.sets == 2)
    let saved = try #require(try stored(p))
    #expect(saved.clientState.queries.first?.state.data as? JSONValue == 5)
    #expect(saved.timestamp == 500)  // the latest change's time, as TanStack's
    stop()
    _ = client.setQueryData(["k"], value: JSONValue.number(9))
    scheduler.advance(by: 5000)
    #expect(storage.sets == 2)
  }

  // persist.test.ts: "should hydrate the query client when the persisted cache is valid"
  @Test func aValidSnapshotIsHydrated() throws {
    let p = persister()
    try storage.setItem(p.key, PersistedClient(timestamp: 1, buster: "", clientState: try snapshot([("k", "stored", 1)])).jsonData())
    scheduler.advance(to: 1000)
    let client = QueryClient(scheduler: scheduler)
    try persistQueryClientRestore(client, PersistQueryClientOptions(persister: p))
    #expect(client.getQueryData(["k"]) as? JSONValue == "stored")
  }

  // persist.test.ts: "should remove the client when the persisted cache is expired"; maxAge is strict.
  @Test func anExpiredSnapshotIsRemovedAndMaxAgeIsStrict() throws {
    let p = persister()
    let data = try PersistedClient(timestamp: 1, buster: "", clientState: try snapshot([("k", "stored", 1)])).jsonData()
    try storage.setItem(p.key, data)
    scheduler.advance(to: 101)  // exactly maxAge old: kept
    let client = QueryClient(scheduler: scheduler)
    try persistQueryClientRestore(client, PersistQueryClientOptions(persister: p, maxAge: 100))
    #expect(client.getQueryData(["k"]) as? JSONValue == "stored")
    scheduler.advance(to: 102)
    let later = QueryClient(scheduler: scheduler)
    try persistQueryClientRestore(later, PersistQueryClientOptions(persister: p, maxAge: 100))
    #expect(later.getQueryData(["k"]) == nil)
    #expect(try storage.getItem(p.key) == nil)
  }

  // persist.test.ts: "should remove the client when the buster does not match"
  @Test func aBustedSnapshotIsRemoved() throws {
    let p = persister()
    try storage.setItem(p.key, PersistedClient(timestamp: 1, buster: "v1", clientState: try snapshot([("k", "stored", 1)])).jsonData())
    let client = QueryClient(scheduler: scheduler)
    try persistQueryClientRestore(client, PersistQueryClientOptions(persister: p, buster: "v2"))
    #expect(client.getQueryData(["k"]) == nil)
    #expect(try storage.getItem(p.key) == nil)
  }

  // persist.test.ts: "should remove the client when the persisted cache has no timestamp"
  @Test func aSnapshotWithoutTimestampIsRemoved() throws {
    let p = persister()
    try storage.setItem(p.key, Data(#"{"buster":"","clientState":{"queries":[],"mutations":[]}}"#.utf8))
    try persistQueryClientRestore(QueryClient(scheduler: scheduler), PersistQueryClientOptions(persister: p))
    #expect(storage.log.current.contains("remove"))
    #expect(try storage.getItem(p.key) == nil)
  }

  // persist.test.ts: "should rethrow exceptions in `restoreClient`"
  @Test func aRestoreErrorRemovesTheSnapshotAndIsRethrown() throws {
    let p = persister()
    storage.failGet.withLock { $0 = TestFailure(message: "restore") }
    #expect(throws: TestFailure(message: "restore")) {
      try persistQueryClientRestore(QueryClient(scheduler: scheduler), PersistQueryClientOptions(persister: p))
    }
    #expect(storage.log.current == ["get", "remove"])
  }

  // persist.test.ts: "should rethrow error in `removeClient`"
  @Test func whenRemovingFailsTooItsErrorWins() throws {
    let p = persister()
    storage.failGet.withLock { $0 = TestFailure(message: "restore") }
    storage.failRemove.withLock { $0 = TestFailure(message: "remove") }
    #expect(throws: TestFailure(message: "remove")) {
      try persistQueryClientRestore(QueryClient(scheduler: scheduler), PersistQueryClientOptions(persister: p))
    }
  }

  // A snapshot whose types no longer decode is dropped with a reported error.
  @Test func anUndecodableSnapshotIsDroppedWithAnError() throws {
    let p = persister()
    try storage.setItem(p.key, Data(#"{"timestamp":1,"buster":"","clientState":{"queries":[{"queryKey":"not an array"}]}}"#.utf8))
    #expect(throws: (any Error).self) {
      try persistQueryClientRestore(QueryClient(scheduler: scheduler), PersistQueryClientOptions(persister: p))
    }
    #expect(try storage.getItem(p.key) == nil)
  }

  // persist.test.ts: "should subscribe to the query cache after a successful restore"
  @Test func savingStartsAfterARestore() throws {
    let client = QueryClient(scheduler: scheduler)
    let persistence = persistQueryClient(client, PersistQueryClientOptions(persister: persister()))
    _ = client.setQueryData(["k"], value: JSONValue.number(1))
    scheduler.runUntilIdle()
    #expect(storage.sets == 0)
    #expect(persistence.isRestoring)
    try persistence.restore()
    #expect(!persistence.isRestoring)
    _ = client.setQueryData(["k"], value: JSONValue.number(2))
    scheduler.runUntilIdle()
    #expect(storage.sets == 1)
    persistence.unsubscribe()
  }

  // A second restore does nothing: one subscription, one save per change.
  @Test func restoringTwiceSubscribesOnce() throws {
    let client = QueryClient(scheduler: scheduler)
    let persistence = persistQueryClient(client, PersistQueryClientOptions(persister: persister(throttle: 0)))
    try persistence.restore()
    try persistence.restore()
    _ = client.setQueryData(["k"], value: JSONValue.number(1))
    scheduler.runUntilIdle()
    #expect(storage.sets == 1)
    #expect(storage.log.current.filter { $0 == "get" }.count == 1)
    persistence.unsubscribe()
  }

  // persist.test.ts: "should not subscribe when unsubscribed before the restore completes"
  @Test func noSavingWhenUnsubscribedBeforeTheRestore() throws {
    let client = QueryClient(scheduler: scheduler)
    let persistence = persistQueryClient(client, PersistQueryClientOptions(persister: persister()))
    persistence.unsubscribe()
    try persistence.restore()
    _ = client.setQueryData(["k"], value: JSONValue.number(2))
    scheduler.runUntilIdle()
    #expect(storage.sets == 0)
  }

  // PersistQueryClientProvider's isRestoring: an observer subscribed before the restore waits,
  // then shows the restored data without fetching.
  @Test func observersMountAfterTheRestore() throws {
    let p = persister()
    try storage.setItem(p.key, PersistedClient(timestamp: 1, buster: "", clientState: try snapshot([("todos", ["milk"], 1)])).jsonData())
    scheduler.advance(to: 10)
    let client = QueryClient(scheduler: scheduler)
    let calls = Locked(0)
    var options = QueryOptions(queryKey: ["todos"])
    options.staleTime = .value(.milliseconds(60_000))
    options.queryFn = .fn { _ in
      calls.withLock { $0 += 1 }
      return JSONValue.array(["fetched"])
    }
    let persistence = persistQueryClient(client, PersistQueryClientOptions(persister: p))
    let observer = QueryObserver(client: client, options: options)
    let results = Locked<[String]>([])
    let unsubscribe = persistence.subscribe(observer) { result in
      results.withLock { $0.append("\(result.status) \(TraceText.describe(result.data))") }
    }
    scheduler.runUntilIdle()
    #expect(results.current.isEmpty)
    try persistence.restore()
    scheduler.advance(by: 100)
    #expect(calls.current == 0)
    #expect(observer.getCurrentResult().status == .success)
    #expect(try client.getQueryData(["todos"], as: [String].self) == ["milk"])
    unsubscribe()
    persistence.unsubscribe()
  }
}

enum TraceText {
  static func describe(_ value: (any Sendable)?) -> String { value.map { "\($0)" } ?? "nil" }
}

/// A persister released while a throttled save waits drops that save instead of crashing.
@Suite struct PersisterLifetimeTests {
  @Test func aReleasedPersisterDropsItsWaitingSave() throws {
    let scheduler = VirtualScheduler()
    scheduler.advance(to: 1)
    let storage = InMemoryStorage()
    let client = QueryClient(scheduler: scheduler)
    var persister: StoragePersister? = StoragePersister(storage: storage, scheduler: scheduler)
    _ = client.setQueryData(["k"], value: JSONValue.number(1))
    persistQueryClientSave(client, PersistQueryClientOptions(persister: persister!))  // written at once
    _ = client.setQueryData(["k"], value: JSONValue.number(2))
    persistQueryClientSave(client, PersistQueryClientOptions(persister: persister!))  // waits for the throttle
    persister = nil
    scheduler.advance(by: 2000)
    let stored = try PersistedClient(jsonData: try #require(try storage.getItem("REACT_QUERY_OFFLINE_CACHE")))
    #expect(stored.clientState.queries.first?.state.data as? JSONValue == 1)
  }
}
