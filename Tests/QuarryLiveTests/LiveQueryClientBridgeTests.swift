import Quarry
import Testing
@testable import QuarryLive

@Suite struct LiveQueryClientBridgeTests {
  @Test func aMirroredLiveQueryIsQueryDataAndEveryObserverSeesCommits() async throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let store = InMemoryStore<Item>(entity: "Item", records: [Item(id: 1, name: "a", rank: 1)])
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    let mirroring = controller.mirror(into: client, queryKey: ["items"])
    await controller.settled()
    #expect(try client.getQueryData(["items"], as: [Item].self)?.map(\.id) == [1])

    let seen = Locked<[[Int]]>([])
    let observers = (0..<2).map { _ in QueryObserver(client: client, options: controller.queryOptions(["items"])) }
    let unsubscribes = observers.map { observer in
      observer.subscribe { result in seen.withLock { $0.append((result.data as? [Item] ?? []).map(\.id)) } }
    }
    #expect(observers.allSatisfy { ($0.getCurrentResult().data as? [Item])?.map(\.id) == [1] })
    #expect(observers.allSatisfy { !$0.getCurrentResult().isFetching })  // static: no fetch on mount

    // A "mutation" that writes through to the store reaches every observer of the key.
    try store.write { try $0.insert(Item(id: 2, name: "b", rank: 2)) }
    await controller.settled()
    #expect(seen.current == [[1, 2], [1, 2]])
    #expect(observers.allSatisfy { $0.getCurrentResult().isSuccess })

    mirroring.cancel()
    try store.write { try $0.delete(id: 1) }
    await controller.settled()
    #expect(seen.current == [[1, 2], [1, 2]])
    for unsubscribe in unsubscribes { unsubscribe() }
    client.clear()
  }

  @Test func theQueryFunctionLoadsTheStore() async throws {
    let client = QueryClient()
    let store = InMemoryStore<Item>(entity: "Item", records: [Item(id: 3, name: "c")])
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    let data = try await client.fetchQuery(controller.queryOptions(["items"]))
    #expect((data as? [Item])?.map(\.id) == [3])
    client.clear()
  }

  @Test func theQueryFunctionThrowsTheFetchError() async throws {
    let client = QueryClient()
    let store = GatedStore([Item(id: 3, name: "c")])
    store.fail(with: ReadFailure())
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    var options = controller.queryOptions(["items"])
    options.retry = .count(0)
    await #expect(throws: ReadFailure.self) { try await client.fetchQuery(options) }
    client.clear()
  }
}

@Suite struct LiveStreamedQueryTests {
  /// The ids an observer result shows.
  private func ids(_ result: QueryObserverResult) -> [Int] { (result.data as? [Item] ?? []).map(\.id) }

  @Test func aStreamedLiveQueryReplacesTheDataOnEveryCommitWhileTheStreamStaysOpen() async throws {
    let client = QueryClient()
    let store = InMemoryStore<Item>(entity: "Item", records: [Item(id: 3, name: "c", rank: 1)])
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    let observer = QueryObserver(client: client, options: controller.streamedQueryOptions(["live"]))
    var results = observer.results().makeAsyncIterator()
    var first: QueryObserverResult?
    while let result = await results.next() {
      if ids(result) == [3] { first = result; break }
    }
    #expect(first?.isSuccess == true)
    #expect(first?.isFetching == true)  // a live stream never ends: the fetch stays open
    try store.write { try $0.insert(Item(id: 4, name: "d", rank: 2)) }
    var second: QueryObserverResult?
    while let result = await results.next() {
      if ids(result) == [3, 4] { second = result; break }
    }
    #expect(second.map(ids) == [3, 4])
    #expect(try client.getQueryData(["live"], as: [Item].self)?.map(\.id) == [3, 4])
  }
}
