/// Filters for `invalidateQueries`, with which queries to refetch.
public struct InvalidateQueryFilters: Sendable {
  /// Which queries to invalidate.
  public var filters: QueryFilters
  /// Which of them to refetch: `nil` follows `filters.type`, then active.
  public var refetchType: RefetchType?
  /// What `invalidateQueries` refetches.
  public enum RefetchType: String, Sendable {
    /// Active queries.
    case active
    /// Inactive queries.
    case inactive
    /// Every matching query.
    case all
    /// None.
    case none
  }
  /// Creates invalidation filters.
  public init(_ filters: QueryFilters = QueryFilters(), refetchType: RefetchType? = nil) {
    self.filters = filters
    self.refetchType = refetchType
  }
}

extension QueryClient {
  // MARK: Promise forms (used by the async API and the scenario runner)

  package func fetchQueryPromise(_ options: QueryOptions) -> Promise<any Sendable> {
    engine.lock.sync {
      var defaulted = defaultQueryOptions(options)
      if defaulted.retry == nil { defaulted.retry = .bool(false) }
      let query = queryCache.build(self, defaulted)
      if query.isStaleByTime(resolveStaleTime(defaulted.staleTime, query)) {
        return query.fetch(defaulted)
      }
      return Promise.resolved(query.stateStorage.data!, scheduler: engine.scheduler)
    }
  }

  /// TanStack's `prefetchQuery`: `fetchQueryPromise` with its value and its error dropped. The
  /// promise never rejects, so a caller may ignore it, as TanStack's callers do.
  @discardableResult
  package func prefetchQueryPromise(_ options: QueryOptions) -> Promise<Void> {
    fetchQueryPromise(options).thenNoopCatchNoop()
  }

  package func ensureQueryDataPromise(_ options: QueryOptions, revalidateIfStale: Bool = false) -> Promise<any Sendable> {
    engine.lock.sync {
      let defaulted = defaultQueryOptions(options)
      let query = queryCache.build(self, defaulted)
      guard let cached = query.stateStorage.data else { return fetchQueryPromise(options) }
      if revalidateIfStale, query.isStaleByTime(resolveStaleTime(defaulted.staleTime, query)) {
        _ = prefetchQueryPromise(defaulted)
      }
      return Promise.resolved(cached, scheduler: engine.scheduler)
    }
  }

  package func invalidateQueriesPromise(_ filters: InvalidateQueryFilters = InvalidateQueryFilters(), _ options: RefetchOptions = RefetchOptions()) -> Promise<Void> {
    engine.lock.sync {
      let revision = queryCache.revision
      var invalidated = queryCache.findAll(filters.filters)
      invalidated.forEachUnretained { $0.invalidate() }
      if filters.refetchType == InvalidateQueryFilters.RefetchType.none {
        return Promise.resolved((), scheduler: engine.scheduler)
      }
      var refetch = filters.filters
      // `none` returned above, so every other refetch type names a query type filter.
      let type = filters.refetchType.flatMap { QueryFilters.QueryTypeFilter(rawValue: $0.rawValue) }
        ?? filters.filters.type ?? .active
      refetch.type = type
      // TanStack's `refetchQueries` finds the queries again with the type filter replaced. When
      // the invalidation's filters are only a key (not exact) and no type, that second search
      // finds exactly the invalidated queries of the refetch type, in the same order, provided
      // no query was added or removed meanwhile (the invalidations' observer updates can run
      // callbacks of the caller's, hence `revision`): nothing else it would test (a predicate, a
      // staleness or fetch status the invalidation changed, an exact key's hash function) is
      // set. So the type alone is tested again on the first search's queries, as the second
      // search would test it (after the key, on each query in order).
      if queryCache.revision == revision, Self.refetchMatchesInvalidated(filters.filters) {
        // Filtered in place: `removeAll(where:)` asks each query once, in order, as `filter`
        // did, and keeps the rest in order, without a second array (its allocation, and a
        // retain and an append per query kept). Nothing reads the unfiltered array after.
        if type != .all {
          let active = type == .active
          invalidated.removeAll { $0.isActiveLocked() != active }
        }
        return refetchPromise(invalidated, options)
      }
      return refetchQueriesPromise(refetch, options)
    }
  }

  /// Whether `refetchQueries`' search with `filters`' type replaced finds exactly the queries
  /// that `filters` found (the invalidation's), filtered by the new type: `filters` tests only a
  /// key (not exactly) and no type, so the first search tested nothing the second tests again
  /// but the key, which neither runs a caller's code nor changes.
  private static func refetchMatchesInvalidated(_ filters: QueryFilters) -> Bool {
    (filters.type == nil || filters.type == .all) && filters.stale == nil && filters.fetchStatus == nil
      && filters.predicate == nil && (filters.exact != true || filters.queryKey == nil)
  }

  /// Invalidates the queries under each key in one transaction; settles when all refetches have
  /// (the typed layer's `invalidating:` list).
  package func invalidateQueriesPromise(keys: [QueryKey]) -> Promise<Void> {
    engine.lock.sync {
      let promises = keys.map { invalidateQueriesPromise(InvalidateQueryFilters(QueryFilters(queryKey: $0))) }
      return promiseAll(promises, scheduler: engine.scheduler).then { _ in () }
    }
  }

  package func refetchQueriesPromise(_ filters: QueryFilters = QueryFilters(), _ options: RefetchOptions = RefetchOptions()) -> Promise<Void> {
    engine.lock.sync { refetchPromise(queryCache.findAll(filters), options) }
  }

  /// `refetchQueries` of the queries its filters found; the caller holds the engine lock.
  private func refetchPromise(_ queries: [Query], _ options: RefetchOptions) -> Promise<Void> {
    let fetchOptions = FetchOptions(cancelRefetch: options.cancelRefetch ?? true, throwOnError: options.throwOnError)
    let throwOnError = fetchOptions.throwOnError == true
    // TanStack: `Promise.all(queries.map(fetch, .catch(noop) unless throwOnError, or a
    // resolved promise when paused)).then(noop)`. The values are never read, so a
    // `PromiseCountdown` follows them with the same jobs: every fetch is started first (the
    // `map`), then each promise is counted in order (`Promise.all` subscribing).
    var fetches: [(promise: Promise<any Sendable>, paused: Bool)] = []
    fetches.reserveCapacity(queries.count)
    // Whether any fetch is paused, noted as they start (a `contains(where: \.paused)` walked
    // them again through a key path).
    var anyPaused = false
    queries.forEachUnretained { query in
      guard !query.isDisabledLocked() && !query.isStaticLocked() else { return }
      // `fetch(sharing:)`: `fetch(nil, …)` copied and destroyed its `nil` `QueryOptions?`
      // through outlined value operations (about 200 instructions per query).
      let fetch = query.fetch(sharing: nil, fetchOptions)
      let paused = query.stateStorage.fetchStatus == .paused
      if paused { anyPaused = true }
      fetches.append((fetch, paused))
    }
    let countdown = PromiseCountdown(count: fetches.count, scheduler: engine.scheduler)
    if !throwOnError, !anyPaused {
      // The common case: only the last fetch to settle queues a job (`countIgnoringRejectionOnly`).
      // Unretained: `fetches` holds each promise until this returns (a `for in` retained and
      // released each).
      for index in fetches.indices {
        Unmanaged.passUnretained(fetches[index].promise)._withUnsafeGuaranteedRef { countdown.countIgnoringRejectionOnly($0) }
      }
      return countdown.all.then { _ in () }
    }
    for (fetch, paused) in fetches {
      if paused {
        // The `.catch(noop)` promise still follows the fetch, with nobody after it.
        if !throwOnError { fetch.whenSettled { _ in } }
        countdown.countFulfilled()
      } else if throwOnError {
        countdown.count(fetch)
      } else {
        countdown.countIgnoringRejection(fetch)
      }
    }
    return countdown.all.then { _ in () }
  }

  package func cancelQueriesPromise(_ filters: QueryFilters = QueryFilters(), _ options: CancelOptions = CancelOptions()) -> Promise<Void> {
    engine.lock.sync {
      let defaulted = CancelOptions(revert: options.revert ?? true, silent: options.silent)
      let promises = queryCache.findAll(filters).map { $0.cancel(defaulted) }
      return promiseAll(promises, scheduler: engine.scheduler).thenNoopCatchNoop()
    }
  }

  package func resetQueriesPromise(_ filters: QueryFilters = QueryFilters(), _ options: RefetchOptions = RefetchOptions()) -> Promise<Void> {
    engine.lock.sync {
      let matched = queryCache.findAll(filters)
      let ids = Set(matched.map { ObjectIdentifier($0) })
      for query in matched { query.reset() }
      return refetchQueriesPromise(QueryFilters(type: .active, predicate: { ids.contains(ObjectIdentifier($0)) }), options)
    }
  }

  // MARK: Async API

  /// Fetches (or returns fresh cached data for) a query; no retries unless `options.retry` says so.
  public func fetchQuery(_ options: QueryOptions) async throws -> any Sendable {
    try await fetchQueryPromise(options).value
  }

  /// Fetches `queryKey` with `queryFn` and returns its data as `T`.
  ///
  /// ```swift
  /// let user = try await client.fetchQuery(["user", 1], as: User.self) { _ in try await api.user(1) }
  /// ```
  public func fetchQuery<T: Sendable>(_ queryKey: QueryKey, as type: T.Type, staleTime: StaleTime? = nil, queryFn: @escaping @Sendable (QueryFunctionContext) async throws -> T) async throws -> T {
    var options = QueryOptions(queryKey: queryKey)
    options.queryFn = .fn { try await queryFn($0) }
    options.staleTime = staleTime.map { .value($0) }
    let value = try await fetchQuery(options)
    guard let typed = conditionalCast(value, to: T.self) else {
      throw QuarryError.typeMismatch(key: queryKey.queryHash, expected: String(describing: T.self), actual: String(describing: Swift.type(of: value)))
    }
    return typed
  }

  /// Like `fetchQuery`, but never throws and returns nothing.
  public func prefetchQuery(_ options: QueryOptions) async {
    _ = try? await prefetchQueryPromise(options).value
  }

  /// Returns cached data if any, else fetches; optionally refetches stale data in the background.
  public func ensureQueryData(_ options: QueryOptions, revalidateIfStale: Bool = false) async throws -> any Sendable {
    try await ensureQueryDataPromise(options, revalidateIfStale: revalidateIfStale).value
  }

  /// Marks matching queries stale and refetches the active ones (or `refetchType`).
  public func invalidateQueries(_ filters: InvalidateQueryFilters = InvalidateQueryFilters(), _ options: RefetchOptions = RefetchOptions()) async throws {
    try await invalidateQueriesPromise(filters, options).value
  }

  /// Refetches matching queries that are enabled and not static.
  public func refetchQueries(_ filters: QueryFilters = QueryFilters(), _ options: RefetchOptions = RefetchOptions()) async throws {
    try await refetchQueriesPromise(filters, options).value
  }

  /// Cancels matching fetches, reverting their state by default.
  public func cancelQueries(_ filters: QueryFilters = QueryFilters(), _ options: CancelOptions = CancelOptions()) async {
    _ = try? await cancelQueriesPromise(filters, options).value
  }

  /// Resets matching queries to their initial state and refetches the active ones.
  public func resetQueries(_ filters: QueryFilters = QueryFilters(), _ options: RefetchOptions = RefetchOptions()) async throws {
    try await resetQueriesPromise(filters, options).value
  }
}
