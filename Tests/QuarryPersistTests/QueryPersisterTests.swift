import Foundation
import Quarry
@testable import QuarryPersist
import Testing

/// TanStack's `createPersister.test.ts` (the per-query persister), with a real client and
/// observer on the virtual clock.
@Suite struct QueryPersisterTests {
  let scheduler = VirtualScheduler()
  let storage = InMemoryStorage()
  let calls = Locked(0)

  func store(_ key: QueryKey, data: JSONValue, at: Double, buster: String = "") throws {
    let record = PersistedQuery(state: try successState(data, at: at), queryKey: key, queryHash: key.queryHash, buster: buster)
    try storage.setItem("tanstack-query-\(key.queryHash)", JSONEncoder().encode(record))
  }

  func observe(_ persister: QueryPersister, staleTime: Double) -> (QueryClient, QueryObserver, @Sendable () -> Void) {
    let client = QueryClient(scheduler: scheduler)
    var options = QueryOptions(queryKey: ["foo"])
    options.staleTime = .value(.milliseconds(staleTime))
    let calls = self.calls
    options.queryFn = persister.queryFn(.fn { _ in
      calls.withLock { $0 += 1 }
      return JSONValue.string("fresh")
    })
    let observer = QueryObserver(client: client, options: options)
    return (client, observer, observer.subscribe { _ in })
  }

  // "should fetch if there is no stored data" and "should store item after successful fetch"
  @Test func withoutARecordItFetchesThenStores() throws {
    scheduler.advance(to: 10)
    let (client, _, stop) = observe(QueryPersister(storage: storage), staleTime: 1000)
    scheduler.runUntilIdle()
    #expect(calls.current == 1)
    #expect(try storage.getItem("tanstack-query-[\"foo\"]") == nil)  // stored on the next tick
    scheduler.advance(by: 1)
    let stored = try #require(try storage.getItem("tanstack-query-[\"foo\"]"))
    let record = try JSONDecoder().decode(PersistedQuery.self, from: stored)
    #expect(record.state.data as? JSONValue == "fresh")
    #expect(record.queryHash == #"["foo"]"#)
    #expect(client.getQueryData(["foo"]) as? JSONValue == "fresh")
    stop()
  }

  // "should restore item from the storage and set proper `updatedAt` values"
  @Test func aValidRecordIsReturnedWithoutCallingTheQueryFunction() throws {
    try store(["foo"], data: "stored", at: 100)
    scheduler.advance(to: 200)
    let (client, _, stop) = observe(QueryPersister(storage: storage), staleTime: .infinity)
    scheduler.runUntilIdle()
    #expect(calls.current == 0)
    #expect(client.getQueryData(["foo"]) as? JSONValue == "stored")
    #expect(client.getQueryState(["foo"])?.dataUpdatedAt == 200)  // the fetch's time, until the next tick
    scheduler.advance(by: 0)
    scheduler.advance(by: 1)
    #expect(client.getQueryState(["foo"])?.dataUpdatedAt == 100)
    #expect(calls.current == 0)
    stop()
  }

  // "should restore item from the storage and refetch when `stale`"
  @Test func aStaleRestoredQueryRefetches() throws {
    try store(["foo"], data: "stored", at: 100)
    scheduler.advance(to: 200)
    let (client, _, stop) = observe(QueryPersister(storage: storage), staleTime: 50)
    scheduler.advance(by: 1)
    #expect(calls.current == 1)
    #expect(client.getQueryData(["foo"]) as? JSONValue == "fresh")
    stop()
  }

  // "... refetch when `refetchOnRestore` is set to `always`"
  @Test func refetchOnRestoreAlways() throws {
    try store(["foo"], data: "stored", at: 100)
    scheduler.advance(to: 200)
    let (_, _, stop) = observe(QueryPersister(storage: storage, refetchOnRestore: .always), staleTime: .infinity)
    scheduler.advance(by: 1)
    #expect(calls.current == 1)
    stop()
  }

  // "... NOT refetch when `refetchOnRestore` is set to false"
  @Test func refetchOnRestoreNever() throws {
    try store(["foo"], data: "stored", at: 100)
    scheduler.advance(to: 200)
    let (client, _, stop) = observe(QueryPersister(storage: storage, refetchOnRestore: .never), staleTime: 0)
    scheduler.advance(by: 1)
    #expect(calls.current == 0)
    #expect(client.getQueryData(["foo"]) as? JSONValue == "stored")
    stop()
  }

  // "should remove stored item if its expired", "... if its busted", "... if `dataUpdatedAt` is
  // empty" and "should fetch if deserialization fails"
  @Test func expiredBustedUndatedAndUnreadableRecordsAreRemoved() throws {
    for setUp in [
      { try self.store(["foo"], data: "stored", at: 1) },                       // older than maxAge
      { try self.store(["foo"], data: "stored", at: 150, buster: "old") },      // busted
      { try self.store(["foo"], data: "stored", at: 0) },                       // no dataUpdatedAt
      { try self.storage.setItem("tanstack-query-[\"foo\"]", Data("{oops".utf8)) },  // unreadable
    ] as [() throws -> Void] {
      try setUp()
      let persister = QueryPersister(storage: storage, maxAge: 100)
      #expect(persister.retrieveQuery(#"["foo"]"#, now: 200) == nil)
      #expect(try storage.getItem("tanstack-query-[\"foo\"]") == nil)
    }
  }

  // "should skip stored item if not matched by filters"
  @Test func queriesOutsideTheFiltersAreNeitherRestoredNorStored() throws {
    try store(["foo"], data: "stored", at: 100)
    scheduler.advance(to: 200)
    let (client, _, stop) = observe(QueryPersister(storage: storage, filters: QueryFilters(queryKey: ["bar"])), staleTime: .infinity)
    scheduler.advance(by: 1)
    #expect(calls.current == 1)
    #expect(client.getQueryData(["foo"]) as? JSONValue == "fresh")
    let record = try JSONDecoder().decode(PersistedQuery.self, from: try #require(try storage.getItem("tanstack-query-[\"foo\"]")))
    #expect(record.state.data as? JSONValue == "stored")
    stop()
  }

  // persisterGc, restoreQueries and removeQueries: "should properly clean storage from busted
  // entries", "should properly restore queries from cache with partial match", "should remove
  // queries from storage with exact match"
  @Test func gcRestoreAndRemoveWorkOnEveryRecord() throws {
    try store(["todos", 1], data: "one", at: 100)
    try store(["todos", 2], data: "two", at: 100)
    try store(["user"], data: "me", at: 100)
    try store(["busted"], data: "x", at: 100, buster: "old")
    try storage.setItem("tanstack-query-garbage", Data("{".utf8))
    try storage.setItem("other-key", Data("kept".utf8))
    let persister = QueryPersister(storage: storage)
    try persister.persisterGc(now: 200)
    #expect(try storage.entries().map(\.key).sorted() == ["other-key", "tanstack-query-[\"todos\",1]", "tanstack-query-[\"todos\",2]", "tanstack-query-[\"user\"]"])

    scheduler.advance(to: 200)
    let client = QueryClient(scheduler: scheduler)
    try persister.restoreQueries(client, queryKey: ["todos"])
    #expect(client.getQueryData(["todos", 1]) as? JSONValue == "one")
    #expect(client.getQueryState(["todos", 2])?.dataUpdatedAt == 100)
    #expect(client.getQueryData(["user"]) == nil)

    try persister.removeQueries(queryKey: ["todos"], exact: true)
    #expect(try storage.entries().count == 4)
    try persister.removeQueries(queryKey: ["todos", 1], exact: true)
    #expect(try storage.getItem("tanstack-query-[\"todos\",1]") == nil)
    try persister.removeQueries()
    #expect(try storage.entries().map(\.key) == ["other-key"])
  }
}
