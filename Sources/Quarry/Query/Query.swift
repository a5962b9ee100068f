import Synchronization

/// One cached query: its key, options, state and observers (TanStack's `Query`).
///
/// Queries are created by the ``QueryCache``; read them through ``QueryClient`` and
/// ``QueryObserver``.
public final class Query: @unchecked Sendable {
  // Safe: every mutable member is guarded by the owning client's engine lock.
  /// The key.
  public let queryKey: QueryKey
  /// Whether the query's key equals `key` (``KeyTable``'s comparison: the key is compared where
  /// it is, not copied out of the query).
  @inline(__always)
  func hasKey(_ key: borrowing QueryKey) -> Bool { queryKey == key }
  /// The key's hash.
  ///
  /// A query that a keyed write created for a new key (``QueryClient/setQueryData(_:value:updatedAt:)``)
  /// writes it from its key on first read: its hash is its key's `hashKey`, and the cache finds
  /// it by key until a lookup by hash needs it (`QueryCache`'s pending hashes).
  public var queryHash: String {
    if let givenHash { return givenHash }
    return writtenHash.get { QueryHashBox(key: queryKey) }.hash
  }
  /// The hash the query was created with; `nil` for a query whose hash is written on first read.
  private let givenHash: String?
  /// The box of the hash written on first read (`givenHash` is `nil`), made on first request;
  /// its string is written on the first read of it. An atomic word rather than
  /// `AtomicLazyReference`, whose `load` and `storeIfNil` ran unspecialized in the
  /// Synchronization library and looked up generic metadata (about 330 instructions each);
  /// `queryHash` is public and read without the lock.
  private let writtenHash = OnceWritten<QueryHashBox>()

  /// The box that writes this query's hash from its key on first read, for options that take
  /// the query's hash without reading it (`QueryClient.defaultQueryOptions`); `nil` when the
  /// query was given its hash (`queryHash` is that string).
  func keyHashBox() -> QueryHashBox? {
    if givenHash != nil { return nil }
    return writtenHash.get { QueryHashBox(key: queryKey) }
  }

  /// Whether `queryHash` is `queryKey`'s own `hashKey` (the cache then also finds it by key).
  var keyHashed = false
  /// Whether the query is cached under its key only, its hash not yet written into the cache's
  /// hash table (`QueryCache`'s pending hashes). Guarded by the engine lock.
  var hashPending = false
  /// Whether another key could have this query's hash: the hash is not the key's `hashKey`, or
  /// the key is not hashed faithfully (``QueryKey/isHashedFaithfully``). Set by the cache as it
  /// adds the query (it counts such queries). Guarded by the engine lock.
  var hashAmbiguous = false
  /// Whether the options' `queryKey` and `queryHash` are this query's own `queryKey` and
  /// `queryHash` (a shared box leaves them out) rather than the box's.
  private var optionsKeyIsOwn = false
  /// Creations of the gc timer recorded by ``scheduleGc()`` that have not run; only the last one
  /// may create the timer. Guarded by the engine lock. (Beside the flags above: in their padding.)
  var gcCreationsRecorded: UInt32 = 0
  /// The query's index in its cache's insertion order while it is cached.
  var cachePosition: Int? {
    @inline(__always) get { cacheIndex < 0 ? nil : cacheIndex }
    @inline(__always) set { cacheIndex = newValue ?? -1 }
  }
  /// ``cachePosition``, -1 for none: an `Int?` took 16 bytes of the query (its flag a word of
  /// padding), an `Int` takes 8.
  private var cacheIndex = -1
  let engine: Engine
  /// The weak references to the cache that built the query and its client, shared by every
  /// query of that cache (two weak references per query cost forming and destroying them).
  let link: QueryCacheLink
  /// The cache that built the query. Weak: a fetch may settle after its client (and so its
  /// cache) is gone, and then has nobody to tell.
  var cache: QueryCache? { link.cache }
  /// The client that built the query (passed to query functions); weak, as the client owns the cache.
  var client: QueryClient? { link.client }
  /// The options on the heap, copy on write: queries built from the same defaulted options
  /// (a keyed write of a new key with the client's defaults) share one box, so a query costs one
  /// reference instead of a 392-byte copy to build and to free. Changing the options puts a new
  /// box in place; a box is never mutated. A query whose key has no `setQueryDefaults` takes the
  /// box of the observer (or fetch) that sets its options as it is (`setOptions(sharing:)`):
  /// that box's `identity` is then the observer's, which ``optionsStorage`` leaves out.
  private var optionsBox: QueryOptionsBox
  /// The options of the last fetch or observer (``options`` under the lock).
  var optionsStorage: QueryOptions {
    get {
      var options = optionsBox.options
      // A query's options have no identity of their own (TanStack's `{...defaults, ...options}`
      // is a new object); a box shared with an observer carries the observer's.
      options.identity = nil
      if optionsKeyIsOwn {
        options.queryKey = queryKey
        options.queryHash = queryHash
      }
      return options
    }
  }
  /// The options for reading a member other than `queryKey`, `queryHash` and `identity` (no copy).
  var sharedOptions: QueryOptions { optionsBox.options }
  /// The box itself (tests check what it is shared with).
  var sharedOptionsBox: QueryOptionsBox { optionsBox }
  /// The state. `@exclusivity(unchecked)`: every access reads or writes it whole or one member
  /// at a time, except `dispatch`'s `Query.reduce(&stateStorage, …)`, a static function that
  /// touches nothing but its argument, so no two accesses can overlap; the dynamic check cost
  /// about 80 instructions per read on the observers' paths (`isStaleByTime`, `createResult`).
  @exclusivity(unchecked) var stateStorage: QueryState
  // The two flags below sit in the state's last word, which it leaves partly unused (the
  // members are declared in the order of the query's memory: every member after the state was
  // placed to leave as little padding as it can: 305 bytes, a 320-byte chunk of the allocator;
  // 352 and 368 before, `QueryLayoutTests`).
  var abortSignalConsumed = false
  /// Set once the query is infinite (TanStack's sticky `queryType`, which is `"infinite"` or
  /// absent): a flag, not a 16-byte `String?`.
  private(set) var isInfiniteQuery = false
  /// TanStack's `queryType`: `"infinite"` once the query is infinite, else `nil`.
  var queryType: String? { isInfiniteQuery ? "infinite" : nil }
  /// Counts the changes of ``stateStorage`` after the query was made: `dispatch` (the only place
  /// the state changes afterwards) adds one. An observer compares it to decide that the state
  /// its current result was made from is still the query's (`QueryObserver.updateResult`).
  // Safe: `@exclusivity(unchecked)`: read and written whole, under the engine lock, by code that
  // calls nothing while accessing it.
  @exclusivity(unchecked) var stateVersion = 0
  /// The state `reset` returns to (TanStack's `#initialState`).
  var initialState: QueryState {
    get { initialStateBox?.state ?? QueryState() }
    set { initialStateBox = newValue.isBlank ? nil : QueryStateBox(newValue) }
  }
  /// `nil` stands for a blank `QueryState()`, the initial state of every query without initial
  /// data: those hold no second state (about 100 bytes) to copy and destroy.
  private var initialStateBox: QueryStateBox?
  /// The state a cancelled fetch reverts to (TanStack's `#revertState`): kept when a fetch
  /// starts (``fetchRevert``), and by a manual write while a fetch runs
  /// (``dispatch(_:data:state:)``).
  var revertState: QueryState? {
    get {
      if let fetchRevert { return stateStorage.reverted(to: fetchRevert) }
      return revertStateBox?.state
    }
    set {
      if fetchRevert != nil { fetchRevert = nil }
      revertStateBox = newValue.map(QueryStateBox.init)
    }
  }
  /// ``revertState`` when it is not ``fetchRevert``'s: on the heap, as it is rarely kept (a
  /// manual write while a fetch runs, a `setState` or failure during one), so the query holds a
  /// reference where it held a whole `QueryState?` (about 100 bytes), next to the members its
  /// updates read.
  var revertStateBox: QueryStateBox?
  /// What the running fetch reverts to while only its own actions (and `invalidate`) have changed
  /// the state since it started (``FetchRevert``); the state is copied out
  /// (``revertStateBox``) before any other action changes it.
  var fetchRevert: FetchRevert?
  var retryer: Retryer?
  /// The observers.
  // Safe (`@exclusivity(unchecked)`): touched only under the engine lock, by the thread holding
  // it; every access is a read, an append or a removal whose closures (if any) compare
  // identities or read observers' own members, so no access runs user code or touches this
  // array again while it is open; a search that asks the observers' options (which may be user
  // functions) searches a copy (`onFocus`, `onOnline`); `for in` iterates a copy. The dynamic
  // checks cost about 200 instructions per subscription and 40 per state change.
  @exclusivity(unchecked) var observersStorage: [QueryObserver] = []
  /// The key's `setQueryDefaults` options; `nil` when the client has none for any key.
  var defaultOptions: QueryOptions? { defaultOptionsBox?.options }
  /// Boxed: most queries have none, and an inline `QueryOptions?` costs ~400 bytes per query.
  private let defaultOptionsBox: QueryOptionsBox?
  var gcTime: Double = 0
  /// The gc timer (TanStack's `#gcTimeout`): none, created (its engine id), or its creation
  /// recorded with its delay (``scheduleGc()``).
  var gcTimer = GcTimer.none
  /// The gc timer's engine id for a caller that cancels it (the cache's `clear`): a recorded
  /// creation reads as ``TransactionalScheduler/pendingCreation``, which clearing ignores;
  /// setting `nil` forgets the timer, a recorded creation included.
  var gcTimeout: TimerID? {
    get {
      switch gcTimer {
      case .none: return nil
      case .created(let id): return id
      case .recorded: return TransactionalScheduler.pendingCreation
      }
    }
    set { gcTimer = newValue.map(GcTimer.created) ?? .none }
  }

  init(cache: borrowing QueryCache, queryKey: QueryKey, queryHash: String, options: consuming QueryOptions, defaultOptions: QueryOptions?, state: QueryState?) {
    self.engine = cache.engine
    self.link = cache.link
    self.queryKey = queryKey
    self.givenHash = queryHash
    self.defaultOptionsBox = defaultOptions.map(QueryOptionsBox.init)
    // TanStack sets options before the query has a state, so no initial-data write happens here
    // (`applyOptions`, with the options built once in place).
    let isInfinite = options.isInfinite
    self.optionsBox = QueryOptionsBox(Query.merge(options, defaults: defaultOptions))
    if isInfinite { isInfiniteQuery = true }
    // TanStack's `getDefaultState(this.options)`: the options merged with the key's defaults.
    let initial = Query.defaultState(optionsBox.options, now: engine.now)
    self.initialStateBox = initial.isBlank ? nil : QueryStateBox(initial)
    if let state { self.stateStorage = state } else { self.stateStorage = initial }
    updateGcTime(optionsBox.options.gcTime)
    scheduleGc()
  }

  /// A query whose options are `shared` with its `queryKey` and `queryHash` (a box of defaulted
  /// options without key and hash, already merged: the key has no `setQueryDefaults`). A `nil`
  /// `queryHash` is the key's `hashKey`, written on first read.
  init(cache: borrowing QueryCache, queryKey: QueryKey, queryHash: String?, sharing shared: QueryOptionsBox, state: QueryState?) {
    self.engine = cache.engine
    self.link = cache.link
    self.queryKey = queryKey
    self.givenHash = queryHash
    self.defaultOptionsBox = nil
    self.optionsBox = shared
    self.optionsKeyIsOwn = true
    if shared.options.isInfinite { isInfiniteQuery = true }
    if !shared.options.hasInitialData {
      // `defaultState` without initial data is `QueryState()`: built in place, without copying
      // the options into its argument or reading the clock.
      self.initialStateBox = nil
      if let state { self.stateStorage = state } else { self.stateStorage = QueryState() }
    } else {
      let initial = Query.defaultState(shared.options, now: engine.now)
      self.initialStateBox = initial.isBlank ? nil : QueryStateBox(initial)
      // Not `state ?? initial`: its autoclosure copies the state.
      if let state { self.stateStorage = state } else { self.stateStorage = initial }
    }
    updateGcTime(shared.options.gcTime)
    scheduleGc()
  }

  /// The current state.
  public var state: QueryState { engine.lock.sync { stateStorage } }
  /// The options of the last fetch or observer.
  public var options: QueryOptions { engine.lock.sync { optionsStorage } }
  /// The query's `meta`.
  public var meta: JSONValue? { options.meta }
  /// How many observers watch the query.
  public var observerCount: Int { engine.lock.sync { observersStorage.count } }
  /// The observers, in subscription order.
  public var observers: [QueryObserver] { engine.lock.sync { observersStorage } }

  /// `options` over the key's defaults (TanStack's `{...this.#defaultOptions, ...options}`).
  private static func merge(_ options: consuming QueryOptions, defaults: QueryOptions?) -> QueryOptions {
    if let defaults { return options.merged(over: defaults) }
    // No key defaults: what merging over empty options changes.
    var merged = options
    merged.identity = nil
    return merged
  }

  /// TanStack's `setOptions`.
  func setOptions(_ options: QueryOptions) { setOptions(sharing: QueryOptionsBox(options)) }

  /// ``setOptions(_:)`` with options already on the heap (an observer's defaulted options, never
  /// mutated): without key defaults the query keeps `box` itself, since merging over nothing
  /// changes only the identity, which ``optionsStorage`` leaves out; with key defaults it gets
  /// a merged box of its own.
  func setOptions(sharing box: QueryOptionsBox) {
    if let defaults = defaultOptions {
      optionsBox = QueryOptionsBox(box.options.merged(over: defaults))
    } else {
      optionsBox = box
    }
    optionsKeyIsOwn = false
    let merged = optionsBox
    if box.options.isInfinite { isInfiniteQuery = true }
    updateGcTime(merged.options.gcTime)
    // Only initial data can give the default state data (and only then is it worth building).
    if stateStorage.dataBox == nil, case .some = merged.options.initialData {
      let defaultState = Query.defaultState(merged.options, now: engine.now)
      if let box = defaultState.dataBox {
        var next = stateStorage
        next.dataBox = box
        next.dataUpdatedAt = defaultState.dataUpdatedAt
        next.error = nil
        next.isInvalidated = false
        next.status = .success
        setState(next)
        initialState = defaultState
      }
    }
  }

  static func defaultState(_ options: QueryOptions, now: Double) -> QueryState {
    guard let initialData = options.initialData else { return QueryState() }
    var state = QueryState()
    if let data = initialData.resolve() {
      state.dataBox = boxed(data)
      state.dataUpdatedAt = options.initialDataUpdatedAt ?? now
      state.status = .success
    }
    return state
  }

  // MARK: Garbage collection (TanStack's `Removable`)

  func updateGcTime(_ newGcTime: Double?) {
    gcTime = max(gcTime, newGcTime ?? (engine.isServer ? .infinity : 5 * 60 * 1000))
  }

  /// Sets the gc timer (TanStack's `scheduleGc`). Where the engine scheduler would record the
  /// timer's creation (a transaction that has recorded effects already: a settled fetch's, after
  /// its listener calls), the query records it itself: the recorded effect is a closure over the
  /// query alone and the delay waits in ``gcTimer``, where a `RecordedTimer` object (one
  /// allocation, a weak reference to the scheduler, a table entry) was made per timer. The timer
  /// is created at the same place in the effects, and a timer cleared before then never is.
  func scheduleGc() {
    clearGcTimeout()
    if isValidTimeout(gcTime) {
      let scheduler = engine.scheduler
      switch scheduler.timerPlacement {
      case .recordedByOwner:
        gcTimer = .recorded(delay: gcTime)
        gcCreationsRecorded += 1
        engine.lock.record(.plumbing) { [self] in createRecordedGcTimer() }
      case .now:
        gcTimer = .created(scheduler.createTimeoutNow(gcTime, gcTimerBody))
      case .scheduler:
        gcTimer = .created(scheduler.setTimeout(gcTime, gcTimerBody))
      }
    }
  }

  /// The recorded creation of the gc timer (``scheduleGc()``), after the transaction that
  /// recorded it: creates the timer unless it was cleared since, or set again (a later
  /// recorded creation is then its place).
  private func createRecordedGcTimer() {
    engine.lock.sync {
      gcCreationsRecorded -= 1
      guard gcCreationsRecorded == 0, case .recorded(let delay) = gcTimer else { return }
      gcTimer = .created(engine.scheduler.createTimeoutNow(delay, gcTimerBody))
    }
  }

  /// What the gc timer runs. It holds the query, as TanStack's does: a query removed from the
  /// cache while an observer held it still runs its gc (and the cache still reports `removed`).
  private var gcTimerBody: @Sendable () -> Void {
    @inline(__always) get { { [self] in engine.lock.sync { optionalRemove() } } }
  }

  func clearGcTimeout() {
    switch gcTimer {
    case .none: return
    case .created(let id): engine.scheduler.clearTimeout(id)
    case .recorded: break  // its recorded creation finds it gone
    }
    gcTimer = .none
  }

  func optionalRemove() {
    if observersStorage.isEmpty && stateStorage.fetchStatus == .idle {
      cache?.remove(self)
    }
  }

  // MARK: State

  func setState(_ state: QueryState) { dispatch(.setState, state: state) }

  @discardableResult
  func setData(_ newData: any Sendable, updatedAt: Double? = nil, manual: Bool) -> DataBox {
    let box: DataBox
    let sharing = sharedOptions.structuralSharing
    // A primitive written over one of its type, into a box nobody else holds, is stored in that
    // box (`DataBox.replaceInPlace`): nothing can tell it from the new box `replaceData` makes.
    if isKnownUniquelyReferenced(&stateStorage.dataBox), let previous = stateStorage.dataBox,
      previous.replaceInPlace(with: newData, sharing: sharing)
    {
      box = previous
    } else {
      box = replaceData(stateStorage.dataBox, newData, sharing: sharing)
    }
    dispatch(.success(dataUpdatedAt: updatedAt, manual: manual), data: box)
    return box
  }

  /// Cancels the running fetch; the promise settles once it has stopped.
  func cancel(_ options: CancelOptions = CancelOptions()) -> Promise<Void> {
    let promise = retryer?.promise
    retryer?.cancel(options)
    return promise.map { $0.thenNoopCatchNoop() } ?? Promise.resolved((), scheduler: engine.scheduler)
  }

  func destroy() {
    clearGcTimeout()
    // Without a fetch, `cancel` only makes an already resolved promise nobody reads.
    if retryer != nil { _ = cancel(CancelOptions(silent: true)) }
  }

  func reset() {
    destroy()
    setState(initialState)
  }

  /// Whether an enabled observer watches the query.
  public func isActive() -> Bool { engine.lock.sync { isActiveLocked() } }

  /// ``isActive()`` for a caller that holds the engine lock.
  func isActiveLocked() -> Bool {
    anyObserver(inPlace: { $0.enabledWithoutCall }, calling: { $0.resolveEnabled(for: self) != false })
  }

  /// Whether any observer answers `true`: `inPlace` answers from its options without calling
  /// user code (`nil` for a function option); from the first `nil` on, the observers left are
  /// asked `calling`. Until then no code of the caller's runs, so the observers are read
  /// unretained: `observersStorage` holds each one (under the engine lock, which the caller
  /// holds) and each observer its options box (a `for in` retained and released each). From a
  /// function on, the observers left are walked as before (a copy, each retained around its
  /// call), so functions are called as often and in the same order.
  @inline(__always)
  private func anyObserver(inPlace: (QueryObserver) -> Bool?, calling: (QueryObserver) -> Bool) -> Bool {
    var index = 0
    while index < observersStorage.count {
      // Held by `observersStorage`, unchanged until a function is called.
      switch Unmanaged.passUnretained(observersStorage[index])._withUnsafeGuaranteedRef(inPlace) {
      case true?: return true
      case false?: index += 1
      case nil:
        for observer in observersStorage[index...] where calling(observer) { return true }
        return false
      }
    }
    return false
  }

  /// Whether the query is disabled (TanStack's `isDisabled`).
  public func isDisabled() -> Bool { engine.lock.sync { isDisabledLocked() } }

  /// ``isDisabled()`` for a caller that holds the engine lock.
  func isDisabledLocked() -> Bool {
    if !observersStorage.isEmpty { return !isActiveLocked() }
    return sharedOptions.queryFn?.isSkipToken == true || !isFetched()
  }

  func isFetched() -> Bool { stateStorage.dataUpdateCount + stateStorage.errorUpdateCount > 0 }

  /// Whether an observer holds `staleTime: 'static'`.
  public func isStatic() -> Bool { engine.lock.sync { isStaticLocked() } }

  /// ``isStatic()`` for a caller that holds the engine lock; reads each observer's `staleTime`
  /// from its options box (its `optionsStorage` copied all of its options).
  func isStaticLocked() -> Bool {
    anyObserver(inPlace: { $0.staleTimeIsStaticWithoutCall }, calling: { $0.resolvedStaleTimeIsStatic(for: self) })
  }

  /// Whether the query is stale (observers decide when there are any).
  public func isStale() -> Bool {
    engine.lock.sync {
      if !observersStorage.isEmpty { return observersStorage.contains { $0.currentResultStorage?.isStale == true } }
      return stateStorage.dataBox == nil || stateStorage.isInvalidated
    }
  }

  /// Whether the data is older than `staleTime`.
  public func isStaleByTime(_ staleTime: StaleTime? = nil) -> Bool {
    engine.lock.sync { isStaleByTimeLocked(staleTime) }
  }

  /// ``isStaleByTime(_:)`` for a caller that holds the engine lock (the observers' hot paths:
  /// taking the recursive lock again cost about 250 instructions per call). Inlined: called,
  /// it cost about 20 instructions per observer update.
  @inline(__always)
  func isStaleByTimeLocked(_ staleTime: StaleTime?) -> Bool {
    if stateStorage.dataBox == nil { return true }
    // Matched, not compared with `==` (comparing the `StaleTime?` cost about 25 instructions
    // on every observer update).
    switch staleTime {
    case .static?: return false
    case .milliseconds(let ms)? where ms == .infinity:
      // Data that never ages: `timeUntilStale` is +inf or NaN (never 0) whatever the clock
      // reads, so the clock is not read (about 100 instructions on the observers' updates).
      return stateStorage.isInvalidated
    default:
      if stateStorage.isInvalidated { return true }
      return timeUntilStale(stateStorage.dataUpdatedAt, staleTime, now: engine.now) == 0
    }
  }

  /// Whether ``isStaleByTimeLocked(_:)``'s answer cannot change as time passes: it is decided
  /// before the clock is read (no data, `static`, invalidated) or the data never ages (an
  /// infinite `staleTime`).
  func isStaleByTimeIndependentOfTime(_ staleTime: StaleTime?) -> Bool {
    stateStorage.dataBox == nil || staleTime == .static || stateStorage.isInvalidated
      || staleTime == .milliseconds(.infinity)
  }

  func onFocus() {
    // On a copy: `shouldFetchOn` calls option functions (user code).
    let observers = observersStorage
    let observer = observers.first { $0.shouldFetchOnWindowFocus() }
    _ = observer?.refetchPromise(RefetchOptions(cancelRefetch: false))
    retryer?.continueFetch()
  }

  func onOnline() {
    // On a copy: `shouldFetchOn` calls option functions (user code).
    let observers = observersStorage
    let observer = observers.first { $0.shouldFetchOnReconnect() }
    _ = observer?.refetchPromise(RefetchOptions(cancelRefetch: false))
    retryer?.continueFetch()
  }

  func addObserver(_ observer: QueryObserver) {
    if !observersStorage.contains(where: { $0 === observer }) {
      // Room for four at the first one: grown from empty, the array was reallocated at 1, 2
      // and 4 observers (about 570 instructions per subscription with ten per query).
      if observersStorage.capacity == 0 { observersStorage.reserveCapacity(4) }
      observersStorage.append(observer)
      clearGcTimeout()
      cache?.notify(.observerAdded(self, observer))
    }
  }

  func removeObserver(_ observer: QueryObserver) {
    guard let index = observersStorage.firstIndex(where: { $0 === observer }) else { return }
    observersStorage.remove(at: index)
    if observersStorage.isEmpty {
      if let retryer {
        if abortSignalConsumed || isInitialPausedFetch() {
          retryer.cancel(CancelOptions(revert: true))
        } else {
          retryer.cancelRetry()
        }
      }
      scheduleGc()
    }
    cache?.notify(.observerRemoved(self, observer))
  }

  private func isInitialPausedFetch() -> Bool {
    stateStorage.fetchStatus == .paused && stateStorage.status == .pending
  }

  func invalidate() {
    if !stateStorage.isInvalidated { dispatch(.invalidate) }
  }

  // MARK: Dispatch

  func dispatch(_ action: QueryAction, data: DataBox? = nil, state replacement: QueryState? = nil) {
    // The state changes in place (copying it out and back cost a copy and a destroy). What the
    // change needs from the engine is read first, so the access to `stateStorage` spans only
    // `Query.reduce`, which reads and writes nothing else: the optimizer can then still prove
    // that no two accesses to the state overlap and leave out their dynamic checks.
    var now = 0.0
    var networkModeAllows = false
    switch action {
    case .fetch: networkModeAllows = engine.canFetch(sharedOptions.networkMode)
    case .success(let updatedAt, _): now = updatedAt ?? engine.now
    case .error: now = engine.now
    default: break
    }
    if fetchRevert != nil { keepRevertState(before: action) }
    Query.reduce(&stateStorage, action, data: data, replacement: replacement, now: now, networkModeAllows: networkModeAllows)
    stateVersion &+= 1
    if case .success(_, let manual) = action {
      // TanStack keeps the state a manual write leaves to revert a running fetch to. Only a
      // running fetch's `onCancel` reads it, and every fetch stores the state it starts from
      // first, so without a retryer (no fetch running) the copy would never be read: none is
      // kept (a copy and a destroy less per write, and no second reference to the data).
      if manual && retryer != nil {
        revertStateBox = QueryStateBox(stateStorage)
      } else if revertStateBox != nil {
        revertStateBox = nil
      }
    }
    // Walked over a copy (an update may change the query's observers), which holds every
    // observer for the walk (`forEachUnretained`). A query without observers (a cache write's)
    // makes no copy: retaining and releasing even the empty array's storage cost about 50
    // instructions per dispatch.
    if !observersStorage.isEmpty {
      let observers = observersStorage
      observers.forEachUnretained { $0.onQueryUpdate(self) }
    }
    // Without listeners `notify` records nothing: the weak load of the cache is skipped.
    if link.hasListeners { cache?.notify(.updated(self, action)) }
  }

  /// Before `action` changes the state while a fetch keeps only its ``fetchRevert``: keeps it
  /// if `action` writes only the members it holds; a success drops it (its state replaces
  /// it, or none is kept); any other action copies the state to revert to out first.
  private func keepRevertState(before action: QueryAction) {
    switch action {
    case .failed, .pause, .continue, .fetch, .invalidate: return
    case .success: fetchRevert = nil
    case .error, .setState: revertState = revertState
    }
  }

  /// TanStack's query reducer: `state` after `action`. `now` is the time a success or failure
  /// records; `networkModeAllows` whether a fetch may run now.
  static func reduce(_ state: inout QueryState, _ action: QueryAction, data: DataBox?, replacement: QueryState?, now: Double, networkModeAllows: Bool) {
    switch action {
    case .failed(let count, let error):
      state.fetchFailureCount = count
      state.fetchFailureReasonBox = ErrorBox(error)
    case .pause:
      state.fetchStatus = .paused
    case .continue:
      state.fetchStatus = .fetching
    case .fetch(let meta):
      applyFetchState(&state, networkModeAllows: networkModeAllows)
      state.fetchMeta = meta
    case .success(_, let manual):
      state.dataBox = data
      state.dataUpdatedAt = now
      state.error = nil
      state.isInvalidated = false
      state.status = .success
      state.dataUpdateCount += 1
      if !manual {
        state.fetchStatus = .idle
        state.fetchFailureCount = 0
        state.fetchFailureReason = nil
      }
    case .error(let error):
      let box = ErrorBox(error)  // a new Error object, as every TanStack failure is
      state.errorBox = box
      state.errorUpdateCount += 1
      state.errorUpdatedAt = now
      state.fetchFailureCount += 1
      state.fetchFailureReasonBox = box
      state.fetchStatus = .idle
      state.status = .error
      state.isInvalidated = true
    case .invalidate:
      state.isInvalidated = true
    case .setState:
      if let replacement { state = replacement }
    }
  }

  /// TanStack's `fetchState`: the state a fetch starts from.
  static func applyFetchState(_ state: inout QueryState, networkModeAllows: Bool) {
    state.fetchFailureCount = 0
    state.fetchFailureReason = nil
    state.fetchStatus = networkModeAllows ? .fetching : .paused
    if state.dataBox == nil {
      state.error = nil
      state.status = .pending
    }
  }
}

/// TanStack's `resolveStaleTime`.
func resolveStaleTime(_ option: StaleTimeOption?, _ query: Query) -> StaleTime? {
  switch option {
  case nil: return nil
  case .value(let v)?: return v
  case .function(let f)?: return f.call(query)
  }
}

/// TanStack's `resolveQueryBoolean`.
func resolveQueryBoolean(_ option: QueryBoolOption?, _ query: Query) -> Bool? {
  switch option {
  case nil: return nil
  case .value(let v)?: return v
  case .function(let f)?: return f.call(query)
  }
}

/// A query's hash written from its key on first read (`Query.queryHash`), shared with the
/// options of the observers that found the query by its key (`QueryOptions.queryHash`): an
/// observer's options take the hash without writing it (about 1,500 instructions and two
/// allocations for a key of three members), and whoever reads it first writes it for all.
final class QueryHashBox: Sendable {
  /// The key whose `hashKey` this is.
  let key: QueryKey
  private let written = OnceWritten<QueryHashText>()
  init(key: QueryKey) { self.key = key }
  /// The hash, written on first read. The key is immutable, so two threads reading at once
  /// write equal strings; the first stored is kept.
  var hash: String { written.get { QueryHashText(key.queryHash) }.hash }
  /// Whether the hash has been written (tests check that taking it does not write it).
  var isWritten: Bool { written.isMade }
}

/// A written ``QueryHashBox`` hash, boxed for an atomic reference.
final class QueryHashText: Sendable {
  let hash: String
  init(_ hash: String) { self.hash = hash }
}

/// A reference made on first request by whichever thread asks first (the first one stored is
/// kept, a later one made meanwhile released) and released with its holder: a retained
/// object's address in an atomic word, 0 until made.
struct OnceWritten<Object: AnyObject & Sendable>: ~Copyable, Sendable {
  private let address = Atomic<UInt>(0)

  init() {}

  /// Whether the object has been made.
  var isMade: Bool { address.load(ordering: .acquiring) != 0 }

  /// The object, made by `make` if none is stored yet.
  @inline(__always)
  func get(_ make: () -> Object) -> Object {
    let stored = address.load(ordering: .acquiring)
    if stored != 0 { return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: stored)!).takeUnretainedValue() }
    return store(make())
  }

  private func store(_ object: Object) -> Object {
    let made = Unmanaged.passRetained(object)
    let (exchanged, original) = address.compareExchange(
      expected: 0, desired: UInt(bitPattern: made.toOpaque()), ordering: .acquiringAndReleasing)
    if exchanged { return made.takeUnretainedValue() }
    made.release()
    return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: original)!).takeUnretainedValue()
  }

  deinit {
    let stored = address.load(ordering: .relaxed)
    if stored != 0 { Unmanaged<Object>.fromOpaque(UnsafeRawPointer(bitPattern: stored)!).release() }
  }
}

/// A query's gc timer (``Query/gcTimer``).
enum GcTimer {
  case none
  /// Created: its engine id.
  case created(TimerID)
  /// Its creation recorded by the query (``Query/scheduleGc()``), with the delay it was set with.
  case recorded(delay: Double)
}
