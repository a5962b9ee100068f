import Quarry

/// The error a scripted function throws: an `Error` with a message, like JavaScript's.
struct ScriptError: Error, CustomStringConvertible, Equatable {
  var message: String
  var description: String { message }
}

/// What a scripted function rejects with when it rejects with a value that is not an `Error`.
struct ScriptRejection: Error, Equatable {
  var value: JSONValue
}

/// How the trace writes values, states and results (see `Specs/README.md`, Trace).
enum TraceValues {
  /// Engine data as JSON; `nil` is `undefined`.
  static func json(_ value: (any Sendable)?) -> JSONValue? {
    guard let value else { return nil }
    if let json = value as? JSONValue { return json }
    if let json = value as? JSONValue? { return json }
    if let infinite = value as? InfiniteData {
      return ["pages": .array(infinite.pages.map { json($0) ?? .null }), "pageParams": .array(infinite.pageParams.map { $0 ?? .null })]
    }
    return .string(String(describing: value))
  }

  /// An error as its message (`CancelledError` for a cancellation).
  static func errorText(_ error: (any Error)?) -> JSONValue {
    guard let error else { return .null }
    switch error {
    case let e as ScriptError: return .string(e.message)
    case let e as ScriptRejection: return e.value
    case is CancelledError: return "CancelledError"
    case let e as QuarryError: return .string(e.description)
    case let e as DehydratedError: return e.json
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
    if let flags = r.infinite {
      for (name, value) in infiniteFlags(flags) { o[name] = .bool(value) }
    }
    return .object(o)
  }

  /// A mutation state, with TanStack's state names.
  static func mutationState(_ s: MutationState) -> JSONValue {
    var o: [String: JSONValue] = [
      "status": .string(s.status.rawValue),
      "isPaused": .bool(s.isPaused),
      "error": errorText(s.error),
      "failureCount": .number(Double(s.failureCount)),
      "failureReason": errorText(s.failureReason),
      "submittedAt": .number(s.submittedAt),
    ]
    if let data = json(s.data) { o["data"] = data }
    if let variables = json(s.variables) { o["variables"] = variables }
    if let context = json(s.context) { o["context"] = context }
    return .object(o)
  }

  /// A mutation observer result.
  static func mutationResult(_ r: MutationObserverResult) -> JSONValue {
    guard case .object(var o) = mutationState(r.state) else { return .null }
    o["isIdle"] = .bool(r.isIdle)
    o["isPending"] = .bool(r.isPending)
    o["isSuccess"] = .bool(r.isSuccess)
    o["isError"] = .bool(r.isError)
    return .object(o)
  }

  /// The fields an infinite observer's result adds.
  static func infiniteFlags(_ f: InfiniteQueryFlags) -> [(String, Bool)] {
    [("hasNextPage", f.hasNextPage), ("hasPreviousPage", f.hasPreviousPage),
     ("isFetchingNextPage", f.isFetchingNextPage), ("isFetchingPreviousPage", f.isFetchingPreviousPage),
     ("isFetchNextPageError", f.isFetchNextPageError), ("isFetchPreviousPageError", f.isFetchPreviousPageError)]
  }

  /// JSON text for messages; `undefined` for `nil` (and for `.undefined`, as the node harness's `show` (Interpreter/TraceValues.mjs)).
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
