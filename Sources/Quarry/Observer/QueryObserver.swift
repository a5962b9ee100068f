/// Watches one query for a consumer: fetches on subscribe, keeps timers, and reports results
/// only when they change (TanStack's `QueryObserver`).
///
/// ```swift
/// var options = QueryOptions(queryKey: ["todos"])
/// options.queryFn = .fn { _ in try await api.todos() }
/// let observer = QueryObserver(client: client, options: options)
/// let unsubscribe = observer.subscribe { result in print(result.status) }
/// ```
public class QueryObserver: @unchecked Sendable {
  // Safe: every mutable member is guarded by the client's engine lock.
  let client: QueryClient
  let engine: Engine
  /// The client's cache (`client.queryCache`), told of every result update: read from the
  /// client, the cache was retained and released per update, through the runtime's slow path
  /// (the cache has a weak-reference side table).
  final let queryCache: QueryCache
  /// The engine's lock (`engine.lock`), which every update records its listener calls with.
  final let lock: EngineLock
  /// The (defaulted) options on the heap, never mutated: taking them for a call or keeping the
  /// previous ones (`setOptions`) is one retain of the box, where reading a stored `QueryOptions`
  /// of this (non-final) class copied all 392 bytes each time (13 copies per `setOptions`).
  final var optionsBox: QueryOptionsBox {
    didSet {
      timersInert = Self.timersAreInert(optionsBox)
      resultInputs = resultInputs(of: optionsBox.options)
      resultInputsBox = optionsBox
      // Read only where `resultInputs` is not `.dependsOnMore` (no functions then).
      if case .value(let enabled)? = optionsBox.options.enabled { fixedEnabled = enabled } else { fixedEnabled = nil }
      if case .value(let staleTime)? = optionsBox.options.staleTime { fixedStaleTime = staleTime } else { fixedStaleTime = nil }
    }
  }
  /// ``resultInputs(of:)`` of ``resultInputsBox``'s options, kept when the box changes:
  /// `recordResultInputs` asks on every result update (about 35 instructions there).
  final var resultInputs = ResultInputs.dependsOnMore
  /// The options box ``resultInputs`` was computed from (`nil` before the first).
  final var resultInputsBox: QueryOptionsBox?
  /// `resolveQueryBoolean(enabled)` and `resolveStaleTime(staleTime)` of ``resultInputsBox``'s
  /// options, for `createStateResult`: kept where those options are values (where
  /// ``resultInputs`` is not `.dependsOnMore`).
  final var fixedEnabled: Bool?
  final var fixedStaleTime: StaleTime?
  /// ``timersAreInert(_:)`` of ``optionsBox``, kept when the box changes (every result update
  /// asks, in `updateTimers`; answering from the options there cost more than it saved).
  final var timersInert = false
  /// The options (``options`` under the lock); setting them puts a new box in place.
  var optionsStorage: QueryOptions {
    get { optionsBox.options }
    set { optionsBox = QueryOptionsBox(newValue) }
  }
  var currentQuery: Query!
  /// The two counts of the current query's state when the observer took the query (TanStack's
  /// `#currentQueryInitialState`, of which only these are read: a whole `QueryState` cost a copy
  /// and a destroy per query change).
  var currentQueryInitialDataUpdateCount = 0
  var currentQueryInitialErrorUpdateCount = 0
  /// The current result on the heap: keeping it, comparing with it and handing it to the
  /// listeners' calls is a reference each, where each copy or destroy of an
  /// `Optional<QueryObserverResult>` went through the runtime's generic `Optional` witnesses
  /// (about 200 instructions) and every listener call's closure held a copy of the result.
  var currentResultBox: QueryObserverResultBox?
  /// The current result (``currentResultBox``'s).
  var currentResultStorage: QueryObserverResult? {
    get { currentResultBox?.result }
    set { currentResultBox = newValue.map { QueryObserverResultBox.make($0) } }
  }
  /// The data of the query state the current result was made from (all that is read of that
  /// state: keeping the whole state copied and destroyed a `QueryState` per update), unless
  /// ``resultDataIsStateData``: read it as ``currentResultStateData``.
  var currentResultDataBox: DataBox?
  /// Whether the current result's own `dataBox` is the data of the state it was made from (a
  /// result made by `createStateResult` and stored): ``currentResultDataBox`` is then `nil`
  /// rather than a second reference to the same box (its retain and the previous one's release
  /// cost about 40 instructions per result update).
  var resultDataIsStateData = false
  /// The data of the query state the current result was made from.
  var currentResultStateData: DataBox? {
    resultDataIsStateData ? currentResultBox?.result.dataBox : currentResultDataBox
  }
  /// The options the current result was made with (`createResult` reads their
  /// `placeholderData`): a reference to their box, where copying the option itself cost an
  /// outlined copy and destroy of an `Optional<PlaceholderDataOption>` per update.
  var currentResultOptions: QueryOptionsBox?
  /// The query's ``Query/stateVersion`` the current result's last computation (`updateResult`)
  /// read, when that computation depended on nothing but the current query's state and
  /// ``currentResultOptions``; `-1` otherwise (see `recordResultInputs`). Recomputing with the
  /// same version and options box gives the same result, so `updateResult` skips it.
  var resultStateVersion = -1
  var selectError: ErrorBox?
  var selectFn: SelectFunction?
  var selectResult: DataBox?
  /// A strong reference, as TanStack's: `placeholderData` functions still get this query's data
  /// after it left the cache.
  var lastQueryWithDefinedData: Query?
  var staleTimeout: TimerID?
  var refetchInterval: TimerID?
  var currentRefetchInterval: Double?
  /// `@exclusivity(unchecked)`: every access inserts, reads or copies the set whole, and
  /// hashing and comparing `String`s runs no code of ours, so no two accesses can overlap (the
  /// dynamic check cost about 76 instructions on every result update).
  @exclusivity(unchecked) var trackedProps = Set<String>()
  /// `@exclusivity(unchecked)`: no access runs user code or engine code that could touch the
  /// registry: removed listeners are freed after the access (`take`, `takeAll`), and
  /// `notify(listeners:_:)` calls inline listeners on a copy. The dynamic checks cost about 130
  /// instructions per listener call (five accesses on the write path).
  // Safe: every access is made under the engine lock, by the thread holding it.
  @exclusivity(unchecked) final var listeners = Listeners<ObserverResultListener>()

  /// Creates an observer; it does nothing until subscribed.
  ///
  /// `options` is taken (consuming): the caller's options move into the observer's defaulted
  /// ones without a copy.
  public init(client: QueryClient, options: consuming QueryOptions) {
    self.client = client
    self.engine = client.engine
    self.queryCache = client.queryCache
    self.lock = client.engine.lock
    // `setOptions` reads only whether the previous options were defaulted (and compares them
    // if so): undefaulted options need no box of their own for that.
    self.optionsBox = options.defaulted ? QueryOptionsBox(copy options) : QueryOptionsBox.undefaulted
    // (`setOptions` sets the box again, which sets `timersInert`.)
    // Dispatched: a subclass's override (``InfiniteQueryObserver``) applies from the start.
    setOptions(options)
  }

  /// The observer's (defaulted) options.
  public var options: QueryOptions { engine.lock.sync { optionsStorage } }

  /// The query the observer watches.
  public func getCurrentQuery() -> Query { engine.lock.sync { currentQuery } }

  /// The latest result (computed from the current query if the observer has none yet).
  public func getCurrentResult() -> QueryObserverResult {
    engine.lock.sync { currentResultStorage ?? createResult(currentQuery, optionsBox.options) }
  }

  /// Whether anyone listens.
  public var hasListeners: Bool { engine.lock.sync { !listeners.isEmpty } }

  /// Calls `listener` with every changed result until the returned function is called; the
  /// first subscriber mounts the observer (fetching if needed).
  public func subscribe(_ listener: @escaping @Sendable (QueryObserverResult) -> Void) -> @Sendable () -> Void {
    let handle = engine.lock.sync {
      let handle = listeners.add(ObserverResultListener(listener), owner: self, lock: lock)
      onSubscribe()
      return handle
    }
    // The function holds the handle, which holds the observer only while the listener is
    // registered (see `ListenerHandle`). It is made here, not returned through the generic
    // `sync`: a function returned through it was reabstracted, a thunk and one more
    // allocation per subscription.
    return { [handle] in
      var observer: QueryObserver?
      // The removed listener is freed after unlocking (its captures may run user code in
      // `deinit`).
      handle.lock.syncReleasing { () -> Listeners<ObserverResultListener>.Listener? in
        guard let owner = handle.owner else { return nil }
        let current = unsafeDowncast(owner, to: QueryObserver.self)
        observer = current
        let removed = current.listeners.take(handle.id)
        if removed != nil { current.onUnsubscribe() }
        return removed
      }
      // Released after the lock and its effects: the caller may have dropped the observer,
      // and its `deinit` frees what listeners captured (user code).
      withExtendedLifetime(observer) {}
    }
  }

  /// Adds an engine-internal listener, called under the lock when the result changes (a
  /// `QueriesObserver` watching its observers, called where TanStack calls it). It is removed
  /// by `destroy()`.
  func subscribeInline(_ listener: @escaping (QueryObserverResult) -> Void) {
    engine.lock.sync {
      _ = listeners.add(ObserverResultListener(listener), inline: true)
      onSubscribe()
    }
  }

  /// Tracks a result property: with tracked properties, only their changes notify listeners.
  public func trackProp(_ name: String) { engine.lock.sync { _ = trackedProps.insert(name) } }

  private func onSubscribe() {
    if listeners.count == 1 {
      currentQuery.addObserver(self)
      let box = optionsBox
      if shouldFetchOnMount(currentQuery, box.options) {
        _ = executeFetch()
      } else {
        updateResult()
      }
      updateTimers()
    }
  }

  private func onUnsubscribe() {
    if listeners.isEmpty { destroy() }
  }

  func shouldFetchOnReconnect() -> Bool {
    shouldFetchOn(currentQuery, optionsBox.options, optionsBox.options.refetchOnReconnect)
  }

  func shouldFetchOnWindowFocus() -> Bool {
    shouldFetchOn(currentQuery, optionsBox.options, optionsBox.options.refetchOnWindowFocus)
  }

  /// Stops the observer: drops listeners and timers and leaves the query.
  public func destroy() {
    // Freed after unlocking (the listeners' captures may run user code in `deinit`).
    engine.lock.syncReleasing {
      let removed = listeners.takeAll()
      clearStaleTimeout()
      clearRefetchInterval()
      currentQuery.removeObserver(self)
      return removed
    }
  }

  /// Replaces the options; a new key switches queries (TanStack's `setOptions`).
  ///
  /// `options` is taken (consuming): they move into the observer's defaulted options without a
  /// copy (about 400 bytes through the value witness, and their destruction, per call).
  public func setOptions(_ options: consuming QueryOptions) {
    engine.lock.sync(handing: options) { (options: consuming QueryOptions) in setOptionsLocked(options) }
  }

  /// ``setOptions(_:)``, under the engine lock; `options` moves into the defaulted options.
  private func setOptionsLocked(_ options: consuming QueryOptions) {
    let prevBox = optionsBox
    let prevQuery = currentQuery
    var hint = CachedQueryHint.none
    let box = QueryOptionsBox(client.defaultQueryOptions(options, identity: true, hint: &hint, lookUp: true))
    optionsBox = box
    updateQuery(hint)
    currentQuery.setOptions(sharing: box)
    if prevBox.options.defaulted && !box.options.isShallowEqual(to: prevBox.options) {
      client.queryCache.notify(.observerOptionsUpdated(currentQuery, self))
    }
    let mounted = !listeners.isEmpty
    if mounted, shouldFetchOptionally(currentQuery, prevQuery, box.options, prevBox.options) {
      _ = executeFetch()
    }
    updateResult()
    let current = optionsBox
    let query = currentQuery!
    if mounted,
      query !== prevQuery
        || resolveQueryBoolean(current.options.enabled, query) != resolveQueryBoolean(prevBox.options.enabled, query)
        || resolveStaleTime(current.options.staleTime, query) != resolveStaleTime(prevBox.options.staleTime, query)
    {
      updateStaleTimeout()
    }
    let nextInterval = computeRefetchInterval()
    if mounted,
      query !== prevQuery
        || resolveQueryBoolean(current.options.enabled, query) != resolveQueryBoolean(prevBox.options.enabled, query)
        || nextInterval != currentRefetchInterval
    {
      updateRefetchInterval(nextInterval)
    }
  }

  /// The result the observer would have with `options`, without subscribing.
  public func getOptimisticResult(_ options: QueryOptions) -> QueryObserverResult {
    getOptimisticResult(options, optimistic: false)
  }

  /// `optimistic` is TanStack's `_optimisticResults: 'optimistic'`; `isRestoring` its
  /// `'isRestoring'`: the same result, but idle, as a framework binding shows it while a
  /// persisted cache is restored and the observer is not subscribed.
  package func getOptimisticResult(_ options: QueryOptions, optimistic: Bool, isRestoring: Bool = false) -> QueryObserverResult {
    engine.lock.sync {
      let defaulted = client.defaultQueryOptions(options)
      let query = client.queryCache.build(client, defaulted)
      let result = createResult(query, defaulted, optimistic: optimistic, isRestoring: isRestoring)
      if let current = currentResultStorage, current.changedProperties(from: result).isEmpty {
        return result
      }
      currentResultStorage = result
      resultStateVersion = -1
      currentResultOptions = optionsBox
      currentResultDataBox = currentQuery.stateStorage.dataBox
      resultDataIsStateData = false
      return result
    }
  }

  /// Refetches the query; resolves with the result after the fetch.
  public func refetch(_ options: RefetchOptions = RefetchOptions()) async throws -> QueryObserverResult {
    try await refetchPromise(options).value
  }

  /// TanStack's `fetch`: `meta` is the `fetchMeta` (`fetchNextPage` and `fetchPreviousPage` set one).
  package func refetchPromise(_ options: RefetchOptions = RefetchOptions(), meta: JSONValue? = nil) -> Promise<QueryObserverResult> {
    engine.lock.sync {
      executeFetch(FetchOptions(cancelRefetch: options.cancelRefetch ?? true, meta: meta, throwOnError: options.throwOnError))
        .then { [self] _ in
          engine.lock.sync {
            updateResult()
            return currentResultStorage ?? createResult(currentQuery, optionsBox.options)
          }
        }
    }
  }

  /// TanStack's `#executeFetch`: the fetch promise itself with `throwOnError`, otherwise that
  /// promise with its rejection ignored (`.catch(noop)`).
  func executeFetch(_ fetchOptions: FetchOptions? = nil) -> Promise<any Sendable> {
    updateQuery()
    let box = optionsBox
    let promise = currentQuery.fetch(sharing: box, fetchOptions)
    if fetchOptions?.throwOnError == true { return promise }
    return promise.ignoringRejection()
  }

  // MARK: Timers

  private func updateStaleTimeout() {
    clearStaleTimeout()
    let staleTime = resolveStaleTime(optionsBox.options.staleTime, currentQuery)
    // The staleTime first: an infinite (or static) one, the common case, needs no other read
    // (none of these checks has an effect, so their order is free). The result's members are
    // read in its box (`currentResultStorage` copied it whole).
    guard case .milliseconds(let ms)? = staleTime, isValidTimeout(ms), !engine.isServer,
      let resultBox = currentResultBox, !resultBox.result.isStale
    else { return }
    let time = timeUntilStale(resultBox.result.dataUpdatedAt, staleTime, now: engine.now)
    staleTimeout = engine.scheduler.setTimeout(time + 1) { [weak self] in
      guard let self else { return }
      self.engine.lock.sync {
        if self.currentResultStorage?.isStale == false { self.updateResult() }
      }
    }
  }

  private func computeRefetchInterval() -> Double? {
    switch optionsBox.options.refetchInterval {
    case nil, .never?: return nil
    case .milliseconds(let ms)?: return ms
    case .function(let f)?: return f.call(currentQuery)
    }
  }

  private func updateRefetchInterval(_ next: Double?) {
    clearRefetchInterval()
    currentRefetchInterval = next
    guard !engine.isServer, resolveQueryBoolean(optionsBox.options.enabled, currentQuery) != false,
      let interval = next, isValidTimeout(interval), interval != 0
    else { return }
    refetchInterval = engine.scheduler.setInterval(interval) { [weak self] in
      guard let self else { return }
      self.engine.lock.sync {
        if self.optionsBox.options.refetchIntervalInBackground == true || self.engine.focusManager.isFocused {
          _ = self.executeFetch()
        }
      }
    }
  }

  private func updateTimers() {
    // Options that start no timer and call no function here (the benchmarks' and a common
    // kind: an infinite or static `staleTime`, no interval): what the two calls below do then,
    // without resolving each option through them (about 80 instructions per result update).
    if timersInert {
      clearStaleTimeout()
      clearRefetchInterval()
      currentRefetchInterval = nil
      return
    }
    updateStaleTimeout()
    updateRefetchInterval(computeRefetchInterval())
  }

  /// Whether `updateStaleTimeout` and `updateRefetchInterval(computeRefetchInterval())` would
  /// only clear the timers and set `currentRefetchInterval` to `nil` with `box`'s options: the
  /// `staleTime` resolves, without a function, to none or to no valid timeout (so no stale
  /// timer), `refetchInterval` is off (so no interval), and `enabled` is not a function (which
  /// `updateRefetchInterval` calls first whatever the interval).
  static func timersAreInert(_ box: QueryOptionsBox) -> Bool {
    // Read in the box, member by member (a `QueryOptions` argument was copied whole).
    switch box.options.refetchInterval {
    case nil, .never?: break
    default: return false
    }
    if case .function? = box.options.enabled { return false }
    switch box.options.staleTime {
    case nil, .value(.static)?: return true
    case .value(.milliseconds(let ms))?: return !isValidTimeout(ms)
    case .function?: return false
    }
  }

  private func clearStaleTimeout() {
    if let id = staleTimeout {
      engine.scheduler.clearTimeout(id)
      staleTimeout = nil
    }
  }

  private func clearRefetchInterval() {
    if let handle = refetchInterval {
      engine.scheduler.clearTimeout(handle)
      refetchInterval = nil
    }
  }

  // MARK: Results

  func resolveEnabled(for query: Query) -> Bool? { resolveQueryBoolean(optionsBox.options.enabled, query) }

  /// `resolveEnabled(for:) != false` where the option needs no call (``Query/isActiveLocked()``):
  /// `nil` for a function. Read in place: `resolveEnabled` copied the option out of its box.
  @inline(__always) final var enabledWithoutCall: Bool? {
    switch optionsBox.options.enabled {
    case nil: return true
    case .value(let enabled)?: return enabled
    case .function?: return nil
    }
  }

  /// `resolveStaleTime(staleTime, query) == .static` where the option needs no call
  /// (``Query/isStaticLocked()``): `nil` for a function. Read in place, as ``enabledWithoutCall``.
  @inline(__always) final var staleTimeIsStaticWithoutCall: Bool? {
    switch optionsBox.options.staleTime {
    case nil: return false
    case .value(let staleTime)?: return staleTime == .static
    case .function?: return nil
    }
  }

  /// `resolveStaleTime(staleTime, query) == .static`, calling a function option.
  @inline(never) final func resolvedStaleTimeIsStatic(for query: Query) -> Bool {
    resolveStaleTime(optionsBox.options.staleTime, query) == .static
  }

  /// `optimistic`: TanStack's `_optimisticResults`, set by framework bindings: a result that
  /// already shows the fetch that mounting will start; with `isRestoring` (`'isRestoring'`) its
  /// fetch status stays idle.
  func createResult(_ query: Query, _ options: QueryOptions, optimistic: Bool = false, isRestoring: Bool = false) -> QueryObserverResult {
    // The previous result and its state are read only by the placeholder and select branches
    // (copying them cost an outlined copy and destroy of each per result otherwise).
    var readsPrevious = options.select != nil
    if options.hasPlaceholderData { readsPrevious = true }
    // Its box: an `Optional<QueryObserverResult>`, even `nil`, was destroyed through the
    // runtime's generic `Optional` witnesses (about 65 instructions per result).
    let prevResult = readsPrevious ? currentResultBox : nil
    let prevResultDataBox = readsPrevious ? currentResultStateData : nil
    // Compared in place (binding the current query retained and released it).
    let queryChange = query !== currentQuery
    // Only the initial state's two counts are read (a whole `QueryState` copy cost ~100 instructions).
    let initialDataUpdateCount = queryChange ? query.stateStorage.dataUpdateCount : currentQueryInitialDataUpdateCount
    let initialErrorUpdateCount = queryChange ? query.stateStorage.errorUpdateCount : currentQueryInitialErrorUpdateCount
    var status: QueryStatus
    var error: ErrorBox?
    var errorUpdatedAt: Double
    var data: DataBox?
    let fetchStatus: FetchStatus
    let dataUpdatedAt: Double
    let failureCount: Int
    let failureReasonBox: ErrorBox?
    let errorUpdateCount: Int
    let dataUpdateCount: Int
    if optimistic {
      var newState = query.stateStorage
      if listeners.isEmpty, shouldFetchOnMount(query, options) {
        Query.applyFetchState(&newState, networkModeAllows: engine.canFetch(query.sharedOptions.networkMode))
      }
      if isRestoring { newState.fetchStatus = .idle }
      status = newState.status
      error = newState.errorBox
      errorUpdatedAt = newState.errorUpdatedAt
      data = newState.dataBox
      fetchStatus = newState.fetchStatus
      dataUpdatedAt = newState.dataUpdatedAt
      failureCount = newState.fetchFailureCount
      failureReasonBox = newState.fetchFailureReasonBox
      errorUpdateCount = newState.errorUpdateCount
      dataUpdateCount = newState.dataUpdateCount
    } else {
      // The state's members one by one: a copy of the whole state also copied (and then
      // destroyed) its `fetchMeta` and retained and released every box in it, per result.
      status = query.stateStorage.status
      error = query.stateStorage.errorBox
      errorUpdatedAt = query.stateStorage.errorUpdatedAt
      data = query.stateStorage.dataBox
      fetchStatus = query.stateStorage.fetchStatus
      dataUpdatedAt = query.stateStorage.dataUpdatedAt
      failureCount = query.stateStorage.fetchFailureCount
      failureReasonBox = query.stateStorage.fetchFailureReasonBox
      errorUpdateCount = query.stateStorage.errorUpdateCount
      dataUpdateCount = query.stateStorage.dataUpdateCount
    }
    var isPlaceholderData = false
    var skipSelect = false

    if options.hasPlaceholderData, data == nil, status == .pending, let placeholderOption = options.placeholderData {
      let prevResultPlaceholderData = currentResultOptions?.options.placeholderData
      var placeholder: (any Sendable)?
      if let prevResult, prevResult.result.isPlaceholderData, placeholderOption == prevResultPlaceholderData {
        placeholder = prevResult.result.dataBox?.value
        skipSelect = true
        if let box = prevResult.result.dataBox {
          status = .success
          data = box
          isPlaceholderData = true
        }
      } else {
        switch placeholderOption {
        case .value(let v): placeholder = v
        case .function(let f):
          let previous = lastQueryWithDefinedData?.stateStorage.dataBox
          placeholder = f.call(previous?.value, lastQueryWithDefinedData).map { returnedArgument($0, previous) }
        }
        if let placeholder, !isUndefined(unboxed(placeholder)) {
          status = .success
          data = replaceData(prevResult?.result.dataBox, placeholder, sharing: options.structuralSharing)
          isPlaceholderData = true
        }
      }
    }

    if let select = options.select, let raw = data, !skipSelect {
      if prevResult != nil, sameData(raw, prevResultDataBox), select === selectFn {
        data = selectResult
      } else {
        do {
          selectFn = select
          let selected = returnedArgument(try select.call(raw.value), raw)
          data = replaceData(prevResult?.result.dataBox, selected, sharing: options.structuralSharing)
          selectResult = data
          selectError = nil
        } catch let thrown {
          selectError = ErrorBox(thrown)  // a new Error object on every run
        }
      }
    } else if data == nil {
      selectError = nil
    }

    if let selectError {
      error = selectError
      data = selectResult
      errorUpdatedAt = engine.now
      status = .error
      isPlaceholderData = false
    }

    return QueryObserverResult(
      status: status,
      fetchStatus: fetchStatus,
      dataBox: data,
      dataUpdatedAt: dataUpdatedAt,
      errorBox: error,
      errorUpdatedAt: errorUpdatedAt,
      failureCount: failureCount,
      failureReasonBox: failureReasonBox,
      errorUpdateCount: errorUpdateCount,
      isFetched: query.isFetched(),
      isFetchedAfterMount: dataUpdateCount > initialDataUpdateCount
        || errorUpdateCount > initialErrorUpdateCount,
      isPlaceholderData: isPlaceholderData,
      isStale: isStale(query, options),
      isEnabled: resolveQueryBoolean(options.enabled, query) != false
    )
  }

  /// `createResult(query, optionsBox.options)` for the current query, when ``resultInputs`` of
  /// the box is not `.dependsOnMore` and no select error is kept: no `select`, no
  /// `placeholderData`, `enabled` and `staleTime` values (``fixedEnabled``,
  /// ``fixedStaleTime``), a plain observer. `createResult` then takes every member from the
  /// query's state, and this is that path alone, without reading the options (about 150
  /// instructions per result update). `ObserverStateResultTests` compares the two.
  @inline(__always)
  func createStateResult(_ query: Query) -> QueryObserverResult {
    let flags = stateResultFlags(query)
    return stateResult(
      query, isFetched: flags.isFetched, isFetchedAfterMount: flags.isFetchedAfterMount,
      isStale: flags.isStale, isEnabled: flags.isEnabled)
  }

  /// The members ``createStateResult(_:)`` computes from `query`'s state and this observer's
  /// fixed options (the rest it reads from the state as they are).
  @inline(__always)
  func stateResultFlags(_ query: Query) -> (isFetched: Bool, isFetchedAfterMount: Bool, isStale: Bool, isEnabled: Bool) {
    let isEnabled = fixedEnabled != false
    return (
      isFetched: query.isFetched(),
      isFetchedAfterMount: query.stateStorage.dataUpdateCount > currentQueryInitialDataUpdateCount
        || query.stateStorage.errorUpdateCount > currentQueryInitialErrorUpdateCount,
      isStale: isEnabled && query.isStaleByTimeLocked(fixedStaleTime), isEnabled: isEnabled)
  }

  /// ``createStateResult(_:)`` with its computed members given.
  @inline(__always)
  func stateResult(_ query: Query, isFetched: Bool, isFetchedAfterMount: Bool, isStale: Bool, isEnabled: Bool) -> QueryObserverResult {
    QueryObserverResult(
      status: query.stateStorage.status,
      fetchStatus: query.stateStorage.fetchStatus,
      dataBox: query.stateStorage.dataBox,
      dataUpdatedAt: query.stateStorage.dataUpdatedAt,
      errorBox: query.stateStorage.errorBox,
      errorUpdatedAt: query.stateStorage.errorUpdatedAt,
      failureCount: query.stateStorage.fetchFailureCount,
      failureReasonBox: query.stateStorage.fetchFailureReasonBox,
      errorUpdateCount: query.stateStorage.errorUpdateCount,
      isFetched: isFetched,
      isFetchedAfterMount: isFetchedAfterMount,
      isPlaceholderData: false,
      isStale: isStale,
      isEnabled: isEnabled
    )
  }

  func updateResult() {
    let prevResultBox = currentResultBox
    let box = optionsBox
    // The state and the options the current result was last computed from (see
    // `recordResultInputs`): recomputing would give the same result, which compares unchanged
    // with the current one, and the members set below already hold what they would be set to
    // (nothing else writes them without resetting `resultStateVersion`). Mounting (`onSubscribe`)
    // lands here right after `init` computed the result.
    if resultStateVersion == currentQuery.stateVersion, currentResultOptions === box, prevResultBox != nil {
      return
    }
    let query: Query = currentQuery
    let nextResult: QueryObserverResult
    // Made from the state alone: its `dataBox` is the state's, which is then not kept apart
    // once the result is stored (``resultDataIsStateData``).
    let fromState = box === resultInputsBox && resultInputs != .dependsOnMore && selectError == nil
    if fromState {
      nextResult = createStateResult(query)
    } else {
      nextResult = createResult(query, box.options)
      keepStateData(of: query)
    }
    recordResultInputs(query, box)
    // Stored only when they change (storing the same reference retained and released it).
    if currentResultOptions !== box { currentResultOptions = box }
    if query.stateStorage.dataBox != nil, lastQueryWithDefinedData !== query { lastQueryWithDefinedData = query }
    // Decided without calling a `notifyOnChangeProps` function (that is called only below, as before).
    let notifiesOnAnyChange = self.notifiesOnAnyChange
    // A first result, or any change when every change notifies: no names are needed (nor a set
    // of them made and freed).
    // The references to the previous box are consumed before `storeResult`, which writes into
    // that box only if the observer's is the only one left.
    guard let prevResult = prevResultBox, !notifiesOnAnyChange else {
      if let prevResult = prevResultBox, !prevResult.hasChangedProperties(to: nextResult) {
        // The current result stays, but it was made from another state.
        if fromState { keepStateData(of: query) }
        return
      }
      _ = consume prevResultBox
      let next = storeResult(consume nextResult)
      if fromState { dropStateData() }
      notify(listeners: true, next)
      return
    }
    // The names, to match them against tracked or listed properties.
    let changed = nextResult.changedProperties(from: prevResult.result)
    if changed.isEmpty {
      if fromState { keepStateData(of: query) }
      return
    }
    _ = consume prevResult
    _ = consume prevResultBox
    let next = storeResult(consume nextResult)
    if fromState { dropStateData() }
    let props = box.options.notifyOnChangeProps?.resolved
    let shouldNotify: Bool
    if props == .all || (props == nil && trackedProps.isEmpty) {
      shouldNotify = true
    } else {
      var included: Set<String>
      if case .props(let list)? = props { included = Set(list) } else { included = trackedProps }
      if box.options.throwOnError == true { included.insert("error") }
      shouldNotify = !changed.isDisjoint(with: included)
    }
    notify(listeners: shouldNotify, next)
  }

  /// The current result's state data is `query`'s, kept in ``currentResultDataBox``.
  @inline(__always)
  private func keepStateData(of query: Query) {
    currentResultDataBox = query.stateStorage.dataBox
    resultDataIsStateData = false
  }

  /// The current result's state data is its own `dataBox` (it was just stored from
  /// `createStateResult`): ``currentResultDataBox`` is let go.
  @inline(__always)
  private func dropStateData() {
    if currentResultDataBox != nil { currentResultDataBox = nil }
    resultDataIsStateData = true
  }

  /// Makes `result` the current one and returns its box: the current box itself when this
  /// observer holds the only reference to it (no listener call waiting for delivery, no batch,
  /// no caller holds it), so nothing can tell it from a new box; else a new box. One allocation
  /// (and its free) fewer per update whose previous result was delivered.
  @inline(__always)
  private func storeResult(_ result: consuming QueryObserverResult) -> QueryObserverResultBox {
    if isKnownUniquelyReferenced(&currentResultBox), let box = currentResultBox {
      box.replace(with: consume result)
      return box
    }
    let box = QueryObserverResultBox.make(consume result)
    currentResultBox = box
    return box
  }

  /// Keeps the query's state version for the result `createResult` just made, if that result
  /// depended only on the query's state, the options and the observer's members fixed by them:
  /// not for an infinite observer (page functions), `select` or `placeholderData` (user code,
  /// previous results), a kept select error (its `errorUpdatedAt` is the time), `enabled` or
  /// `staleTime` functions (user code), nor when the staleness depends on the time (data
  /// present, not invalidated, enabled, and a finite or default `staleTime`). What the options
  /// decide is kept with the options box (``resultInputs``).
  @inline(__always)
  private func recordResultInputs(_ query: Query, _ box: QueryOptionsBox) {
    recordResultInputs(query, box === resultInputsBox ? resultInputs : resultInputs(of: box.options))
  }

  /// ``recordResultInputs(_:_:)`` with the options' inputs given.
  @inline(__always)
  private func recordResultInputs(_ query: Query, _ inputs: ResultInputs) {
    switch inputs {
    case .timeIndependent where selectError == nil:
      resultStateVersion = query.stateVersion
    case .stateOnly(let staleTime) where selectError == nil && query.isStaleByTimeIndependentOfTime(staleTime):
      resultStateVersion = query.stateVersion
    default:
      resultStateVersion = -1
    }
  }

  /// What of `options` (and of this observer's type) the result depends on, beside the
  /// query's state (``recordResultInputs(_:_:)``).
  enum ResultInputs: Equatable {
    /// Also user code, previous results or page functions: never reused.
    case dependsOnMore
    /// The state and the (fixed) `staleTime`, whose staleness may depend on the time
    /// (`Query.isStaleByTimeIndependentOfTime` tells).
    case stateOnly(staleTime: StaleTime?)
    /// The state alone, whatever the time: a disabled observer, or a `static` or infinite
    /// `staleTime` (`isStaleByTimeIndependentOfTime` is then true whatever the state).
    case timeIndependent
  }

  /// ``ResultInputs`` of `options` for this observer.
  func resultInputs(of options: borrowing QueryOptions) -> ResultInputs {
    guard type(of: self) == QueryObserver.self, options.select == nil, !options.hasPlaceholderData else {
      return .dependsOnMore
    }
    var disabled = false
    switch options.enabled {
    case nil: break
    case .value(let enabled)?: disabled = !enabled
    case .function?: return .dependsOnMore
    }
    var staleTime: StaleTime?
    switch options.staleTime {
    case nil: break
    case .value(let value)?: staleTime = value
    case .function?: return .dependsOnMore
    }
    if disabled || staleTime == .static || staleTime == .milliseconds(.infinity) { return .timeIndependent }
    return .stateOnly(staleTime: staleTime)
  }

  /// Builds (or finds) the query of the current options; `hint` is what defaulting them found.
  private func updateQuery(_ hint: CachedQueryHint = .none) {
    let query: Query
    switch hint {
    case .found(let cached): query = cached
    case .missed(let keySlot): query = client.queryCache.build(client, optionsBox.options, keySlot: keySlot)
    case .none: query = client.queryCache.build(client, optionsBox.options)
    }
    if query === currentQuery { return }
    let prevQuery = currentQuery
    currentQuery = query
    resultStateVersion = -1
    currentQueryInitialDataUpdateCount = query.stateStorage.dataUpdateCount
    currentQueryInitialErrorUpdateCount = query.stateStorage.errorUpdateCount
    if !listeners.isEmpty {
      prevQuery?.removeObserver(self)
      query.addObserver(self)
    }
  }

  /// `query`'s state changed (its `dispatch`, which holds `query` for the call).
  func onQueryUpdate(_ query: Query) {
    // Compared in place (a bound `currentQuery` was retained and released).
    if query === currentQuery, optionsBox === resultInputsBox, resultInputs != .dependsOnMore, selectError == nil,
      notifiesOnAnyChange
    {
      updateStateResult(query)
    } else {
      updateResult()
    }
    if !listeners.isEmpty { updateTimers() }
  }

  /// Whether every change of the result notifies the listeners (no `notifyOnChangeProps`
  /// list or function, no tracked properties).
  private var notifiesOnAnyChange: Bool {
    switch optionsBox.options.notifyOnChangeProps {
    case nil: return trackedProps.isEmpty
    case .all?: return true
    default: return false
    }
  }

  /// ``updateResult()`` where its result is made from the state alone (`createStateResult`)
  /// and every change notifies: the same steps, with the query the caller holds (`query` is
  /// ``currentQuery``) and the options box and previous result read where they are kept rather
  /// than bound (each binding was a retain and a release, about 120 instructions per update
  /// together).
  private func updateStateResult(_ query: Query) {
    if resultStateVersion == query.stateVersion, currentResultOptions === optionsBox, currentResultBox != nil { return }
    // `createStateResult`'s computed members; the rest is read from the state where it lies.
    let (isFetched, isFetchedAfterMount, isStale, isEnabled) = stateResultFlags(query)
    // The options box is ``resultInputsBox``: its inputs are kept.
    recordResultInputs(query, resultInputs)
    if currentResultOptions !== optionsBox { currentResultOptions = optionsBox }
    if query.stateStorage.dataBox != nil, lastQueryWithDefinedData !== query { lastQueryWithDefinedData = query }
    // Compared where it lies, without a reference of its own: `currentResultBox` holds the
    // box, and the comparison (`sameData`: of primitives at most, by value) writes nothing.
    if let previous = currentResultBox?.resultPointer,
      !dataDiffersCheaply(previous.pointee.dataBox, query.stateStorage.dataBox),
      !QueryObserverResultBox.hasChangedProperties(
        previous, toStateResultOf: query, isFetched: isFetched, isFetchedAfterMount: isFetchedAfterMount,
        isStale: isStale, isEnabled: isEnabled)
    {
      // The current result stays, but it was made from another state.
      keepStateData(of: query)
      return
    }
    // `storeResult(createStateResult(query))`, written in place into a box nobody else holds.
    if isKnownUniquelyReferenced(&currentResultBox) {
      currentResultBox.unsafelyUnwrapped.replaceWithStateResult(
        of: query, isFetched: isFetched, isFetchedAfterMount: isFetchedAfterMount, isStale: isStale,
        isEnabled: isEnabled)
    } else {
      currentResultBox = QueryObserverResultBox.make(
        stateResult(query, isFetched: isFetched, isFetchedAfterMount: isFetchedAfterMount, isStale: isStale, isEnabled: isEnabled))
    }
    dropStateData()
    let next = currentResultBox.unsafelyUnwrapped
    if let listener = listeners.onlyListener {
      // One listener (a framework binding's observer has one): recorded without walking the
      // registry's array (whose buffer the walk retained and released), the references to
      // the box and the listener moved into the effect.
      lock.recordResult(taking: consume next, for: consume listener)
      if queryCache.link.hasListeners { queryCache.notify(.observerResultsUpdated(currentQuery)) }
    } else {
      notify(listeners: true, next)
    }
  }

  private func notify(listeners notifyListeners: Bool, _ result: QueryObserverResultBox) {
    if notifyListeners {
      if listeners.hasInlineListeners {
        // A copy: inline listeners (engine code) are called during `notify`, not during an access.
        let registry = listeners
        registry.notify(result, via: lock)
      } else {
        // Recording runs no code of ours or the user's: read in place.
        listeners.recordCalls(with: result, via: lock)
      }
    }
    // Without cache listeners nothing is recorded: asked of the cache's link, as the query's
    // `dispatch` does (`QueryCache.notify` first reads which thread holds the lock).
    if queryCache.link.hasListeners { queryCache.notify(.observerResultsUpdated(currentQuery)) }
  }
}

// MARK: TanStack's observer helpers

func shouldLoadOnMount(_ query: Query, _ options: QueryOptions) -> Bool {
  resolveQueryBoolean(options.enabled, query) != false
    && query.stateStorage.dataBox == nil
    && !(query.stateStorage.status == .error && resolveQueryBoolean(options.retryOnMount, query) == false)
}

func shouldFetchOnMount(_ query: Query, _ options: QueryOptions) -> Bool {
  shouldLoadOnMount(query, options)
    || (query.stateStorage.dataBox != nil && shouldFetchOn(query, options, options.refetchOnMount))
}

func shouldFetchOn(_ query: Query, _ options: QueryOptions, _ field: RefetchOnOption?) -> Bool {
  if resolveQueryBoolean(options.enabled, query) != false, resolveStaleTime(options.staleTime, query) != .static {
    var value = field ?? .ifStale
    if case .function(let f) = value { value = f.call(query) }
    switch value {
    case .always: return true
    case .never: return false
    default: return isStale(query, options)
    }
  }
  return false
}

func shouldFetchOptionally(_ query: Query, _ prevQuery: Query?, _ options: QueryOptions, _ prevOptions: QueryOptions) -> Bool {
  (query !== prevQuery || resolveQueryBoolean(prevOptions.enabled, query) == false) && isStale(query, options)
}

func isStale(_ query: Query, _ options: QueryOptions) -> Bool {
  resolveQueryBoolean(options.enabled, query) != false
    && query.isStaleByTimeLocked(resolveStaleTime(options.staleTime, query))
}

/// What a user function returned, as data with an identity: a value equal to the function's data
/// argument is that argument itself (Swift values cannot say "a new, equal object"; a function
/// that means one returns a ``DataBox``), anything else is new data.
func returnedArgument(_ returned: any Sendable, _ argument: DataBox?) -> any Sendable {
  guard !(returned is DataBox), let argument, valuesEqual(returned, argument.value) else { return returned }
  return argument
}
