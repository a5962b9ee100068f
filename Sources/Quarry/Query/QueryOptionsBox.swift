/// A `QueryOptions` value on the heap.
final class QueryOptionsBox: Sendable {
  let options: QueryOptions
  /// Takes `options` (a caller's temporary moves in without a copy).
  init(_ options: consuming QueryOptions) { self.options = options }

  /// Blank options (not defaulted): what a new observer holds until its `setOptions`.
  static let undefaulted = QueryOptionsBox(QueryOptions())
}

/// A `QueryState` value on the heap (a query's initial state when it has initial data).
final class QueryStateBox: Sendable {
  let state: QueryState
  init(_ state: QueryState) { self.state = state }
}

extension QueryState {
  /// Whether this is `QueryState()`: no data, error, meta, counts or times, pending and idle.
  var isBlank: Bool {
    dataBox == nil && errorBox == nil && fetchFailureReasonBox == nil && fetchMeta == nil
      && dataUpdateCount == 0 && dataUpdatedAt == 0 && errorUpdateCount == 0 && errorUpdatedAt == 0
      && fetchFailureCount == 0 && !isInvalidated && status == .pending && fetchStatus == .idle
  }
}
