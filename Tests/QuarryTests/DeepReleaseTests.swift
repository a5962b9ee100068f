import Foundation
import Testing
@testable import Quarry

/// Keys and data nested 100,000 levels deep whose *last* reference Quarry holds: releasing them
/// (replaced data, a removed, cleared or collected query, a released client or observer,
/// hydration, a thread with a 512 KiB stack) must not overflow the stack. Each test dismantles
/// its own copies, so every deep release left is Quarry's; each crashed before the release
/// boxes (`DeepParts`, `DataBox`'s deinit) in a debug build.
@Suite struct DeepReleaseTests {
  static let depth = DeepValueTests.depth

  /// A key whose second part is `depth` levels deep.
  static func key(_ name: String) -> QueryKey { QueryKey([.string(name), DeepValueTests.deep(depth)]) }

  /// Data `depth` levels deep around `leaf`.
  static func data(_ leaf: JSONValue = 1) -> JSONValue { DeepValueTests.deep(depth, leaf: leaf) }

  /// Whether the query under `key` holds data equal to `data(leaf)` (a Boolean, so a failure
  /// prints no 100,000-level value).
  static func holds(_ client: QueryClient, _ key: QueryKey, leaf: JSONValue = 1) -> Bool {
    var expected = data(leaf)
    let same = client.getQueryData(key) as? JSONValue == expected
    JSONValue.dismantle(&expected)
    return same
  }

  @Test func setQueryDataReleasesTheDataItReplaces() {
    let client = QueryClient(scheduler: VirtualScheduler())
    var key = Self.key("set")
    _ = client.setQueryData(key, value: Self.data())  // only the client holds the data
    let first = Self.holds(client, key)
    _ = client.setQueryData(key, value: Self.data(2))  // the first data's last reference goes
    let second = Self.holds(client, key, leaf: 2)
    _ = client.setQueryData(key) { _ in Self.data(3) }
    let third = Self.holds(client, key, leaf: 3)
    #expect(first)
    #expect(second)
    #expect(third)
    #expect(client.getQueryState(key)?.dataUpdateCount == 3)
    client.clear()
    QueryKey.dismantle(&key)
  }

  @Test func infiniteDataWithDeepPagesAndParamsIsReleased() {
    let client = QueryClient(scheduler: VirtualScheduler())
    _ = client.setQueryData(["pages"], value: InfiniteData(pages: [Self.data(), 1, Self.data(2)], pageParams: [Self.data(), nil, 2]))
    let pages = InfiniteData(client.getQueryData(["pages"]))?.pages.count
    #expect(pages == 3)
    client.clear()
    #expect(client.queryCache.getAll().isEmpty)
  }

  @Test func removeQueriesReleasesAQueryWithADeepKeyAndData() {
    let client = QueryClient(scheduler: VirtualScheduler())
    _ = client.setQueryData(Self.key("remove"), value: Self.data())
    _ = client.setQueryData(["other"], value: 1)
    var filterKey = Self.key("remove")
    client.removeQueries(QueryFilters(queryKey: filterKey, exact: true))
    let removed = client.queryCache.getAll().map(\.queryHash) == [#"["other"]"#]
    #expect(removed)
    QueryKey.dismantle(&filterKey)
  }

  @Test func clearReleasesEveryDeepQuery() {
    let client = QueryClient(scheduler: VirtualScheduler())
    for name in ["a", "b", "c"] { _ = client.setQueryData(Self.key(name), value: Self.data()) }
    #expect(client.queryCache.getAll().count == 3)
    client.clear()
    #expect(client.queryCache.getAll().isEmpty)
  }

  @Test func releasingTheClientReleasesDeepQueriesWhenTheirGcTimersFire() {
    let scheduler = VirtualScheduler()
    var client: QueryClient? = QueryClient(scheduler: scheduler)
    _ = client!.setQueryData(Self.key("released"), value: Self.data())
    weak let query = client!.queryCache.getAll().first
    let stored = query != nil
    client = nil
    scheduler.advance(by: 5 * 60 * 1000)  // the default gcTime: the timer lets its query go
    let released = query == nil
    #expect(stored)
    #expect(released)
  }

  @Test func fetchQueryDataIsReleasedWhenTheQueryIsCollected() async throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var options = QueryOptions(queryKey: Self.key("fetch"))
    options.queryFn = .fn { _ in Self.data() }
    options.gcTime = 10
    let fetchOptions = options
    do {
      let task = Task(executorPreference: scheduler) { try await client.fetchQuery(fetchOptions) is JSONValue }
      scheduler.advance(by: 0)
      #expect(try await task.value)
    }
    let fetched = Self.holds(client, options.queryKey!)
    #expect(fetched)
    QueryKey.dismantle(&options.queryKey!)
    scheduler.advance(by: 10)
    #expect(client.queryCache.getAll().isEmpty)
  }

  @Test func anObserverOfADeepKeyIsInvalidatedUnsubscribedAndItsQueryCollected() async throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let calls = Counter()
    var options = QueryOptions(queryKey: Self.key("observed"))
    options.queryFn = .fn { _ in
      calls.increment()
      return Self.data(.number(Double(calls.value)))
    }
    options.gcTime = 10
    let results = Counter()
    do {
      let observer = QueryObserver(client: client, options: options)
      let unsubscribe = observer.subscribe { result in if result.status == .success { results.increment() } }
      scheduler.advance(by: 0)
      let firstFetch = Self.holds(client, options.queryKey!, leaf: 1)
      #expect(firstFetch)
      let filters = InvalidateQueryFilters(QueryFilters(queryKey: options.queryKey))
      let task = Task(executorPreference: scheduler) { try await client.invalidateQueries(filters) }
      scheduler.advance(by: 0)
      try await task.value
      let refetched = Self.holds(client, options.queryKey!, leaf: 2)
      #expect(refetched)
      unsubscribe()
    }
    #expect(calls.value == 2)
    #expect(results.value >= 2)
    QueryKey.dismantle(&options.queryKey!)
    scheduler.advance(by: 10)
    #expect(client.queryCache.getAll().isEmpty)
  }

  @Test func replacingAnObserversOptionsReleasesTheDeepQueryItLeft() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var options = QueryOptions(queryKey: Self.key("first"))
    options.queryFn = .fn { _ in Self.data() }
    options.gcTime = 10
    let observer = QueryObserver(client: client, options: options)
    let unsubscribe = observer.subscribe { _ in }
    scheduler.advance(by: 0)
    var next = options
    next.queryKey = Self.key("second")
    QueryKey.dismantle(&options.queryKey!)
    observer.setOptions(next)  // the observer's deep options and its first query are let go
    next.queryKey = nil
    scheduler.advance(by: 10)  // the first query is collected
    let hashes = client.queryCache.getAll().map { $0.queryHash.hasPrefix(#"["second","#) }
    #expect(hashes == [true])
    unsubscribe()
    scheduler.advance(by: 10)
    #expect(client.queryCache.getAll().isEmpty)
  }

  @Test func hydratedDeepQueriesAreReleasedWithBothClients() throws {
    let source = QueryClient(scheduler: VirtualScheduler())
    _ = source.setQueryData(Self.key("hydrated"), value: Self.data())
    let target = QueryClient(scheduler: VirtualScheduler())
    let again = QueryClient(scheduler: VirtualScheduler())
    do {
      let state = dehydrate(source)
      hydrate(target, state)
      var json = try state.json()
      try hydrate(again, json: json)
      JSONValue.dismantle(&json)
    }
    source.clear()
    var key = Self.key("hydrated")
    let hydrated = Self.holds(target, key) && Self.holds(again, key)
    #expect(hydrated)
    QueryKey.dismantle(&key)
    target.clear()
    again.clear()
  }

  /// Everything above on one thread with a 512 KiB stack, as a Dispatch worker has on Darwin.
  @Test func aThreadWithASmallStackStoresAndReleasesDeepValues() async {
    let finished = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let thread = Thread {
        continuation.resume(returning: Self.storeReplaceAndRelease())
      }
      thread.stackSize = 512 * 1024
      thread.start()
    }
    #expect(finished)
  }

  /// The same on a Dispatch queue.
  @Test func aDispatchQueueStoresAndReleasesDeepValues() async {
    let finished = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      DispatchQueue(label: "deep-release").async {
        continuation.resume(returning: Self.storeReplaceAndRelease())
      }
    }
    #expect(finished)
  }

  /// Stores deep data under a deep key, replaces it, reads it, then clears and drops the client.
  static func storeReplaceAndRelease() -> Bool {
    let scheduler = VirtualScheduler()
    var client: QueryClient? = QueryClient(scheduler: scheduler)
    var key = key("thread")
    _ = client!.setQueryData(key, value: data())
    _ = client!.setQueryData(key, value: data(2))
    let stored = holds(client!, key, leaf: 2)
    _ = client!.setQueryData(["second", data()], value: data())
    client!.removeQueries(QueryFilters(queryKey: key))
    let removed = client!.queryCache.getAll().count == 1
    client!.clear()
    _ = client!.setQueryData(key, value: data())
    QueryKey.dismantle(&key)
    weak let query = client!.queryCache.getAll().first
    client = nil
    scheduler.advance(by: 5 * 60 * 1000)
    return stored && removed && query == nil
  }
}

