import Quarry

/// Reads a step's arguments, throwing a ``FixtureError`` that names the JSON path.
struct ArgumentReader {
  let file: String
  let path: String
  let members: [String: JSONValue]

  init(_ value: JSONValue?, file: String, path: String) throws {
    self.file = file
    self.path = path
    guard let value else { self.members = [:]; return }
    guard case .object(let o) = value else { throw FixtureError(file: file, path: path, expected: "expected an object") }
    self.members = o
  }

  func fail(_ member: String?, _ expected: String) -> FixtureError {
    FixtureError(file: file, path: member.map { "\(path).\($0)" } ?? path, expected: expected)
  }

  func has(_ name: String) -> Bool { members[name] != nil }
  subscript(name: String) -> JSONValue? { members[name] }

  func string(_ name: String) throws -> String {
    guard case .string(let s)? = members[name] else { throw fail(name, "expected a string") }
    return s
  }

  func bool(_ name: String) throws -> Bool {
    guard case .bool(let b)? = members[name] else { throw fail(name, "expected a boolean") }
    return b
  }

  func optionalBool(_ name: String) throws -> Bool? {
    guard members[name] != nil else { return nil }
    return try bool(name)
  }

  func number(_ name: String) throws -> Double {
    guard case .number(let n)? = members[name] else { throw fail(name, "expected a number") }
    return n
  }

  func queryKey(_ name: String = "queryKey") throws -> QueryKey {
    guard case .array(let parts)? = members[name] else { throw fail(name, "expected a query key (an array)") }
    return QueryKey(parts.map(fixtureElement))
  }

  func nested(_ name: String) throws -> ArgumentReader? {
    guard let v = members[name] else { return nil }
    return try ArgumentReader(v, file: file, path: "\(path).\(name)")
  }
}

/// A recipe `{"$fn": name, ...}`, if `value` is one.
func recipe(_ value: JSONValue?) -> (name: String, args: [String: JSONValue])? {
  guard case .object(let o)? = value, case .string(let name)? = o["$fn"] else { return nil }
  return (name, o)
}

/// Whether `value` is `{"$undefined": true}`.
func isUndefinedMarker(_ value: JSONValue?) -> Bool {
  guard case .object(let o)? = value, o.count == 1, o["$undefined"] == .bool(true) else { return false }
  return true
}

/// Fixture data as the engine sees it: `{"$undefined":true}` is `undefined`: `nil` at the top,
/// `JSONValue.undefined` inside arrays and objects (an array element or a member set to undefined).
func fixtureValue(_ value: JSONValue?) -> JSONValue? {
  guard let value else { return Optional<JSONValue>.none }
  if isUndefinedMarker(value) { return Optional<JSONValue>.none }
  return fixtureData(value)
}

/// `fixtureValue` below the top level.
func fixtureData(_ value: JSONValue) -> JSONValue {
  // Rebuilt even without a marker: each call's arrays and objects are new, as the node runner's
  // are (structural sharing tells a shared storage from an equal one: observer-027, select-013).
  switch value {
  case .array(let items): return .array(items.map(fixtureElement))
  case .object(let members): return .object(members.mapValues(fixtureElement))
  default: return value
  }
}

/// `fixtureValue` of an array element or object member: `{"$undefined":true}` is `.undefined`.
func fixtureElement(_ value: JSONValue) -> JSONValue { fixtureValue(value) ?? .undefined }
