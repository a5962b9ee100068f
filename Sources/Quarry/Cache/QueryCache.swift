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
  /// Keyed by exact code units: canonically equivalent hashes are different queries. Holds every
  /// query but those whose hash is pending (see `pendingHashes`): read it through
  /// ``indexed(_:)``, which writes those in first when a lookup misses.
  @exclusivity(unchecked) private var byHash: [Prehashed<CodeUnitString>: Query] = [:]
  /// The queries whose hash is their key's `hashKey`, by key: a keyed read finds its query
  /// without writing the hash. Equal keys (code units, `-0 == 0`) always have equal hashes, but
  /// not the other way round (`[null]` and `[undefined]`), so a miss here asks `byHash`.
  @exclusivity(unchecked) private var byKey = KeyTable()
  /// Queries in insertion order, with `nil` where one was removed (compacted when half empty),
  /// so removal is O(1) like a JavaScript `Map`'s.
  @exclusivity(unchecked) private var ordered: [Query?] = []
  /// How many entries of `ordered` are not `nil` (each query keeps its index, `cachePosition`).
  @exclusivity(unchecked) private var liveCount = 0
  /// How many cached queries are in `byKey` but not yet in `byHash` (`Query.hashPending`): a
  /// keyed write of a new key that no other key's hash can equal (``buildUnhashed(queryKey:sharing:keySlot:)``)
  /// adds its query without writing the hash. They are written into `byHash` together the
  /// first time a lookup by hash misses while any is pending, so a lookup by hash answers as if
  /// every hash had been written at once.
  @exclusivity(unchecked) private var pendingHashes = 0
  /// While `pendingHashes > 0`: no query before this index of `ordered` is pending.
  @exclusivity(unchecked) private var pendingFrom = 0
  /// How many cached queries have `Query.hashAmbiguous` (a hash another key could have): while
  /// there is none, a faithfully hashed key that misses in `byKey` has no query under its hash
  /// either (``canSkipHash(of:)``).
  @exclusivity(unchecked) private var ambiguousCount = 0
  /// `@exclusivity(unchecked)`: adding and removing run no code of ours, and `notify` only
  /// records the calls (a cache listener is never called inline), so no access can start
  /// inside another; the dynamic check cost about 76 instructions on every `notify`, which
  /// every state change and observer result makes.
  @exclusivity(unchecked) private var listeners = ListenerRegistry<QueryCacheEvent>()
  /// Bumped whenever a query is added or removed (under the engine lock), so a caller can tell
  /// that a query it looked up is still the one in the cache.
  @exclusivity(unchecked) private(set) var revision = 0
  /// The sum of the words `clear` read ahead of its releases (``releaseInOrder(_:)``), kept so
  /// that the reads are made; nothing else reads it.
  @exclusivity(unchecked) private var releaseTouchSum: UInt = 0

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
    if let query = indexed(hashSlot) { return query }
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
    if !absent, let query = indexed(hashSlot) { return query }
    let query = Query(cache: self, queryKey: queryKey, queryHash: queryHash, sharing: shared, state: nil)
    query.keyHashed = true
    insert(query, hashSlot: hashSlot, keySlot: keySlot)
    return query
  }

  /// Whether a query for `queryKey`, hashed by `hashKey`, that `byKey` does not hold is certainly
  /// not cached under its hash either: the key is hashed faithfully
  /// (``QueryKey/isHashedFaithfully``) and no cached query's hash is ambiguous, so any query
  /// with that hash would have an equal key. Then the key's hash need not be written to find
  /// out. The caller holds the engine lock.
  func canSkipHash(of queryKey: QueryKey) -> Bool {
    ambiguousCount == 0 && queryKey.isHashedFaithfully
  }

  /// ``build(_:queryKey:queryHash:sharing:keySlot:hashSlot:absent:)`` for a key that missed in
  /// `keySlot` with ``canSkipHash(of:)`` true and no query added or removed since: the new query's
  /// hash is not written, and it goes into the hash table only when a lookup by hash needs it.
  func buildUnhashed(queryKey: QueryKey, sharing shared: QueryOptionsBox, keySlot: Prehashed<QueryKey>) -> Query {
    let query = Query(cache: self, queryKey: queryKey, queryHash: nil, sharing: shared, state: nil)
    query.keyHashed = true
    query.hashPending = true
    byKey.set(query, for: keySlot)
    if pendingHashes == 0 { pendingFrom = ordered.count }
    pendingHashes += 1
    append(query)
    return query
  }

  func add(_ query: Query) {
    let slot = Prehashed(CodeUnitString(query.queryHash))
    if indexed(slot) == nil { insert(query, hashSlot: slot, keySlot: nil) }
  }

  /// Adds `query` under a free `hashSlot` (its hash) and, if it is found by key, `keySlot` (its
  /// key, hashed now when not given).
  private func insert(_ query: Query, hashSlot: Prehashed<CodeUnitString>, keySlot: Prehashed<QueryKey>?) {
    byHash[hashSlot] = query
    if query.keyHashed { byKey.set(query, for: keySlot ?? Prehashed(query.queryKey)) }
    if !query.keyHashed || !query.queryKey.isHashedFaithfully {
      query.hashAmbiguous = true
      ambiguousCount += 1
    }
    append(query)
  }

  /// Appends `query`, already in the tables, to the insertion order and tells the listeners.
  @inline(__always)
  private func append(_ query: Query) {
    revision &+= 1
    query.cachePosition = ordered.count
    liveCount += 1
    ordered.append(query)
    notify(.added(query))
  }

  /// The query under `slot` in the hash table; on a miss while hashes are pending, the pending
  /// ones are written in first (a hit needs none: hashes in the cache are distinct).
  @inline(__always)
  private func indexed(_ slot: Prehashed<CodeUnitString>) -> Query? {
    if let query = byHash[slot] { return query }
    guard pendingHashes != 0 else { return nil }
    indexPendingHashes()
    return byHash[slot]
  }

  /// Writes every pending hash and puts its query into the hash table.
  private func indexPendingHashes() {
    var i = pendingFrom
    while pendingHashes != 0 && i < ordered.count {
      if let query = ordered[i], query.hashPending {
        query.hashPending = false
        pendingHashes -= 1
        // Unique: the query's key missed in `byKey` with no ambiguous hash cached, and every
        // query added since was looked up by hash (here) or by an unequal faithful key.
        byHash[Prehashed(CodeUnitString(query.queryHash))] = query
      }
      i += 1
    }
    assert(pendingHashes == 0, "a pending hash was not in the insertion order")
    pendingHashes = 0
  }

  /// Removes `query`, cancelling its fetch. A query of another client's cache is left alone.
  public func remove(_ query: Query) {
    guard query.engine === engine else { return }
    engine.lock.sync {
      if query.hashPending {
        // Cached under its key alone (a pending query is in the cache until removed here).
        query.destroy()
        query.hashPending = false
        pendingHashes -= 1
        byKey.remove(query)
        removeFromOrder(query)
        notify(.removed(query))
        return
      }
      let slot = Prehashed(CodeUnitString(query.queryHash))
      guard let inMap = indexed(slot) else { return }
      query.destroy()
      if inMap === query {
        byHash[slot] = nil
        if query.keyHashed { byKey.remove(query) }
        if query.hashAmbiguous {
          query.hashAmbiguous = false
          ambiguousCount -= 1
        }
        removeFromOrder(query)
      }
      notify(.removed(query))
    }
  }

  /// Takes a removed query out of the insertion order.
  private func removeFromOrder(_ query: Query) {
        revision &+= 1
        if let i = query.cachePosition {
          query.cachePosition = nil
          ordered[i] = nil
          liveCount -= 1
          compactIfSparse()
        }
  }

  private func compactIfSparse() {
    guard ordered.count > 32, liveCount * 2 < ordered.count else { return }
    ordered = ordered.filter { $0 != nil }
    var firstPending: Int?
    for (i, query) in ordered.enumerated() {
      query!.cachePosition = i
      if firstPending == nil, query!.hashPending { firstPending = i }
    }
    pendingFrom = firstPending ?? 0
  }

  /// Removes every query.
  public func clear() {
    engine.lock.sync {
      // TanStack removes them one by one (destroy, delete, notify); destroying a query reads
      // nothing of the cache, so the tables are emptied at once instead of entry by entry.
      // Each query is visited once, in insertion order (its cold lines are read once; every
      // write is made only when it changes something).
      var all = ordered
      // The gc timers are cancelled together, still inside this transaction (nothing can fire
      // before it ends, and a timer cleared before its callback starts never runs).
      // Written in place into their reserved array (at most one id per live query), without
      // `append`'s growth call. At least one slot: with none the array would be the process's
      // shared empty array, whose count the initializer writes (0 over 0, but a write another
      // thread's read of any empty array races with: the thread sanitizer reported it).
      var touched: UInt = 0
      let gcTimers = [TimerID](unsafeUninitializedCapacity: max(liveCount, 1)) { ids, idCount in
        all.withUnsafeBufferPointer { slots in
          for i in slots.indices {
            // The lines this loop reads of the query `loopAhead` places on, read now (plain
            // loads the processor overlaps with this query's work; `QueryCache+Release.swift`).
            if i + QueryCache.loopAhead < slots.count, let next = slots[i + QueryCache.loopAhead] {
              // Safe: `all` holds the query for the whole loop; unretained, no atomic operation.
              touched &+= Unmanaged.passUnretained(next)._withUnsafeGuaranteedRef(Query.touchLoopLines)
            }
            // The slot's reference read as an address: a `Query` read from it would be retained
            // around the calls below (the compiler cannot know they leave the slot alone).
            // Safe: `all` holds the query for the whole loop, and the loop's calls (`destroy`,
            // `notify`) do not change `all`; an `Optional<Query>` is its object's address or 0.
            guard let address = UnsafeRawPointer(slots.baseAddress! + i).load(as: UnsafeRawPointer?.self) else { continue }
            Unmanaged<Query>.fromOpaque(address)._withUnsafeGuaranteedRef { query in
              if let id = query.gcTimeout {
                precondition(idCount < ids.count, "more cached queries than liveCount")
                (ids.baseAddress! + idCount).initialize(to: id)
                idCount += 1
                query.gcTimeout = nil
              }
              if query.hashPending { query.hashPending = false }
              if query.hashAmbiguous { query.hashAmbiguous = false }
              // `destroy()`: its gc timer is forgotten above, so only a running fetch is left to
              // cancel, out of line (8 instructions per query fewer than `destroy()` inline).
              if query.retryer != nil { QueryCache.destroy(query) }
              if !listeners.isEmpty { notifyRemoved(query) }
              query.cachePosition = nil
            }
          }
        }
      }
      engine.scheduler.clearTimeouts(gcTimers)
      byHash.removeAll()
      byKey.removeAll()
      // The insertion order drops the last references, so the queries are freed in the order
      // they were made (mostly the order of their memory): the tables' order (hash order) made
      // `free` merge scattered blocks and read every query's lines at random, twice as slow.
      ordered = []
      releaseTouchSum = touched &+ QueryCache.releaseInOrder(&all)
      liveCount = 0
      pendingHashes = 0
      ambiguousCount = 0
      revision &+= 1
    }
  }

  /// `clear`'s `removed` event: `notify` inside the transaction, without asking the lock whether
  /// it is held. Out of line: inline, the event's code cost `clear`'s loop 11 instructions per
  /// query when nobody listens.
  @inline(never)
  private func notifyRemoved(_ query: Query) { listeners.notify(.removed(query), via: engine.lock) }

  /// `clear`'s `destroy()` of a query with a running fetch, out of line (as `notifyRemoved`).
  @inline(never)
  private static func destroy(_ query: Query) { query.destroy() }

  /// The query with this hash.
  public func get(_ queryHash: String) -> Query? { engine.lock.sync { lookup(queryHash) } }

  /// The query with this hash; the caller holds the engine lock.
  func lookup(_ queryHash: String) -> Query? { indexed(Prehashed(CodeUnitString(queryHash))) }

  /// ``lookup(_:)`` with the hash already hashed for the table.
  func lookup(hashSlot: Prehashed<CodeUnitString>) -> Query? { indexed(hashSlot) }

  /// The query whose hash is `queryKey`'s `hashKey`, if it was hashed that way and is cached;
  /// `nil` says nothing (ask ``lookup(_:)``). The caller holds the engine lock.
  @inline(__always)
  func lookup(key queryKey: QueryKey) -> Query? { byKey.lookup(Prehashed(queryKey)) }

  /// ``lookup(key:)`` with the key already hashed for the table.
  @inline(__always)
  func lookup(keySlot: Prehashed<QueryKey>) -> Query? { byKey.lookup(keySlot) }

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
      if filters.exact != true, (filters.type ?? .all) == .all, filters.stale == nil {
        // Only the key (`partialMatchKey`) and the fetch status are compared: no function of
        // the caller's runs (an `enabled`, a `staleTime`, a key hash function), so nothing can
        // change `ordered` during the walk, and each query is asked unretained where it lies
        // (a `for case let` retained and released each one, about 40 instructions per query);
        // only the matched ones are retained, into `matched`. Safe (`Unmanaged`): `ordered`
        // holds every query for the walk, under the engine lock this thread holds.
        ordered.withUnsafeBufferPointer { slots in
          for slot in slots.indices {
            guard let unmanaged = slots[slot].map(Unmanaged.passUnretained) else { continue }
            if unmanaged._withUnsafeGuaranteedRef({ filters.matches($0) }) { matched.append(unmanaged.takeUnretainedValue()) }
          }
        }
        return matched
      }
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
