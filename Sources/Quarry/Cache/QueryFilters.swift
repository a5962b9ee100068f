/// Which queries an operation applies to (TanStack's `QueryFilters`).
///
/// ```swift
/// let active = client.queryCache.findAll(QueryFilters(queryKey: ["todos"], type: .active))
/// try await client.refetchQueries(QueryFilters(queryKey: ["todos"], stale: true))
/// ```
public struct QueryFilters: Sendable {
  /// Which queries by observer activity.
  public enum QueryTypeFilter: String, Sendable {
    /// Every query.
    case all
    /// Queries with an enabled observer.
    case active
    /// Queries without one.
    case inactive
  }

  /// Match keys that start with this key (or equal it, with `exact`).
  public var queryKey: QueryKey?
  /// Match the key exactly.
  public var exact: Bool?
  /// Match by activity (default all).
  public var type: QueryTypeFilter?
  /// Match by staleness.
  public var stale: Bool?
  /// Match by fetch status.
  public var fetchStatus: FetchStatus?
  /// Match by a custom test.
  public var predicate: (@Sendable (Query) -> Bool)?

  /// Creates filters.
  public init(queryKey: QueryKey? = nil, exact: Bool? = nil, type: QueryTypeFilter? = nil, stale: Bool? = nil, fetchStatus: FetchStatus? = nil, predicate: (@Sendable (Query) -> Bool)? = nil) {
    self.queryKey = queryKey
    self.exact = exact
    self.type = type
    self.stale = stale
    self.fetchStatus = fetchStatus
    self.predicate = predicate
  }

  /// Whether no filter member is set (TanStack's `Object.keys(filters).length > 0` check).
  var isEmpty: Bool {
    queryKey == nil && exact == nil && type == nil && stale == nil && fetchStatus == nil && predicate == nil
  }

  /// TanStack's `matchQuery`.
  public func matches(_ query: Query) -> Bool {
    if queryKey != nil {
      // Read in place, not bound (`if let` retained and released the filter's key per query).
      if exact == true {
        if !query.queryHash.hasSameCodeUnits(as: hashQueryKeyByOptions(queryKey.unsafelyUnwrapped, query.options)) { return false }
      } else if !partialMatchKey(query.queryKey, queryKey.unsafelyUnwrapped) {
        return false
      }
    }
    let type = self.type ?? .all
    if type != .all {
      let active = query.isActive()
      if type == .active && !active { return false }
      if type == .inactive && active { return false }
    }
    if let stale, query.isStale() != stale { return false }
    if let fetchStatus, fetchStatus != query.state.fetchStatus { return false }
    if let predicate, !predicate(query) { return false }
    return true
  }
}
