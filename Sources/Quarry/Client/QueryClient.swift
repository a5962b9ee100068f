/// Client-wide default options (TanStack's `DefaultOptions`).
public struct DefaultOptions: Sendable {
  /// Defaults for every query.
  public var queries: QueryOptions
  /// Defaults for every mutation.
  public var mutations: MutationOptions
  /// Defaults for `dehydrate(_:options:)` (TanStack's `defaultOptions.dehydrate`).
  public var dehydrate = DehydrateOptions()
  /// Defaults for `hydrate(_:_:options:)` (TanStack's `defaultOptions.hydrate`).
  public var hydrate = HydrateOptions()
  /// Creates defaults.
  public init(queries: QueryOptions = QueryOptions(), mutations: MutationOptions = MutationOptions()) {
    self.queries = queries
    self.mutations = mutations
  }
}

/// The entry point to Quarry's engine: a cache of queries plus the operations on them
/// (TanStack's `QueryClient`).
///
/// ```swift
/// let client = QueryClient()
/// let todos = try await client.fetchQuery(["todos"], as: [Todo].self) { _ in try await api.todos() }
/// try client.setQueryData(["todos"]) { (old: [Todo]?) in (old ?? []) + [newTodo] }
/// ```
public final class QueryClient: @unchecked Sendable {
  // Safe: mutable members are guarded by the engine lock.
  let engine: Engine
  /// The query cache.
  public let queryCache: QueryCache
  /// The mutation cache.
  public let mutationCache: MutationCache
  private var defaultOptionsStorage: DefaultOptions {
    didSet { updateHashFollowsKey() }
  }
  /// The defaulted options, without key and hash, of every query a keyed write builds while no
  /// key has defaults and keys hash by `hashKey`: made once, shared by all those queries
  /// (`Query.init(sharing:)`), dropped whenever the defaults change.
  private var sharedWriteOptions: QueryOptionsBox?
  var mutationDefaults = KeyedDefaults<MutationOptions>()
  private var queryDefaults = KeyedDefaults<QueryOptions>() {
    didSet { updateHashFollowsKey() }
  }
  /// Whether every key's hash is its `hashKey`: no default (client-wide or per key) sets
  /// `queryHash` or `queryKeyHashFn`. Then keyed reads and writes skip `defaultQueryOptions`.
  private var hashFollowsKey = true
  /// Whether no defaults are set at all: `defaultQueryOptions` then merges over nothing.
  private var noQueryDefaults = true
  /// Whether no key has `setQueryDefaults` (`queryDefaults.isEmpty`, kept by its `didSet`):
  /// reading `queryDefaults` itself, a value whose mutations span calls, is checked for exclusive
  /// access at run time (about 80 instructions per keyed write of a new key); this `Bool` is not.
  private var noKeyDefaults = true
  private var mountCount = 0
  private var unsubscribeFocus: (() -> Void)?
  private var unsubscribeOnline: (() -> Void)?

  /// Creates a client on `scheduler` (virtual time in tests, a real clock in apps).
  public init(scheduler: any QueryScheduler = ClockScheduler(clock: ContinuousClock()), defaultOptions: DefaultOptions = DefaultOptions(), queryCacheConfig: QueryCache.Config = QueryCache.Config(), mutationCacheConfig: MutationCache.Config = MutationCache.Config()) {
    let engine = Engine(scheduler: scheduler)
    self.engine = engine
    self.queryCache = QueryCache(engine: engine, config: queryCacheConfig)
    self.mutationCache = MutationCache(engine: engine, config: mutationCacheConfig)
    self.defaultOptionsStorage = defaultOptions
    engine.client = self
    queryCache.link.client = self
    updateHashFollowsKey()
  }

  private func updateHashFollowsKey() {
    sharedWriteOptions = nil
    func keeps(_ o: QueryOptions) -> Bool { !o.hasQueryHash && o.queryKeyHashFn == nil }
    hashFollowsKey = keeps(defaultOptionsStorage.queries) && queryDefaults.entries.allSatisfy { keeps($0.options) }
    noKeyDefaults = queryDefaults.isEmpty
    noQueryDefaults = noKeyDefaults && defaultOptionsStorage.queries.isShallowEqual(to: QueryOptions())
  }

  /// The client's scheduler.
  public var scheduler: any QueryScheduler { engine.scheduler.base }
  /// The client's focus manager.
  public var focusManager: FocusManager { engine.focusManager }
  /// The client's online manager.
  public var onlineManager: OnlineManager { engine.onlineManager }

  /// Starts listening to focus and connectivity (refetching on focus and reconnect).
  public func mount() {
    engine.lock.sync {
      mountCount += 1
      guard mountCount == 1 else { return }
      unsubscribeFocus = engine.focusManager.subscribe { [weak self] focused in
        guard let self, focused else { return }
        self.resumePausedMutations().whenSettled { _ in self.engine.lock.sync { self.queryCache.onFocus() } }
      }
      unsubscribeOnline = engine.onlineManager.subscribe { [weak self] online in
        guard let self, online else { return }
        self.resumePausedMutations().whenSettled { _ in self.engine.lock.sync { self.queryCache.onOnline() } }
      }
    }
  }

  /// Stops listening once every `mount` has been balanced.
  public func unmount() {
    engine.lock.sync {
      mountCount -= 1
      guard mountCount == 0 else { return }
      unsubscribeFocus?()
      unsubscribeFocus = nil
      unsubscribeOnline?()
      unsubscribeOnline = nil
    }
  }

  /// How many matching queries are fetching.
  public func isFetching(_ filters: QueryFilters = QueryFilters()) -> Int {
    var f = filters
    f.fetchStatus = .fetching
    return queryCache.findAll(f).count
  }

  /// The cached data of `queryKey`, if any.
  public func getQueryData(_ queryKey: QueryKey) -> (any Sendable)? {
    // The data box alone is read out of the state (reading `data` made the optimizer copy the
    // whole state first).
    cachedDataBox(queryKey)?.value
  }

  /// The cached query for `queryKey`: found by the key itself when hashes follow keys,
  /// otherwise (or when that misses and another key could have its hash) by its hash. The
  /// caller holds the engine lock.
  @inline(__always)
  private func existingQuery(_ queryKey: QueryKey) -> Query? {
    if hashFollowsKey, let query = queryCache.lookup(key: queryKey) { return query }
    return existingQueryByHash(queryKey)
  }

  /// ``existingQuery(_:)`` after the key table missed (or was not asked).
  @inline(never)
  private func existingQueryByHash(_ queryKey: QueryKey) -> Query? {
    // No other key can have this key's hash: the miss is the answer.
    if hashFollowsKey, queryCache.canSkipHash(of: queryKey) { return nil }
    return queryCache.lookup(queryHash(queryKey))
  }

  /// The hash the key's defaults give it (TanStack's `defaultQueryOptions({queryKey}).queryHash`);
  /// just its `hashKey` when no default changes hashing.
  func queryHash(_ queryKey: QueryKey) -> String {
    engine.lock.sync {
      if hashFollowsKey { return queryKey.queryHash }
      return defaultQueryOptions(QueryOptions(queryKey: queryKey)).queryHash ?? queryKey.queryHash
    }
  }

  /// The cached data of `queryKey` as `T`; throws ``QuarryError/typeMismatch`` for another type.
  @inlinable
  public func getQueryData<T>(_ queryKey: QueryKey, as type: T.Type) throws -> T? {
    // Inlinable, so that the cast is made where `T` is known: unspecialized, this generic read
    // cost twice the untyped one (Optional<T>'s metadata looked up and the runtime's general
    // cast, about 800 instructions of 1,300). Data of another type (JSON to decode, or a
    // mismatch) takes the slow path, outside the lock (decoding may run user code).
    guard let box = cachedDataBox(queryKey) else { return nil }
    // A `T` in the existential's buffer is read in the box (`DataBox.castValue(to:)`).
    if let data = box.castValue(to: T.self) { return data }
    return try typedData(of: box, queryKey, as: T.self)
  }

  /// The data box of `queryKey`'s query, found as the untyped read finds it (by key while hashes
  /// follow keys).
  @usableFromInline
  func cachedDataBox(_ queryKey: QueryKey) -> DataBox? {
    underReadLock { existingQuery(queryKey)?.stateStorage.dataBox }
  }

  /// `engine.lock.sync(body)` for a keyed read, without retaining the lock around it and
  /// releasing it after (about 30 instructions of a hit): `self` holds the engine, and the
  /// engine its lock (both `let`), for as long as the caller holds `self`.
  @inline(__always)
  private func underReadLock<T>(_ body: () -> T) -> T {
    Unmanaged.passUnretained(engine.lock)._withUnsafeGuaranteedRef { $0.sync(body) }
  }

  /// The typed read's data not of type `T` itself: JSON decoded into `T`, or the type mismatch
  /// (the hash is written only for its error).
  @usableFromInline
  func typedData<T>(of box: DataBox, _ queryKey: QueryKey, as type: T.Type) throws -> T {
    try box.typedValue(as: T.self, key: queryHash(queryKey))
  }

  /// The state of `queryKey`'s query, if cached.
  public func getQueryState(_ queryKey: QueryKey) -> QueryState? {
    underReadLock { existingQuery(queryKey)?.stateStorage }
  }

  /// The key and data of every matching query.
  public func getQueriesData(_ filters: QueryFilters) -> [(queryKey: QueryKey, data: (any Sendable)?)] {
    queryCache.findAll(filters).map { ($0.queryKey, $0.state.data) }
  }

  /// Writes data computed from the old data; an updater returning `nil` changes nothing
  /// (TanStack's `setQueryData` with an updater function).
  ///
  /// The updater runs under the engine lock: keep it quick, and do not wait in it for another
  /// thread that uses this client.
  @discardableResult
  public func setQueryData(_ queryKey: QueryKey, updatedAt: Double? = nil, _ updater: ((any Sendable)?) -> (any Sendable)?) -> (any Sendable)? {
    update(queryKey, updatedAt: updatedAt) { updater($0?.value) }?.value
  }

  /// Where a keyed write goes, found before its data is computed: one lookup, and
  /// `defaultQueryOptions` only for a query that does not exist yet (TanStack's `build` ignores
  /// the options of an existing one).
  private struct WriteTarget {
    /// The cache's revision at the lookup: an updater may change the cache.
    let revision: Int
    /// The key hashed for the key table once, for the lookup and for a new query's insertion.
    let keySlot: Prehashed<QueryKey>?
    let existing: Query?
    /// The hash, when the lookup had to write it, and the slot it was looked up by in the
    /// hash table (hashed once, for the lookup and a new query's insertion).
    let knownHash: String?
    let hashSlot: Prehashed<CodeUnitString>?
    /// Whether the key missed in the key table and no other key can have its hash
    /// (`QueryCache.canSkipHash(of:)`): no query has it, and a new one need not write it.
    var unhashed = false
  }

  /// Where a keyed write goes once the key table missed (`keySlot` given) or was not asked
  /// (`nil`); the caller holds the engine lock (``update(_:updatedAt:_:)`` looks the key up first).
  private func missedWriteTarget(_ queryKey: QueryKey, keySlot: Prehashed<QueryKey>?) -> WriteTarget {
    let revision = queryCache.revision
    if let keySlot, queryCache.canSkipHash(of: queryKey) {
      return WriteTarget(revision: revision, keySlot: keySlot, existing: nil, knownHash: nil, hashSlot: nil, unhashed: true)
    }
    let hash = hashFollowsKey ? queryKey.queryHash : queryHash(queryKey)
    let hashSlot = Prehashed(CodeUnitString(hash))
    return WriteTarget(revision: revision, keySlot: keySlot, existing: queryCache.lookup(hashSlot: hashSlot), knownHash: hash, hashSlot: hashSlot)
  }

  /// Writes `data` (not undefined) to the query `target` found, or to a new one; the caller
  /// holds the engine lock. Inlined into both forms: a `WriteTarget` passed to it was
  /// destroyed through its value witness.
  @inline(__always)
  private func write(_ data: any Sendable, to target: WriteTarget, _ queryKey: QueryKey, updatedAt: Double?) -> DataBox {
    let query: Query
    if let existing = target.existing, target.revision == queryCache.revision {
      query = existing
    } else {
      query = writtenQuery(target, queryKey)
    }
    return query.setData(data, updatedAt: updatedAt, manual: true)
  }

  /// The query a write to `target` builds (or, if the cache changed since the lookup, finds).
  @inline(__always)
  private func writtenQuery(_ target: borrowing WriteTarget, _ queryKey: QueryKey) -> Query {
    let query: Query
    if hashFollowsKey, noKeyDefaults {
      // The options `defaultQueryOptions` builds for a bare key differ by key and hash only.
      let shared = sharedWriteOptions ?? makeSharedWriteOptions()
      if target.unhashed, let keySlot = target.keySlot, target.revision == queryCache.revision {
        // Nothing is cached under the key or its hash, and the cache has not changed since.
        query = queryCache.buildUnhashed(queryKey: queryKey, sharing: shared, keySlot: keySlot)
      } else if let hash = target.knownHash, let hashSlot = target.hashSlot {
        // Its lookup missed, and if the cache has not changed since, the slot is still free.
        let absent = target.existing == nil && target.revision == queryCache.revision
        query = queryCache.build(self, queryKey: queryKey, queryHash: hash, sharing: shared, keySlot: target.keySlot, hashSlot: hashSlot, absent: absent)
      } else {
        query = queryCache.build(self, queryKey: queryKey, queryHash: queryKey.queryHash, sharing: shared, keySlot: target.keySlot)
      }
    } else {
      var options = QueryOptions(queryKey: queryKey)
      if hashFollowsKey {
        // The hash `defaultQueryOptions` would write again.
        options.queryHash = target.knownHash ?? queryKey.queryHash
        options.keyHashed = true
      }
      query = queryCache.build(self, defaultQueryOptions(options, identity: false), keySlot: target.keySlot)
    }
    return query
  }

  /// `isUndefined(unboxed(data))`: TanStack's `data === undefined`. A value stored as a plain
  /// struct or enum (not a box, not an `Optional`) is answered from its stored type alone.
  private func isUndefinedData(_ data: any Sendable) -> Bool {
    castMaySeeThrough(storedType(of: data)) && isUndefined(unboxed(data))
  }

  /// `defaultQueryOptions` of a bare key's options, as `setQueryData` builds them, without the
  /// key and hash; kept in `sharedWriteOptions`. The caller holds the engine lock.
  private func makeSharedWriteOptions() -> QueryOptionsBox {
    var options = QueryOptions(queryKey: [])
    options.queryHash = ""
    options.keyHashed = true
    var defaulted = defaultQueryOptions(options, identity: false)
    defaulted.queryKey = nil
    defaulted.queryHash = nil
    let box = QueryOptionsBox(defaulted)
    sharedWriteOptions = box
    return box
  }

  /// Writes `value` as `queryKey`'s data (TanStack's `setQueryData` with a value).
  ///
  /// ```swift
  /// client.setQueryData(["user", 1], value: "Ada")
  /// ```
  @discardableResult
  public func setQueryData(_ queryKey: QueryKey, value: any Sendable, updatedAt: Double? = nil) -> (any Sendable)? {
    engine.lock.sync {
      // The updater form with `{ _ in value }`, without reading the old data for it.
      guard hashFollowsKey else { return writeMissed(value, queryKey, keySlot: nil, updatedAt: updatedAt) }
      let keySlot = Prehashed(queryKey)
      if let query = queryCache.lookup(keySlot: keySlot) {
        // The key's query: nothing can change the cache before the write.
        guard !isUndefinedData(value) else { return nil }
        return query.setData(value, updatedAt: updatedAt, manual: true).value
      }
      if noKeyDefaults, queryCache.canSkipHash(of: queryKey) {
        return writeNew(value, queryKey, keySlot: keySlot, updatedAt: updatedAt)
      }
      return writeMissed(value, queryKey, keySlot: keySlot, updatedAt: updatedAt)
    }
  }

  /// ``setQueryData(_:value:updatedAt:)`` of a key that missed in the key table when nothing can
  /// be cached under its hash either (``missedWriteTarget(_:keySlot:)``'s `unhashed`): a new
  /// query, built without writing its hash. Out of line, so that a write to an existing key
  /// stays small.
  @inline(never)
  private func writeNew(_ value: any Sendable, _ queryKey: QueryKey, keySlot: Prehashed<QueryKey>, updatedAt: Double?) -> (any Sendable)? {
    guard !isUndefinedData(value) else { return nil }
    let shared = sharedWriteOptions ?? makeSharedWriteOptions()
    let query = queryCache.buildUnhashed(queryKey: queryKey, sharing: shared, keySlot: keySlot)
    return query.setData(value, updatedAt: updatedAt, manual: true).value
  }

  /// ``setQueryData(_:value:updatedAt:)`` once the key table missed (`keySlot` given) or was not
  /// asked (`nil`), when the key's hash must be looked up.
  @inline(never)
  private func writeMissed(_ value: any Sendable, _ queryKey: QueryKey, keySlot: Prehashed<QueryKey>?, updatedAt: Double?) -> (any Sendable)? {
    let target = missedWriteTarget(queryKey, keySlot: keySlot)
    guard !isUndefinedData(value) else { return nil }
    return write(value, to: target, queryKey, updatedAt: updatedAt).value
  }

  /// Writes data computed from the old data read as `T`; an updater returning `nil` changes
  /// nothing. Data of another type is never overwritten: the call throws
  /// ``QuarryError/typeMismatch(key:expected:actual:)`` and leaves it as it is.
  ///
  /// ```swift
  /// try client.setQueryData(["todos"]) { (old: [String]?) in (old ?? []) + ["buy milk"] }
  /// ```
  @discardableResult @inlinable
  public func setQueryData<T: Sendable>(_ queryKey: QueryKey, updatedAt: Double? = nil, _ updater: (T?) throws -> T?) throws -> T? {
    // Inlinable, so that the casts are made where `T` is known: unspecialized, each typed write
    // looked up `Optional<T>`'s metadata and cast through the runtime's general cast (about
    // 2,000 instructions). The lookup and the write are `update(_:updatedAt:_:)`'s.
    // Both values are read in their boxes (`DataBox.castValue(to:)`): a `T` held in the
    // existential's buffer needs neither the existential copied out nor a cast.
    try update(queryKey, updatedAt: updatedAt) { box in
      let old: T?
      if let box {
        old = try box.castValue(to: T.self) ?? typedData(of: box, queryKey, as: T.self)
      } else {
        old = nil
      }
      return try updater(old)
    }.flatMap { $0.castValue(to: T.self) }
  }

  /// Both updaters' write: finds `queryKey`'s query (by the key, without its hash string while
  /// hashes follow keys; else ``missedWriteTarget(_:keySlot:)``), hands its data box to
  /// `compute`, and writes what `compute` returns unless it is `nil` or undefined. `compute`
  /// runs under the engine lock, reading the box it was given (the typed updater's decoding may run user code: no access to
  /// the query's state is held meanwhile; see `Query`). Returns the box written (the caller
  /// reads its value: the typed write in place, `DataBox.castValue(to:)`), `nil` if none was.
  @usableFromInline
  func update(_ queryKey: QueryKey, updatedAt: Double?, _ compute: (DataBox?) throws -> (any Sendable)?) rethrows -> DataBox? {
    try engine.lock.sync {
      let keySlot = hashFollowsKey ? Prehashed(queryKey) : nil
      if let keySlot, let query = queryCache.lookup(keySlot: keySlot) {
        // The key's query, without a `WriteTarget` (built and destroyed through an outlined
        // value witness, about 200 instructions of a typed write): one is made only if
        // `compute` changed the cache.
        let revision = queryCache.revision
        guard let new = try compute(query.stateStorage.dataBox), !isUndefinedData(new) else { return nil }
        if revision == queryCache.revision { return query.setData(new, updatedAt: updatedAt, manual: true) }
        let target = WriteTarget(revision: revision, keySlot: keySlot, existing: query, knownHash: nil, hashSlot: nil)
        return write(new, to: target, queryKey, updatedAt: updatedAt)
      }
      let target = missedWriteTarget(queryKey, keySlot: keySlot)
      guard let new = try compute(target.existing?.stateStorage.dataBox), !isUndefinedData(new) else { return nil }
      // `write` builds the query or finds it again if `compute` changed the cache.
      return write(new, to: target, queryKey, updatedAt: updatedAt)
    }
  }

  /// Runs `setQueryData` on every matching query.
  @discardableResult
  public func setQueriesData(_ filters: QueryFilters, updatedAt: Double? = nil, _ updater: ((any Sendable)?) -> (any Sendable)?) -> [(queryKey: QueryKey, data: (any Sendable)?)] {
    engine.lock.sync {
      queryCache.findAll(filters).map { ($0.queryKey, setQueryData($0.queryKey, updatedAt: updatedAt, updater)) }
    }
  }

  /// Removes matching queries from the cache.
  public func removeQueries(_ filters: QueryFilters = QueryFilters()) {
    engine.lock.sync { for query in queryCache.findAll(filters) { queryCache.remove(query) } }
  }

  /// Removes everything from both caches.
  public func clear() {
    engine.lock.sync {
      queryCache.clear()
      mutationCache.clear()
    }
  }

  // MARK: Defaults

  /// The client-wide defaults.
  public var defaultOptions: DefaultOptions {
    get { engine.lock.sync { defaultOptionsStorage } }
    set { engine.lock.sync { defaultOptionsStorage = newValue } }
  }

  /// Replaces the client-wide defaults (TanStack's `setDefaultOptions`).
  public func setDefaultOptions(_ options: DefaultOptions) { defaultOptions = options }

  /// The client-wide defaults (TanStack's `getDefaultOptions`).
  public func getDefaultOptions() -> DefaultOptions { defaultOptions }

  /// Sets defaults for queries whose key starts with `queryKey`.
  public func setQueryDefaults(_ queryKey: QueryKey, _ options: QueryOptions) {
    engine.lock.sync { queryDefaults.set(queryKey, options) }
  }

  /// The merged defaults of every `setQueryDefaults` key that `queryKey` starts with.
  public func getQueryDefaults(_ queryKey: QueryKey) -> QueryOptions {
    engine.lock.sync {
      var result = QueryOptions()
      for var options in queryDefaults.matching(queryKey) {
        options.queryKey = nil
        result = options.merged(over: result)
      }
      return result
    }
  }

  /// `getQueryDefaults`, or `nil` when no key has defaults (a query then merges over nothing).
  func queryDefaultsIfAny(_ queryKey: QueryKey) -> QueryOptions? {
    engine.lock.sync { queryDefaults.isEmpty ? nil : getQueryDefaults(queryKey) }
  }

  /// Options with the client's and key's defaults applied (TanStack's `defaultQueryOptions`).
  public func defaultQueryOptions(_ options: QueryOptions) -> QueryOptions {
    defaultQueryOptions(options, identity: true)
  }

  /// ``defaultQueryOptions(_:)``; `identity: false` leaves out the object identity, for options
  /// that only build a query (a query's own options never keep it).
  /// Takes `options` (a caller's temporary is not copied: the struct is about 400 bytes).
  func defaultQueryOptions(_ options: consuming QueryOptions, identity: Bool) -> QueryOptions {
    var hint = CachedQueryHint.none
    return defaultQueryOptions(options, identity: identity, hint: &hint, lookUp: false)
  }

  /// ``defaultQueryOptions(_:identity:)``; with `lookUp`, a key hashed by `hashKey` (no
  /// `queryHash` or `queryKeyHashFn` given or defaulted) is first looked up in the cache's key
  /// table: a query found there has that very hash (equal keys hash equally), so its
  /// `queryHash` is taken instead of writing the string again, and `hint` says which query the
  /// options build. The caller holds the engine lock.
  func defaultQueryOptions(_ options: consuming QueryOptions, identity: Bool, hint: inout CachedQueryHint, lookUp: Bool) -> QueryOptions {
    if options.defaulted { return options }
    var d = options
    engine.lock.sync {
      if noQueryDefaults {
        // What merging over empty options changes.
        d.identity = nil
      } else if queryDefaults.isEmpty {
        d = d.merged(over: defaultOptionsStorage.queries)
      } else {
        let keyDefaults = d.queryKey.map(getQueryDefaults) ?? QueryOptions()
        d = d.merged(over: keyDefaults.merged(over: defaultOptionsStorage.queries))
      }
    }
    d.defaulted = true
    d.identity = identity ? OptionsIdentity.next() : nil
    // The two members read in place (`hasQueryHash`, a getter, copied `d` out of its box).
    if d.givenHash == nil && d.keyHashBox == nil {
      d.keyHashed = d.queryKeyHashFn == nil
      if lookUp, d.keyHashed, let key = d.queryKey {
        let slot = Prehashed(key)
        if let query = queryCache.lookup(keySlot: slot) {
          d.takeQueryHash(of: query)
          hint = .found(query)
        } else {
          d.queryHash = key.queryHash
          hint = .missed(slot)
        }
      } else {
        // `hashQueryKeyByOptions`, without copying the options into its argument.
        let key = d.queryKey ?? []
        d.queryHash = d.queryKeyHashFn?.call(key) ?? key.queryHash
      }
    }
    if d.refetchOnReconnect == nil { d.refetchOnReconnect = d.networkMode != .always ? .ifStale : .never }
    if d.throwOnError == nil { d.throwOnError = false }
    if d.queryFn?.isSkipToken == true { d.enabled = .value(false) }
    return d
  }
}

/// What ``QueryClient/defaultQueryOptions(_:identity:hint:lookUp:)`` learned about the cached
/// query of the options it defaulted.
enum CachedQueryHint {
  /// Nothing: build the query from the options (`QueryCache.build`).
  case none
  /// The query cached under the options' key: the one `build` would return.
  case found(Query)
  /// No query is cached under the key (one may still be under its hash); the key as hashed
  /// for the key table, for `build` to insert a new query with.
  case missed(Prehashed<QueryKey>)
}
