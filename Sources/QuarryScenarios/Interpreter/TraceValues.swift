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
    let data = json(s.data)
    var values: [JSONValue] = [
      .string(s.status.rawValue),
      .string(s.fetchStatus.rawValue),
      .number(s.dataUpdatedAt),
      .number(Double(s.dataUpdateCount)),
      errorText(s.error),
      .number(s.errorUpdatedAt),
      .number(Double(s.errorUpdateCount)),
      .number(Double(s.fetchFailureCount)),
      errorText(s.fetchFailureReason),
      .bool(s.isInvalidated),
    ]
    if let data { values.append(data) }
    return .object((data == nil ? stateTemplate : stateWithDataTemplate).object(values))
  }

  /// A query state's members, in `state`'s order of values.
  static let stateFields = [
    "status", "fetchStatus", "dataUpdatedAt", "dataUpdateCount", "error", "errorUpdatedAt", "errorUpdateCount",
    "fetchFailureCount", "fetchFailureReason", "isInvalidated",
  ]
  static let stateTemplate = ObjectTemplate(stateFields)
  static let stateWithDataTemplate = ObjectTemplate(stateFields + ["data"])

  /// An observer result.
  static func result(_ r: QueryObserverResult) -> JSONValue {
    let data = json(r.data)
    var values: [JSONValue] = [
      .string(r.status.rawValue),
      .string(r.fetchStatus.rawValue),
      errorText(r.error),
      .number(r.dataUpdatedAt),
      .number(r.errorUpdatedAt),
      .number(Double(r.errorUpdateCount)),
      .number(Double(r.failureCount)),
      errorText(r.failureReason),
      .bool(r.isPending),
      .bool(r.isSuccess),
      .bool(r.isError),
      .bool(r.isLoading),
      .bool(r.isFetching),
      .bool(r.isRefetching),
      .bool(r.isLoadingError),
      .bool(r.isRefetchError),
      .bool(r.isFetched),
      .bool(r.isFetchedAfterMount),
      .bool(r.isPaused),
      .bool(r.isPlaceholderData),
      .bool(r.isStale),
      .bool(r.isEnabled),
    ]
    if let data { values.append(data) }
    if let flags = r.infinite {
      for value in infiniteFlagValues(flags) { values.append(.bool(value)) }
    }
    return .object(resultTemplate(r, hasData: data != nil).object(values))
  }

  /// The template `result` makes `r`'s object from.
  static func resultTemplate(_ r: QueryObserverResult, hasData: Bool) -> ObjectTemplate {
    r.infinite == nil
      ? (hasData ? resultWithDataTemplate : resultTemplate)
      : (hasData ? infiniteResultWithDataTemplate : infiniteResultTemplate)
  }

  /// An observer result's members, in `result`'s order of values.
  static let resultFields = [
    "status", "fetchStatus", "error", "dataUpdatedAt", "errorUpdatedAt", "errorUpdateCount", "failureCount",
    "failureReason", "isPending", "isSuccess", "isError", "isLoading", "isFetching", "isRefetching", "isLoadingError",
    "isRefetchError", "isFetched", "isFetchedAfterMount", "isPaused", "isPlaceholderData", "isStale", "isEnabled",
  ]
  /// The members an infinite observer's result adds, in `infiniteFlagValues`' order.
  static let infiniteFlagNames = [
    "hasNextPage", "hasPreviousPage", "isFetchingNextPage", "isFetchingPreviousPage", "isFetchNextPageError",
    "isFetchPreviousPageError",
  ]
  static let resultTemplate = ObjectTemplate(resultFields)
  static let resultWithDataTemplate = ObjectTemplate(resultFields + ["data"])
  static let infiniteResultTemplate = ObjectTemplate(resultFields + infiniteFlagNames)
  static let infiniteResultWithDataTemplate = ObjectTemplate(resultFields + ["data"] + infiniteFlagNames)

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

  /// The values of the members an infinite observer's result adds, in `infiniteFlagNames`' order.
  static func infiniteFlagValues(_ f: InfiniteQueryFlags) -> [Bool] {
    [f.hasNextPage, f.hasPreviousPage, f.isFetchingNextPage, f.isFetchingPreviousPage, f.isFetchNextPageError,
     f.isFetchPreviousPageError]
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

/// An object whose member names are fixed: its dictionary is made once, and each object copies
/// it and writes its values at the template's positions, hashing no name (a 22-member dictionary
/// literal hashed every name: about 10,800 instructions an observer result).
struct ObjectTemplate: Sendable {
  /// The names, each holding `null`.
  let members: [String: JSONValue]
  /// Each name's position in `members`, in the order the template was given them.
  let positions: [Dictionary<String, JSONValue>.Index]

  /// The positions of `members` in the canonical order (by `JSONValue.jsKeyOrder`): where a
  /// copy's members are written.
  let sortedPositions: [Dictionary<String, JSONValue>.Index]

  init(_ names: [String]) {
    let members = Dictionary(uniqueKeysWithValues: names.map { ($0, JSONValue.null) })
    self.members = members
    positions = names.map { members.index(forKey: $0)! }
    sortedPositions = names.sorted(by: JSONValue.jsKeyOrder).map { members.index(forKey: $0)! }
  }

  /// The object with `values`, given in the template's order of names. A copy of `members`
  /// keeps its layout (the same storage size, seed and age), so the positions hold in it.
  func object(_ values: [JSONValue]) -> [String: JSONValue] {
    precondition(values.count == positions.count, "one value per name")
    var object = members
    for i in values.indices { object.values[positions[i]] = values[i] }
    return object
  }
}

/// A trace event's members in the order they were set: written by
/// `JSONValue.canonicalJSON(ofMembers:)`, which sorts their names without hashing them (events
/// built as dictionaries hashed every name, then the writer sorted them).
struct TraceEvent: ExpressibleByDictionaryLiteral {
  typealias Order = [Dictionary<String, JSONValue>.Index]
  var members: [(name: String, value: JSONValue, order: Order?)]

  /// An event of these members (a literal's names are distinct: a dictionary literal traps on a
  /// repeated one).
  init(dictionaryLiteral elements: (String, JSONValue)...) {
    members = []
    members.reserveCapacity(elements.count + 3)
    for (name, value) in elements { members.append((name, value, nil)) }
  }

  /// A member's value; setting one replaces a member of that name or adds it, `nil` removes it
  /// (a dictionary's semantics).
  subscript(name: String) -> JSONValue? {
    get { members.first { TraceEvent.same($0.name, name) }?.value }
    set {
      if let i = members.firstIndex(where: { TraceEvent.same($0.name, name) }) {
        if let newValue { members[i] = (name, newValue, nil) } else { members.remove(at: i) }
      } else if let newValue {
        members.append((name, newValue, nil))
      }
    }
  }

  /// Sets member `name` to an object made by `template`, whose members are written in the
  /// template's sorted order without sorting them again.
  mutating func set(_ name: String, _ value: JSONValue, madeBy template: ObjectTemplate) {
    self[name] = value
    let i = members.firstIndex { TraceEvent.same($0.name, name) }!
    members[i].order = template.sortedPositions
  }

  /// Whether two names are equal: their UTF-8 lengths first (names of events differ in length
  /// more often than not, and `==` of two different strings costs a comparison call).
  static func same(_ a: String, _ b: String) -> Bool {
    a.utf8.count == b.utf8.count && a == b
  }

  /// The canonical JSON text, as `JSONValue.object` of the same members writes it.
  var canonicalJSON: String { JSONValue.canonicalJSON(ofMembers: members) }
}
