/// What a view shows for a query (SwiftQuery's `QueryState` enum, renamed because `QueryState`
/// is the engine's TanStack state struct): nothing yet, loading, a value, or an error.
///
/// The enum keeps SwiftQuery's four cases; ``QueryModel`` adds what they hide
/// (stale-while-revalidate `value`, `isFetching`, `isPlaceholderData`, `isPaused`, the full
/// `result`).
///
/// ```swift
/// let state: QueryViewState<User> = .success(User(id: 1, name: "Ada"))
/// switch state {
/// case .stale, .fetching: print("loading")
/// case .success(let user): print(user.name)
/// case .error(let error): print(error)
/// }
/// ```
public enum QueryViewState<Value> {
  /// Never fetched, and not fetching (disabled, or not started).
  case stale
  /// Loading the first value (or waiting to, while offline: see `isPaused`).
  case fetching
  /// The last fetch failed and there is no value to show (see ``QueryModel/value`` for one
  /// kept from before).
  case error(any Error)
  /// A value; a background refetch may be running (``QueryModel/isFetching``).
  case success(Value)
}

extension QueryViewState: Sendable where Value: Sendable {}

extension QueryViewState {
  /// The value, if the state has one.
  public var value: Value? {
    if case .success(let value) = self { return value }
    return nil
  }

  /// The state for an engine result whose data was read as `Value`.
  init(status: QueryStatus, fetchStatus: FetchStatus, value: Value?, error: (any Error)?) {
    switch status {
    case .success:
      if let value { self = .success(value) } else { self = .stale }
    case .error:
      self = .error(error ?? QueryFailure())
    case .pending:
      self = fetchStatus == .idle ? .stale : .fetching
    }
  }
}

/// Stands in for an error the engine did not keep (never expected: an `error` status always
/// has its error).
struct QueryFailure: Error, CustomStringConvertible {
  var description: String { "the query failed" }
}
