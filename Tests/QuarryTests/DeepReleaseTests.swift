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

  // MARK: values held outside keys and query data (each `@DeepReleased`)

  /// Whether `value` is `data(leaf)` (a Boolean: a failure prints no deep value).
  static func isData(_ value: (any Sendable)?, leaf: JSONValue = 1) -> Bool {
    var expected = data(leaf)
    let same = value as? JSONValue == expected
    JSONValue.dismantle(&expected)
    return same
  }

  /// Runs a mutation with deep `meta`, variables, context (from `onMutate`) and data and
  /// returns whether its state held all three.
  static func mutateDeeply(_ client: QueryClient, _ scheduler: VirtualScheduler) -> Bool {
    var options = MutationOptions(mutationKey: ["deep"])
    options.meta = data(4)
    options.mutationFn = .typed { (variables: JSONValue, _) in isData(variables) ? data(2) : JSONValue.null }
    options.onMutate = MutationCallback { _ in data(3) }
    _ = client.mutatePromise(options, variables: data())
    scheduler.advance(by: 0)
    guard let state = client.mutationCache.getAll().first?.state else { return false }
    let meta = isData(client.mutationCache.getAll().first?.meta, leaf: 4)
    return meta && state.status == .success && isData(state.variables) && isData(state.data, leaf: 2) && isData(state.context, leaf: 3)
  }

  @Test func aMutationsDeepVariablesDataContextAndMetaAreReleasedWhenItIsCollected() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let held = Self.mutateDeeply(client, scheduler)
    #expect(held)
    scheduler.advance(by: 5 * 60 * 1000)  // the default gcTime: the mutation is removed
    #expect(client.mutationCache.getAll().isEmpty)
  }

  @Test func clearingTheMutationCacheReleasesDeepMutations() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let held = Self.mutateDeeply(client, scheduler)
    #expect(held)
    client.mutationCache.clear()
    #expect(client.mutationCache.getAll().isEmpty)
  }

  @Test func aQuerysDeepMetaAndInitialPageParamAreReleasedWithIt() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var options = QueryOptions(queryKey: ["infinite"])
    options.meta = Self.data(2)
    options.initialPageParam = Self.data()
    options.getNextPageParam = PageParamFunction { _, _, _, _ in nil }
    options.queryFn = .fn { context in Self.isData(context.pageParam) && Self.isData(context.meta, leaf: 2) }
    _ = client.fetchInfiniteQueryPromise(options)
    options = QueryOptions(queryKey: ["infinite"])
    scheduler.advance(by: 0)
    let page = InfiniteData(client.getQueryData(["infinite"]))?.pages.first as? Bool
    #expect(page == true)
    client.clear()  // the query, its options (meta, initialPageParam) and its page params go
    #expect(client.queryCache.getAll().isEmpty)
  }

  @Test func aQueryFetchedWithDeepMetaIsReleasedWhenCollected() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var options = QueryOptions(queryKey: ["meta"])
    options.meta = Self.data()
    options.gcTime = 10
    options.queryFn = .fn { context in Self.isData(context.meta) }
    _ = client.fetchQueryPromise(options)
    options.meta = nil
    scheduler.advance(by: 0)
    #expect(client.getQueryData(["meta"]) as? Bool == true)
    scheduler.advance(by: 10)
    #expect(client.queryCache.getAll().isEmpty)
  }

  @Test func aDehydratedAndHydratedDeepMutationIsReleasedEverywhere() throws {
    let scheduler = VirtualScheduler()
    let source = QueryClient(scheduler: scheduler)
    let target = QueryClient(scheduler: VirtualScheduler())
    let again = QueryClient(scheduler: VirtualScheduler())
    let held = Self.mutateDeeply(source, scheduler)
    #expect(held)
    do {
      let state = dehydrate(source, options: DehydrateOptions(shouldDehydrateMutation: { _ in true }))
      hydrate(target, state)
      var json = try state.json()
      try hydrate(again, json: json)
      JSONValue.dismantle(&json)
    }
    source.mutationCache.clear()
    let hydrated = [target, again].allSatisfy { client in
      client.mutationCache.getAll().first.map { Self.isData($0.state.variables) && Self.isData($0.meta, leaf: 4) } ?? false
    }
    #expect(hydrated)
    target.mutationCache.clear()
    again.mutationCache.clear()
  }

  @Test func aHydratedQueryWithADeepErrorAndFetchMetaIsReleased() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    var state = QueryState()
    state.status = .error
    state.error = DehydratedError(json: Self.data())
    state.fetchMeta = Self.data(2)
    hydrate(client, DehydratedState(queries: [DehydratedQuery(queryHash: #"["failed"]"#, queryKey: ["failed"], state: state, meta: Self.data(3))]))
    state = QueryState()
    let error = client.getQueryState(["failed"])?.error as? DehydratedError
    let held = Self.isData(error?.json) && Self.isData(client.queryCache.getAll().first?.state.fetchMeta, leaf: 2)
    #expect(held)
    client.clear()
    #expect(client.queryCache.getAll().isEmpty)
  }

  @Test func deepStreamedChunksAreReleasedWithTheirQuery() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var options = QueryOptions(queryKey: ["stream"])
    options.queryFn = .streamedQuery { _ in
      AsyncStream<JSONValue> { continuation in
        continuation.yield(Self.data())
        continuation.yield(Self.data(2))
        continuation.finish()
      }
    }
    _ = client.fetchQueryPromise(options)
    scheduler.advance(by: 0)
    let held = Self.holdsChunks(client)
    #expect(held)
    client.clear()
    #expect(client.queryCache.getAll().isEmpty)
  }

  /// Whether the streamed query holds both deep chunks (the copy read here goes first).
  static func holdsChunks(_ client: QueryClient) -> Bool {
    guard let chunks = client.getQueryData(["stream"]) as? [JSONValue] else { return false }
    return chunks.count == 2 && isData(chunks[0]) && isData(chunks[1], leaf: 2)
  }

  /// `Codable` (snapshots, persisted queries and keys) cannot write 100,000 levels: it throws
  /// an error naming the limit instead of overflowing the stack.
  @Test func codableThrowsForValuesTooDeepToEncode() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    _ = client.setQueryData(["deep"], value: Self.data())
    let state = dehydrate(client)
    #expect(throws: EncodingError.self) { try JSONEncoder().encode(state) }
    #expect(throws: EncodingError.self) { try JSONEncoder().encode(state.queries[0].state) }
    let key = Self.key("key")
    #expect(throws: EncodingError.self) { try JSONEncoder().encode(key.jsonValue) }
    let shallow = try JSONEncoder().encode(DeepValueTests.deep(JSONValue.codableDepthLimit - 1))
    #expect(try JSONDecoder().decode(JSONValue.self, from: shallow) == DeepValueTests.deep(JSONValue.codableDepthLimit - 1))
    client.clear()
  }

  @Test func aDeepReleasedPropertyGivesItsValueBack() {
    struct Holder { @DeepReleased var value: JSONValue? = nil }
    var holder = Holder()
    holder.value = Self.data()
    let deep = Self.isData(holder.value)
    holder.value = [1, "a"]
    #expect(deep)
    #expect(holder.value == [1, "a"])
    holder = Holder()
    #expect(holder.value == nil)
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
    let mutated = mutateDeeply(client!, scheduler)
    client!.mutationCache.clear()
    client = nil
    scheduler.advance(by: 5 * 60 * 1000)
    return stored && removed && mutated && query == nil
  }
}

