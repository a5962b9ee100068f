import Foundation

/// The typed API over the engine's client: fetch, read, write and invalidate by ``QueryFunc``
/// and ``QueryCacheKey`` instead of JSON keys and `any Sendable`.
extension QueryClient {
  /// Engine options for `queryFunc` with `variables`: its key, its function and its options.
  public func queryOptions<F: QueryFunc>(_ queryFunc: F, _ variables: F.Variables) -> QueryOptions {
    var options = QueryOptions(queryKey: QueryCacheKey<F>(variables: variables).queryKey)
    options.queryFn = .fn { _ in try await queryFunc.run(variables) }
    queryFunc.options.apply(to: &options)
    return options
  }

  /// Fetches (or returns fresh cached data for) `queryFunc` with `variables` (TanStack's
  /// `fetchQuery`).
  ///
  /// ```swift
  /// let user = try await client.fetchQuery(FetchUser(), 42)
  /// ```
  public func fetchQuery<F: QueryFunc>(_ queryFunc: F, _ variables: F.Variables) async throws -> F.Value {
    let key = QueryCacheKey<F>(variables: variables).queryKey
    return try typed(try await fetchQuery(queryOptions(queryFunc, variables)), F.Value.self, key)
  }

  /// Fetches a function that takes no variables.
  public func fetchQuery<F: QueryFunc>(_ queryFunc: F) async throws -> F.Value where F.Variables == QueryVoid {
    try await fetchQuery(queryFunc, .value)
  }

  /// Shorthand for ``fetchQuery(_:_:)``, as SwiftQuery's examples write it.
  public func fetch<F: QueryFunc>(_ queryFunc: F, _ variables: F.Variables) async throws -> F.Value {
    try await fetchQuery(queryFunc, variables)
  }

  /// Fetches into the cache without throwing (TanStack's `prefetchQuery`).
  public func prefetchQuery<F: QueryFunc>(_ queryFunc: F, _ variables: F.Variables) async {
    await prefetchQuery(queryOptions(queryFunc, variables))
  }

  /// The cached value of `key`; throws ``QuarryError/typeMismatch(key:expected:actual:)`` if
  /// the entry holds another type.
  @inlinable
  public func getQueryData<F: QueryFunc>(_ key: QueryCacheKey<F>) throws -> F.Value? {
    // Inlinable (as is `setQueryData(_:_:)`), so that the app's module specializes it for `F`:
    // unspecialized, `F.Value?`'s and `QueryCacheKey<F>`'s metadata were looked up on every call.
    let queryKey = key.queryKey
    let value = try getQueryData(queryKey, as: F.Value.self)
    // The key's object table goes back to the encoder for the next key (a throw just frees it).
    JSONValueEncoder.recycle(queryKey)
    return value
  }

  /// Writes a value computed from the old one; an updater returning `nil` changes nothing, and
  /// data of another type is never overwritten (the call throws instead).
  ///
  /// ```swift
  /// try client.setQueryData(QueryCacheKey<FetchUser>(variables: 42)) { old in old ?? User(id: 42, name: "?") }
  /// ```
  @discardableResult @inlinable
  public func setQueryData<F: QueryFunc>(_ key: QueryCacheKey<F>, _ updater: (F.Value?) throws -> F.Value?) throws -> F.Value? {
    let queryKey = key.queryKey
    let value = try setQueryData(queryKey) { (old: F.Value?) in try updater(old) }
    JSONValueEncoder.recycle(queryKey)
    return value
  }

  /// Marks every query under each key stale and refetches the active ones (TanStack's
  /// `invalidateQueries`, matching by prefix).
  public func invalidateQueries(_ keys: any CacheKeyRepresentable...) async throws {
    try await invalidateQueries(keys)
  }

  /// Invalidates every query under each key of `keys`.
  public func invalidateQueries(_ keys: [any CacheKeyRepresentable]) async throws {
    try await invalidatePromise(keys).value
  }

  /// Invalidates every key at once (no job between them); settles when every refetch has.
  func invalidatePromise(_ keys: [any CacheKeyRepresentable]) -> Promise<Void> {
    invalidateQueriesPromise(keys: keys.map(\.queryKey))
  }

  /// Removes every query under each key of `keys` from the cache.
  public func removeQueries(_ keys: any CacheKeyRepresentable...) {
    for key in keys { removeQueries(QueryFilters(queryKey: key.queryKey)) }
  }
}

/// `value` as `T`, or ``QuarryError/typeMismatch(key:expected:actual:)``.
func typed<T>(_ value: any Sendable, _ type: T.Type, _ key: QueryKey) throws -> T {
  guard let typed = conditionalCast(value, to: T.self) else {
    throw QuarryError.typeMismatch(key: key.queryHash, expected: String(describing: T.self), actual: String(describing: Swift.type(of: value)))
  }
  return typed
}
