import Foundation

/// The snapshot's JSON form: TanStack's `JSON.stringify(dehydrate(client))`.
extension DehydratedState: Codable {
  /// The snapshot as JSON. Throws ``HydrationError/notEncodable(type:)`` for a value that cannot
  /// be written.
  public func json() throws -> JSONValue {
    .object([
      "mutations": .array(try mutations.map { try $0.json() }),
      "queries": .array(try queries.map { try $0.json() }),
    ])
  }

  /// Reads a snapshot from its JSON; missing `queries`/`mutations` count as empty.
  public init(json: JSONValue) throws {
    guard case .object(let o) = json else { throw HydrationError.malformed("expected an object") }
    self.init(
      mutations: try Self.list(o["mutations"], "mutations").map(DehydratedMutation.init(json:)),
      queries: try Self.list(o["queries"], "queries").map(DehydratedQuery.init(json:)))
  }

  private static func list(_ value: JSONValue?, _ name: String) throws -> [JSONValue] {
    switch value {
    case nil, .null?, .undefined?: return []
    case .array(let items)?: return items
    default: throw HydrationError.malformed("\(name) is not an array")
    }
  }

  /// Reads the snapshot's JSON.
  public init(from decoder: any Decoder) throws {
    try self.init(json: JSONValue(from: decoder))
  }

  /// Writes the snapshot's JSON.
  public func encode(to encoder: any Encoder) throws {
    try json().encode(to: encoder)
  }
}

extension DehydratedQuery {
  func json() throws -> JSONValue {
    var o: [String: JSONValue] = [
      "queryHash": .string(queryHash),
      "queryKey": queryKey.jsonValue,
      "state": try state.json(),
    ]
    if let dehydratedAt { o["dehydratedAt"] = .number(dehydratedAt) }
    if hasPromise { o["promise"] = .object([:]) }
    if let meta { o["meta"] = meta }
    if let queryType { o["queryType"] = .string(queryType) }
    return .object(o)
  }

  init(json: JSONValue) throws {
    guard case .object(let o) = json, case .string(let hash)? = o["queryHash"], case .array(let key)? = o["queryKey"] else {
      throw HydrationError.malformed("a query needs queryHash and queryKey")
    }
    self.init(
      queryHash: hash, queryKey: QueryKey(key), state: try QueryState(json: o["state"] ?? .null),
      meta: o["meta"].flatMap { $0.isUndefined ? nil : $0 }, queryType: o["queryType"]?.stringValue,
      dehydratedAt: o["dehydratedAt"]?.numberValue)
    // A promise does not survive JSON (TanStack writes `{}`); the query is restored without it.
    hasPromise = o["promise"] != nil
  }
}

extension DehydratedMutation {
  func json() throws -> JSONValue {
    var o: [String: JSONValue] = ["state": try state.json()]
    if let mutationKey { o["mutationKey"] = mutationKey.jsonValue }
    if let scope { o["scope"] = ["id": .string(scope.id)] }
    if let meta { o["meta"] = meta }
    return .object(o)
  }

  init(json: JSONValue) throws {
    guard case .object(let o) = json else { throw HydrationError.malformed("a mutation is not an object") }
    self.init(
      mutationKey: o["mutationKey"]?.arrayValue.map(QueryKey.init),
      state: try MutationState(json: o["state"] ?? .null),
      meta: o["meta"].flatMap { $0.isUndefined ? nil : $0 },
      scope: o["scope"]?["id"]?.stringValue.map(MutationScope.init(id:)))
  }
}

extension QueryState {
  /// The state as TanStack's JSON (`data` absent when undefined; errors as `{}`).
  func json() throws -> JSONValue {
    var o: [String: JSONValue] = [
      "dataUpdateCount": .number(Double(dataUpdateCount)),
      "dataUpdatedAt": .number(dataUpdatedAt),
      "error": error.map(JSONValue.encoding(error:)) ?? .null,
      "errorUpdateCount": .number(Double(errorUpdateCount)),
      "errorUpdatedAt": .number(errorUpdatedAt),
      "fetchFailureCount": .number(Double(fetchFailureCount)),
      "fetchFailureReason": fetchFailureReason.map(JSONValue.encoding(error:)) ?? .null,
      "fetchMeta": fetchMeta ?? .null,
      "isInvalidated": .bool(isInvalidated),
      "status": .string(status.rawValue),
      "fetchStatus": .string(fetchStatus.rawValue),
    ]
    if let data { o["data"] = try JSONValue(encoding: data) }
    return .object(o)
  }

  init(json: JSONValue) throws {
    guard case .object(let o) = json else { throw HydrationError.malformed("a state is not an object") }
    self.init()
    if let data = o["data"], !data.isUndefined { dataBox = DataBox(data) }
    dataUpdateCount = Int(o["dataUpdateCount"]?.numberValue ?? 0)
    dataUpdatedAt = o["dataUpdatedAt"]?.numberValue ?? 0
    error = Self.error(o["error"])
    errorUpdateCount = Int(o["errorUpdateCount"]?.numberValue ?? 0)
    errorUpdatedAt = o["errorUpdatedAt"]?.numberValue ?? 0
    fetchFailureCount = Int(o["fetchFailureCount"]?.numberValue ?? 0)
    fetchFailureReason = Self.error(o["fetchFailureReason"])
    if let meta = o["fetchMeta"], !meta.isNull, !meta.isUndefined { fetchMeta = meta }
    isInvalidated = o["isInvalidated"]?.boolValue ?? false
    guard let status = QueryStatus(rawValue: o["status"]?.stringValue ?? "pending") else {
      throw HydrationError.malformed("unknown query status \(o["status"]!.canonicalJSON)")
    }
    self.status = status
    fetchStatus = FetchStatus(rawValue: o["fetchStatus"]?.stringValue ?? "idle") ?? .idle
  }

  static func error(_ json: JSONValue?) -> (any Error)? {
    guard let json, !json.isNull, !json.isUndefined else { return nil }
    return DehydratedError(json: json)
  }
}

extension MutationState {
  /// The state as TanStack's JSON (`context`, `data`, `variables` absent when undefined).
  func json() throws -> JSONValue {
    var o: [String: JSONValue] = [
      "error": error.map(JSONValue.encoding(error:)) ?? .null,
      "failureCount": .number(Double(failureCount)),
      "failureReason": failureReason.map(JSONValue.encoding(error:)) ?? .null,
      "isPaused": .bool(isPaused),
      "status": .string(status.rawValue),
      "submittedAt": .number(submittedAt),
    ]
    if let context { o["context"] = try JSONValue(encoding: context) }
    if let data { o["data"] = try JSONValue(encoding: data) }
    if let variables { o["variables"] = try JSONValue(encoding: variables) }
    return .object(o)
  }

  init(json: JSONValue) throws {
    guard case .object(let o) = json else { throw HydrationError.malformed("a mutation state is not an object") }
    self.init()
    func value(_ name: String) -> JSONValue? { o[name].flatMap { $0.isUndefined ? nil : $0 } }
    context = value("context")
    data = value("data")
    variables = value("variables")
    error = QueryState.error(o["error"])
    failureReason = QueryState.error(o["failureReason"])
    failureCount = Int(o["failureCount"]?.numberValue ?? 0)
    isPaused = o["isPaused"]?.boolValue ?? false
    guard let status = MutationStatus(rawValue: o["status"]?.stringValue ?? "idle") else {
      throw HydrationError.malformed("unknown mutation status \(o["status"]!.canonicalJSON)")
    }
    self.status = status
    submittedAt = o["submittedAt"]?.numberValue ?? 0
  }
}
