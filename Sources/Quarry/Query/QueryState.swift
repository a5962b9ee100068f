/// A snapshot of a query's state (TanStack's `QueryState`).
public struct QueryState: Sendable {
  package var dataBox: DataBox?
  /// The cached data, if any.
  public var data: (any Sendable)? { dataBox?.value }
  /// How many times data was written.
  public var dataUpdateCount: Int = 0
  /// When data was last written, in ms (0 when never).
  public var dataUpdatedAt: Double = 0
  var errorBox: ErrorBox?
  /// The last fetch error, cleared by success.
  public var error: (any Error)? {
    get { errorBox?.error }
    set { errorBox = newValue.map(ErrorBox.init) }
  }
  /// How many fetches failed.
  public var errorUpdateCount: Int = 0
  /// When the last error happened, in ms.
  public var errorUpdatedAt: Double = 0
  /// Failed attempts of the current fetch.
  public var fetchFailureCount: Int = 0
  var fetchFailureReasonBox: ErrorBox?
  /// The last failed attempt's error.
  public var fetchFailureReason: (any Error)? {
    get { fetchFailureReasonBox?.error }
    set { fetchFailureReasonBox = newValue.map(ErrorBox.init) }
  }
  /// The `meta` the current fetch was started with.
  @DeepReleased public var fetchMeta: JSONValue? = nil
  /// Whether the query was invalidated since its data was written.
  public var isInvalidated: Bool = false
  /// The data status.
  public var status: QueryStatus = .pending
  /// The fetch status.
  public var fetchStatus: FetchStatus = .idle

  /// Reads the data as `T`; `nil` when there is none; throws ``QuarryError/typeMismatch`` when
  /// the data has another type. Restored or hydrated data is `JSONValue`: it is decoded into a
  /// `Decodable` `T`.
  public func data<T>(as type: T.Type, key: String = "") throws -> T? {
    try dataBox?.typedValue(as: T.self, key: key)
  }
}

extension DataBox {
  /// The value as `T`, JSON (restored or hydrated data) decoded into a `Decodable` `T`; throws
  /// ``QuarryError/typeMismatch`` naming `key` (written only then) for another type.
  func typedValue<T>(as type: T.Type, key: @autoclosure () -> String) throws -> T {
    let value = self.value
    guard let typed = conditionalCast(value, to: T.self) ?? decodedFromJSON(value, as: T.self) else {
      throw QuarryError.typeMismatch(key: key(), expected: String(describing: T.self), actual: String(describing: Swift.type(of: value)))
    }
    return typed
  }
}

/// A change to a query's state (TanStack's query `Action`).
public enum QueryAction: Sendable {
  /// An attempt failed and will be retried.
  case failed(failureCount: Int, error: any Error)
  /// The fetch paused.
  case pause
  /// The fetch continued.
  case `continue`
  /// A fetch started.
  case fetch(meta: JSONValue?)
  /// Data was written.
  case success(dataUpdatedAt: Double?, manual: Bool)
  /// The fetch failed.
  case error(any Error)
  /// The query was invalidated.
  case invalidate
  /// The state was replaced.
  case setState

  /// TanStack's action `type` string.
  public var type: String {
    switch self {
    case .failed: return "failed"
    case .pause: return "pause"
    case .continue: return "continue"
    case .fetch: return "fetch"
    case .success: return "success"
    case .error: return "error"
    case .invalidate: return "invalidate"
    case .setState: return "setState"
    }
  }
}

/// What a fetch keeps to revert to (TanStack's `#revertState`) while only its own actions have
/// changed the query's state: the members that `.fetch`, `.failed`, `.pause`, `.continue` and
/// `.invalidate` write, as they were when the fetch started. Every other member still holds what
/// it held then, so the state to revert to is the current one with these put back
/// (``QueryState/reverted(to:)``): a fetch copies these few members instead of the whole state
/// (its data, `meta` and boxes retained, and destroyed again at its success).
struct FetchRevert {
  fileprivate let fetchFailureCount: Int
  fileprivate let fetchFailureReasonBox: ErrorBox?
  fileprivate let fetchMeta: DeepReleased<JSONValue?>
  fileprivate let errorBox: ErrorBox?
  fileprivate let isInvalidated: Bool
  fileprivate let status: QueryStatus
  fileprivate let fetchStatus: FetchStatus
}

extension QueryState {
  /// The members a fetch's own actions write, as they are now (``FetchRevert``).
  var fetchRevert: FetchRevert {
    FetchRevert(
      fetchFailureCount: fetchFailureCount, fetchFailureReasonBox: fetchFailureReasonBox, fetchMeta: _fetchMeta,
      errorBox: errorBox, isInvalidated: isInvalidated, status: status, fetchStatus: fetchStatus)
  }

  /// This state with `revert`'s members put back.
  func reverted(to revert: FetchRevert) -> QueryState {
    var state = self
    state.fetchFailureCount = revert.fetchFailureCount
    state.fetchFailureReasonBox = revert.fetchFailureReasonBox
    state._fetchMeta = revert.fetchMeta
    state.errorBox = revert.errorBox
    state.isInvalidated = revert.isInvalidated
    state.status = revert.status
    state.fetchStatus = revert.fetchStatus
    return state
  }
}
