/// A query's data status (TanStack's `status`).
public enum QueryStatus: String, Sendable, Equatable {
  /// No data yet.
  case pending
  /// The last fetch or write succeeded.
  case success
  /// The last fetch failed.
  case error
}

/// Whether a query function is running (TanStack's `fetchStatus`).
public enum FetchStatus: String, Sendable, Equatable {
  /// Running.
  case fetching
  /// Wants to run but waits for focus or connectivity.
  case paused
  /// Not running.
  case idle
}

/// When a query may run with respect to connectivity (TanStack's `networkMode`).
public enum NetworkMode: String, Sendable, Equatable {
  /// Only online; pauses while offline.
  case online
  /// Always runs, ignoring connectivity.
  case always
  /// Runs the first attempt, then pauses retries while offline.
  case offlineFirst
}

/// How long data stays fresh (TanStack's `staleTime`).
public enum StaleTime: Sendable, Equatable {
  /// Milliseconds; `.infinity` never goes stale by time (but can be invalidated).
  case milliseconds(Double)
  /// Never stale: skips every refetch, even invalidation.
  case `static`
}

/// Thrown into a fetch that was cancelled (TanStack's `CancelledError`).
public struct CancelledError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Whether the query reverts to its state before the fetch.
  public var revert: Bool
  /// Whether the cancellation is silent (a new fetch takes over).
  public var silent: Bool
  /// Creates the error.
  public init(revert: Bool = false, silent: Bool = false) {
    self.revert = revert
    self.silent = silent
  }
  /// `CancelledError`, as in TanStack.
  public var description: String { "CancelledError" }
}

/// Errors raised by the engine itself.
public enum QuarryError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Data of one type was read as another.
  case typeMismatch(key: String, expected: String, actual: String)
  /// A query has no query function (`Missing queryFn: '<hash>'`).
  case missingQueryFn(queryHash: String)
  /// A query function returned no value (`<hash> data is undefined`).
  case undefinedData(queryHash: String)
  /// A query function was `skipToken` when a fetch was forced.
  case skipToken(queryHash: String)
  /// A mutation has no mutation function (`No mutationFn found`).
  case missingMutationFn

  /// TanStack's message for the same error.
  public var description: String {
    switch self {
    case .typeMismatch(let key, let expected, let actual):
      return "\(key) holds \(actual), not \(expected)"
    case .missingQueryFn(let hash): return "Missing queryFn: '\(hash)'"
    case .undefinedData(let hash): return "\(hash) data is undefined"
    case .missingMutationFn: return "No mutationFn found"
    case .skipToken(let hash): return "Attempted to invoke queryFn when set to skipToken. This is likely a configuration error. Query hash: '\(hash)'"
    }
  }
}

/// Options for cancelling a fetch (TanStack's `CancelOptions`).
public struct CancelOptions: Sendable, Equatable {
  /// Revert to the state before the fetch.
  public var revert: Bool?
  /// Cancel silently.
  public var silent: Bool?
  /// Creates cancel options.
  public init(revert: Bool? = nil, silent: Bool? = nil) {
    self.revert = revert
    self.silent = silent
  }
}

/// Options for a fetch started by a refetch (TanStack's `RefetchOptions`).
public struct RefetchOptions: Sendable, Equatable {
  /// Cancel a running fetch first (default `true`).
  public var cancelRefetch: Bool?
  /// Reject the returned promise on error instead of swallowing it.
  public var throwOnError: Bool?
  /// Creates refetch options.
  public init(cancelRefetch: Bool? = nil, throwOnError: Bool? = nil) {
    self.cancelRefetch = cancelRefetch
    self.throwOnError = throwOnError
  }
}
