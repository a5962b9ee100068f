/// Holds a client's queries by hash and tells listeners what happens to them
/// (TanStack's `QueryCache`).
///
/// ```swift
/// let unsubscribe = client.queryCache.subscribe { event in print(event.type, event.query.queryHash) }
/// ```
public final class QueryCache: @unchecked Sendable {
  // Safe: every mutable member is guarded by the engine lock.
  /// Callbacks for every query's fetch outcome (TanStack's `QueryCacheConfig`).
  public struct Config: Sendable {
    /// Called after any query's fetch succeeds.
    public var onSuccess: (@Sendable (any Sendable, Query) -> Void)?
    /// Called after any query's fetch fails.
    public var onError: (@Sendable (any Error, Query) -> Void)?
    /// Called after either.
    public var onSettled: (@Sendable ((any Sendable)?, (any Error)?, Query) -> Void)?
    /// Creates a configuration.
    public init(onSuccess: (@Sendable (any Sendable, Query) -> Void)? = nil, onError: (@Sendable (any Error, Query) -> Void)? = nil, onSettled: (@Sendable ((any Sendable)?, (any Error)?, Query) -> Void)? = nil) {
      self.onSuccess = onSuccess
      self.onError = onError
      self.onSettled = onSettled
    }
  }

  let engine: Engine
  let config: Config
  // The tables below are `@exclusivity(unchecked)`: every access to them is a lookup, insertion,
  // removal or whole-table operation whose hashing and comparing (stored hashes, code units,
  // `QueryKey` equality) runs no user code and touches no other member, so no two accesses can
  // overlap and the dynamic exclusivity check (about 80 instructions each, five per new query)
  // is left out. Writing a query's own members happens outside these accesses.
  /// Keyed by exact code units: canonically equivalent hashes are different queries.
  @exclusivity(unchecked) private var byHash: [Prehashed<CodeUnitString>: Query] = [:]
  /// The queries whose hash is their key's `hashKey`, by key: a keyed read finds its query
  /// without writing the hash. Equal keys (code units, `-0 == 0`) always have equal hashes, but
  /// not the other way round (`[null]` and `[undefined]`), so a miss here asks `byHash`.
  @exclusivity(unchecked) private var byKey: [Prehashed<QueryKey>: Query] = [:]
  /// Queries in insertion order, with `nil` where one was removed (compacted when half empty),
  /// so removal is O(1) like a JavaScript `Map`'s.
  @exclusivity(unchecked) private var ordered: [Query?] = []
  /// How many entries of `ordered` are not `nil` (each query keeps its index, `cachePosition`).
  @exclusivity(unchecked) private var liveCount = 0
  /// `@exclusivity(unchecked)`: adding and removing run no code of ours, and `notify` only
  /// records the calls (a cache listener is never called inline), so no access can start
  /// inside another; the dynamic check cost about 76 instructions on every `notify`, which
  /// every state change and observer result makes.
  @exclusivity(unchecked) private var listeners = ListenerRegistry<QueryCacheEvent>()
  /// Bumped whenever a query is added or removed (under the engine lock), so a caller can tell
  /// that a query it looked up is still the one in the cache.
  @exclusivity(unchecked) private(set) var revision = 0

  /// This cache and its client, weakly, for the queries it builds (`Query.cache`, `Query.client`).
  let link = QueryCacheLink()

  init(engine: Engine, config: Config) {
    self.engine = engine
    self.config = config
    link.cache = self
  }

  /// The cache (its client) is gone: its queries' gc timers are cancelled. Each timer holds its
  /// query, which holds the scheduler, so a pending one kept the scheduler and the queries alive
  /// until it fired (never, for a dropped `VirtualScheduler`). Firing, it would only have found
  /// no cache (`optionalRemove`), so nothing observable changes.
  deinit {
    engine.lock.sync {
      var gcTimers: [TimerID] = []
      for case let query? in ordered {
        if let id = query.gcTimeout {
          gcTimers.append(id)
          query.gcTimeout = nil
        }
      }
      engine.scheduler.clearTimeouts(gcTimers)
    }
  }

  /// Returns the query for `options`' key, creating it if needed (TanStack's `build`).
  ///
  /// `keySlot`, when given, is `options.queryKey` already hashed for the key table (a caller
  /// that just looked the key up passes it on, so the key is hashed once). `options` is taken:
  /// a caller's temporary reaches the new query without a copy.
  func build(_ client: QueryClient, _ options: consuming QueryOptions, state: QueryState? = nil, keySlot: Prehashed<QueryKey>? = nil) -> Query {
    let queryKey = options.queryKey ?? []
    let queryHash: String
    let keyHashed: Bool
    if let given = options.queryHash {
      queryHash = given
      keyHashed = options.keyHashed
    } else {
      keyHashed = options.queryKeyHashFn == nil
      queryHash = hashQueryKeyByOptions(queryKey, copy options)
    }
    let hashSlot = Prehashed(CodeUnitString(queryHash))
    if let query = byHash[hashSlot] { return query }
    let query = Query(
      cache: self, queryKey: queryKey, queryHash: queryHash,
      options: client.defaultQueryOptions(options, identity: true),
      defaultOptions: client.queryDefaultsIfAny(queryKey), state: state)
    query.keyHashed = keyHashed
    // Building a query reads nothing of the cache, so the slot is still free.
    insert(query, hashSlot: hashSlot, keySlot: keySlot)
    return query
  }

  /// ``build(_:_:state:keySlot:)`` for a key hashed by `hashKey` (`queryHash`) whose defaulted
  /// options, without key and hash, are `shared`: a new query shares the box.
  ///
  /// `hashSlot`, when given, is `queryHash` already hashed for the hash table; `absent` says
  /// that a lookup of it missed with no query added or removed since (so it is not looked up
  /// again).
  func build(_ client: QueryClient, queryKey: QueryKey, queryHash: String, sharing shared: QueryOptionsBox, keySlot: Prehashed<QueryKey>?, hashSlot known: Prehashed<CodeUnitString>? = nil, absent: Bool = false) -> Query {
    let hashSlot = known ?? Prehashed(CodeUnitString(queryHash))
    if !absent, let query = byHash[hashSlot] { return query }
    let query = Query(cache: self, queryKey: queryKey, queryHash: queryHash, sharing: shared, state: nil)
    query.keyHashed = true
    insert(query, hashSlot: hashSlot, keySlot: keySlot)
    return query
  }

  func add(_ query: Query) {
    let slot = Prehashed(CodeUnitString(query.queryHash))
    if byHash[slot] == nil { insert(query, hashSlot: slot, keySlot: nil) }
  }

  /// Adds `query` under a free `hashSlot` (its hash) and, if it is found by key, `keySlot` (its
  /// key, hashed now when not given).
  private func insert(_ query: Query, hashSlot: Prehashed<CodeUnitString>, keySlot: Prehashed<QueryKey>?) {
    byHash[hashSlot] = query
    if query.keyHashed { byKey[keySlot ?? Prehashed(query.queryKey)] = query }
    revision &+= 1
    query.cachePosition = ordered.count
    liveCount += 1
    ordered.append(query)
    notify(.added(query))
  }

  /// Removes `query`, cancelling its fetch. A query of another client's cache is left alone.
  public func remove(_ query: Query) {
    guard query.engine === engine else { return }
    engine.lock.sync {
      let slot = Prehashed(CodeUnitString(query.queryHash))
      guard let inMap = byHash[slot] else { return }
      query.destroy()
      if inMap === query {
        byHash[slot] = nil
        if query.keyHashed, byKey[Prehashed(query.queryKey)] === query { byKey[Prehashed(query.queryKey)] = nil }
        revision &+= 1
        if let i = query.cachePosition {
          query.cachePosition = nil
          ordered[i] = nil
          liveCount -= 1
          compactIfSparse()
        }
      }
      notify(.removed(query))
    }
  }

  private func compactIfSparse() {
    guard ordered.count > 32, liveCount * 2 < ordered.count else { return }
    ordered = ordered.filter { $0 != nil }
    for (i, query) in ordered.enumerated() { query!.cachePosition = i }
  }

  /// Removes every query.
  public func clear() {
    engine.lock.sync {
      // TanStack removes them one by one (destroy, delete, notify); destroying a query reads
      // nothing of the cache, so the tables are emptied at once instead of entry by entry.
      let all = ordered
      // The gc timers are cancelled together, still inside this transaction (nothing can fire
      // before it ends, and a timer cleared before its callback starts never runs).
      var gcTimers: [TimerID] = []
      gcTimers.reserveCapacity(liveCount)
      for case let query? in all {
        if let id = query.gcTimeout {
          gcTimers.append(id)
          query.gcTimeout = nil
        }
        query.destroy()
        notify(.removed(query))
      }
      engine.scheduler.clearTimeouts(gcTimers)
      byHash.removeAll()
      byKey.removeAll()
      ordered.removeAll()
      for case let query? in all { query.cachePosition = nil }
      liveCount = 0
      revision &+= 1
    }
  }

  /// The query with this hash.
  public func get(_ queryHash: String) -> Query? { engine.lock.sync { lookup(queryHash) } }

  /// The query with this hash; the caller holds the engine lock.
  func lookup(_ queryHash: String) -> Query? { byHash[Prehashed(CodeUnitString(queryHash))] }

  /// ``lookup(_:)`` with the hash already hashed for the table.
  func lookup(hashSlot: Prehashed<CodeUnitString>) -> Query? { byHash[hashSlot] }

  /// The query whose hash is `queryKey`'s `hashKey`, if it was hashed that way and is cached;
  /// `nil` says nothing (ask ``lookup(_:)``). The caller holds the engine lock.
  func lookup(key queryKey: QueryKey) -> Query? { byKey[Prehashed(queryKey)] }

  /// ``lookup(key:)`` with the key already hashed for the table.
  func lookup(keySlot: Prehashed<QueryKey>) -> Query? { byKey[keySlot] }

  /// Every query, in insertion order.
  public func getAll() -> [Query] { engine.lock.sync { ordered.compactMap { $0 } } }

  /// The first query matching `filters`, matching keys exactly unless `exact` is `false`.
  public func find(_ filters: QueryFilters) -> Query? {
    var defaulted = filters
    if defaulted.exact == nil { defaulted.exact = true }
    return getAll().first { defaulted.matches($0) }
  }

  /// Every query matching `filters`.
  public func findAll(_ filters: QueryFilters = QueryFilters()) -> [Query] {
    if filters.isEmpty { return getAll() }
    // Inside the engine's transaction (`invalidateQueries`, `refetchQueries`, …: the matching
    // already runs under the lock there) and without a predicate: one pass, without first
    // copying every query into an array (a retain and a release per query). Outside it, or with
    // a caller's predicate, the matching runs on the copy as before.
    if filters.predicate == nil, engine.lock.isHeldByCurrentThread {
      var matched: [Query] = []
      for case let query? in ordered where filters.matches(query) { matched.append(query) }
      return matched
    }
    return getAll().filter { filters.matches($0) }
  }

  /// Calls `listener` for every event until the returned function is called.
  public func subscribe(_ listener: @escaping @Sendable (QueryCacheEvent) -> Void) -> @Sendable () -> Void {
    engine.lock.sync {
      let id = listeners.add(listener)
      link.hasListeners = true
      return { [weak self] in
        guard let self else { return }
        // Freed after unlocking (the listener's captures may run user code in `deinit`).
        self.engine.lock.syncReleasing {
          let removed = self.listeners.take(id)
          self.link.hasListeners = !self.listeners.isEmpty
          return removed
        }
      }
    }
  }

  /// Sends `event` to every listener, synchronously.
  func notify(_ event: @autoclosure () -> QueryCacheEvent) {
    // The engine calls this inside its transaction: without listeners there is nothing to
    // record, and the event is not even built.
    if engine.lock.isHeldByCurrentThread {
      if !listeners.isEmpty { listeners.notify(event(), via: engine.lock) }
      return
    }
    engine.lock.sync {
      if !listeners.isEmpty { listeners.notify(event(), via: engine.lock) }
    }
  }

  func onFocus() {
    engine.lock.sync { for query in getAll() { query.onFocus() } }
  }

  func onOnline() {
    engine.lock.sync { for query in getAll() { query.onOnline() } }
  }
}
