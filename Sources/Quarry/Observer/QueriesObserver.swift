/// Watches many queries at once, of any data types, reporting their results in request order
/// (TanStack's `QueriesObserver`).
///
/// ```swift
/// var todos = QueryOptions(queryKey: ["todos"])
/// todos.queryFn = .fn { _ in try await api.todos() }
/// var user = QueryOptions(queryKey: ["user", 1])
/// user.queryFn = .fn { _ in try await api.user(1) }
/// let observer = QueriesObserver(client: client, queries: [todos, user])
/// let unsubscribe = observer.subscribe { results in print(results.map(\.status)) }
/// ```
public final class QueriesObserver: @unchecked Sendable {
  // Safe: every mutable member is guarded by the client's engine lock.
  struct Match {
    let defaultedOptions: QueryOptions
    let observer: QueryObserver
  }

  let client: QueryClient
  let engine: Engine
  var resultStorage: [QueryObserverResult] = []
  /// Stands for the identity of `resultStorage` (TanStack compares the array by reference).
  var resultGeneration = 0
  var queries: [QueryOptions] = []
  var optionsStorage: QueriesObserverOptions?
  var observersStorage: [QueryObserver] = []
  var combinedBox: DataBox?
  var lastCombine: QueriesCombine?
  var lastResultGeneration: Int?
  var lastQueryHashes: [String]?
  var observerMatches: [Match] = []
  var listeners = ListenerRegistry<[QueryObserverResult]>()

  /// Creates the observer. As in TanStack, `options` given here are dropped (the constructor
  /// calls `setQueries` without them): pass a `combine` to ``setQueries(_:options:)``.
  public init(client: QueryClient, queries: [QueryOptions], options: QueriesObserverOptions? = nil) {
    self.client = client
    self.engine = client.engine
    self.optionsStorage = options
    setQueries(queries)
  }

  /// Calls `listener` with the results whenever they change (with a combine: whenever the
  /// combined value changes) until the returned function is called. The first listener
  /// subscribes every query observer, fetching as they mount.
  public func subscribe(_ listener: @escaping @Sendable ([QueryObserverResult]) -> Void) -> @Sendable () -> Void {
    engine.lock.sync {
      let id = listeners.add(listener)
      if listeners.count == 1 {
        for observer in observersStorage { subscribeObserver(observer) }
      }
      return { [weak self] in
        guard let self else { return }
        // Freed after unlocking (the listener's captures may run user code in `deinit`).
        self.engine.lock.syncReleasing {
          let removed = self.listeners.take(id)
          if removed != nil, self.listeners.isEmpty { self.destroy() }
          return removed
        }
      }
    }
  }

  /// Whether anyone listens.
  public var hasListeners: Bool { engine.lock.sync { !listeners.isEmpty } }

  /// Stops: drops the listeners and destroys every query observer.
  public func destroy() {
    // Freed after unlocking (the listeners' captures may run user code in `deinit`).
    engine.lock.syncReleasing {
      let removed = listeners.takeAll()
      for observer in observersStorage { observer.destroy() }
      return removed
    }
  }

  /// Replaces the queries (and the options: a `combine` not passed again is gone). Observers
  /// are reused by query hash, in order; new ones subscribe and removed ones are destroyed
  /// while anyone listens; listeners hear of it only if the results changed.
  public func setQueries(_ queries: [QueryOptions], options: QueriesObserverOptions? = nil) {
    engine.lock.sync {
      self.queries = queries
      optionsStorage = options
      let prevObservers = observersStorage
      let matches = findMatchingObservers(queries)
      for match in matches { match.observer.setOptions(match.defaultedOptions) }
      let newObservers = matches.map(\.observer)
      let newResult = newObservers.map { $0.getCurrentResult() }
      let hasStructuralChange = prevObservers.count != newObservers.count
        || newObservers.indices.contains { $0 >= prevObservers.count || newObservers[$0] !== prevObservers[$0] }
      let hasResultChange = hasStructuralChange
        || newResult.indices.contains { i in
          i >= resultStorage.count || !newResult[i].changedProperties(from: resultStorage[i]).isEmpty
        }
      if !hasStructuralChange && !hasResultChange { return }
      if hasStructuralChange {
        observerMatches = matches
        observersStorage = newObservers
      }
      setResult(newResult)
      if listeners.isEmpty { return }
      if hasStructuralChange {
        for observer in prevObservers where !newObservers.contains(where: { $0 === observer }) { observer.destroy() }
        for observer in newObservers where !prevObservers.contains(where: { $0 === observer }) { subscribeObserver(observer) }
      }
      notify()
    }
  }

  /// The current results, in request order.
  public func getCurrentResult() -> [QueryObserverResult] { engine.lock.sync { resultStorage } }

  /// The queries watched, in request order.
  public func getQueries() -> [Query] { engine.lock.sync { observersStorage.map { $0.getCurrentQuery() } } }

  /// The query observers, in request order.
  public func getObservers() -> [QueryObserver] { engine.lock.sync { observersStorage } }

  /// The value `combine` last produced (what listeners were last told about), if any.
  public var combinedResult: (any Sendable)? { engine.lock.sync { combinedBox?.value } }

  /// The results these queries would have, without storing new observers, and a function that
  /// combines them with `combine` (memoized like the observer's own combine).
  public func getOptimisticResult(_ queries: [QueryOptions], combine: QueriesCombine?) -> QueriesObserverOptimisticResult {
    engine.lock.sync {
      let matches = findMatchingObservers(queries)
      let results = matches.map { $0.observer.getOptimisticResult($0.defaultedOptions, optimistic: false) }
      let hashes = matches.map { $0.defaultedOptions.queryHash ?? "" }
      return QueriesObserverOptimisticResult(results: results) { [self] given in
        engine.lock.sync { combineResult(given ?? results, combine, queryHashes: hashes, tracking: nil) }
      }
    }
  }

  // MARK: Internals

  private func setResult(_ result: [QueryObserverResult]) {
    resultStorage = result
    resultGeneration += 1
  }

  private func subscribeObserver(_ observer: QueryObserver) {
    observer.subscribeInline { [weak self, weak observer] result in
      guard let self, let observer else { return }
      self.onUpdate(observer, result)
    }
  }

  /// TanStack's `#combineResult`: recomputes only when the results, the query hashes or the
  /// combine changed; the output is structurally shared with the previous one.
  private func combineResult(_ input: [QueryObserverResult], _ combine: QueriesCombine?, queryHashes: [String]?, tracking: [Match]?) -> any Sendable {
    guard let combine else { return input }
    let hashesChanged = queryHashes != nil && lastQueryHashes != nil && queryHashes != lastQueryHashes
    if resultGeneration != lastResultGeneration || hashesChanged || combine !== lastCombine {
      lastCombine = combine
      lastResultGeneration = resultGeneration
      if let queryHashes { lastQueryHashes = queryHashes }
      let combined = combine.call(input)
      if let tracking, !input.isEmpty, tracking.contains(where: { $0.defaultedOptions.notifyOnChangeProps == nil }) {
        for prop in combine.reading { for match in tracking { match.observer.trackProp(prop) } }
      }
      combinedBox = replaceData(combinedBox, combined, structuralSharing: true)
    }
    return combinedBox?.value ?? input
  }

  private func findMatchingObservers(_ queries: [QueryOptions]) -> [Match] {
    var previous: [String: [QueryObserver]] = [:]
    for observer in observersStorage {
      guard let hash = observer.optionsStorage.queryHash else { continue }
      previous[hash, default: []].append(observer)
    }
    return queries.map { options in
      let defaulted = client.defaultQueryOptions(options)
      let hash = defaulted.queryHash ?? ""
      if var reusable = previous[hash], !reusable.isEmpty {
        let observer = reusable.removeFirst()
        previous[hash] = reusable
        return Match(defaultedOptions: defaulted, observer: observer)
      }
      return Match(defaultedOptions: defaulted, observer: QueryObserver(client: client, options: defaulted))
    }
  }

  private func onUpdate(_ observer: QueryObserver, _ result: QueryObserverResult) {
    guard let index = observersStorage.firstIndex(where: { $0 === observer }) else { return }
    var next = resultStorage
    next[index] = result
    setResult(next)
    notify()
  }

  private func notify() {
    guard !listeners.isEmpty else { return }
    guard let combine = optionsStorage?.combine else {
      listeners.notify(resultStorage, via: engine.lock)
      return
    }
    let previous = combinedBox
    _ = combineResult(resultStorage, combine, queryHashes: nil, tracking: observerMatches)
    if previous !== combinedBox { listeners.notify(resultStorage, via: engine.lock) }
  }
}
