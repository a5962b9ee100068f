import Quarry

/// The error a scripted function throws: an `Error` with a message, like JavaScript's.
struct ScriptError: Error, CustomStringConvertible, Equatable {
  var message: String
  var description: String { message }
}

/// How the trace writes values, states and results (see `Specs/README.md`, Trace).
enum TraceValues {
  /// Engine data as JSON; `nil` is `undefined`.
  static func json(_ value: (any Sendable)?) -> JSONValue? {
    guard let value else { return nil }
    if let json = value as? JSONValue { return json }
    if let json = value as? JSONValue? { return json }
    return .string(String(describing: value))
  }

  /// An error as its message (`CancelledError` for a cancellation).
  static func errorText(_ error: (any Error)?) -> JSONValue {
    guard let error else { return .null }
    switch error {
    case let e as ScriptError: return .string(e.message)
    case is CancelledError: return "CancelledError"
    case let e as QuarryError: return .string(e.description)
    default: return .string(String(describing: error))
    }
  }

  /// A query state, with TanStack's state names.
  static func state(_ s: QueryState) -> JSONValue {
    var o: [String: JSONValue] = [
      "status": .string(s.status.rawValue),
      "fetchStatus": .string(s.fetchStatus.rawValue),
      "dataUpdatedAt": .number(s.dataUpdatedAt),
      "dataUpdateCount": .number(Double(s.dataUpdateCount)),
      "error": errorText(s.error),
      "errorUpdatedAt": .number(s.errorUpdatedAt),
      "errorUpdateCount": .number(Double(s.errorUpdateCount)),
      "fetchFailureCount": .number(Double(s.fetchFailureCount)),
      "fetchFailureReason": errorText(s.fetchFailureReason),
      "isInvalidated": .bool(s.isInvalidated),
    ]
    if let data = json(s.data) { o["data"] = data }
    return .object(o)
  }

  /// An observer result.
  static func result(_ r: QueryObserverResult) -> JSONValue {
    var o: [String: JSONValue] = [
      "status": .string(r.status.rawValue),
      "fetchStatus": .string(r.fetchStatus.rawValue),
      "error": errorText(r.error),
      "dataUpdatedAt": .number(r.dataUpdatedAt),
      "errorUpdatedAt": .number(r.errorUpdatedAt),
      "errorUpdateCount": .number(Double(r.errorUpdateCount)),
      "failureCount": .number(Double(r.failureCount)),
      "failureReason": errorText(r.failureReason),
      "isPending": .bool(r.isPending),
      "isSuccess": .bool(r.isSuccess),
      "isError": .bool(r.isError),
      "isLoading": .bool(r.isLoading),
      "isFetching": .bool(r.isFetching),
      "isRefetching": .bool(r.isRefetching),
      "isLoadingError": .bool(r.isLoadingError),
      "isRefetchError": .bool(r.isRefetchError),
      "isFetched": .bool(r.isFetched),
      "isFetchedAfterMount": .bool(r.isFetchedAfterMount),
      "isPaused": .bool(r.isPaused),
      "isPlaceholderData": .bool(r.isPlaceholderData),
      "isStale": .bool(r.isStale),
      "isEnabled": .bool(r.isEnabled),
    ]
    if let data = json(r.data) { o["data"] = data }
    return .object(o)
  }

  /// JSON text for messages; `undefined` for `nil` (and for `.undefined`, as run.mjs's `show`).
  static func show(_ value: JSONValue?) -> String {
    guard let value, !value.isUndefined else { return "undefined" }
    return value.canonicalJSON
  }
}

extension JSONValue {
  /// JavaScript's truthiness: `false`, `0`, `""`, `null` and `undefined` are falsy.
  var isTruthy: Bool {
    switch self {
    case .null, .undefined: return false
    case .bool(let b): return b
    case .number(let n): return n != 0 && !n.isNaN
    case .string(let s): return !s.isEmpty
    case .array, .object: return true
    }
  }
}
