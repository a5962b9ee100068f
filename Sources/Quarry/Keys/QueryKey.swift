/// The identity of a query: an array of JSON-like parts, hashed with TanStack's `hashKey`.
///
/// ```swift
/// let key: QueryKey = ["todos", 1, ["page": 2]]
/// key.queryHash  // ["todos",1,{"page":2}]
/// ```
/// Two keys are equal when their parts are, string by exact code units (see ``JSONValue``).
/// A key may be nested to any depth: hashing, comparing and releasing it never recurse deeply.
public struct QueryKey: Hashable, Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
  /// The parts, inline, or in a box that releases them without recursion (`QueryKey+DeepParts.swift`).
  private(set) var storage: Storage
  /// The parts' structural hash (`JSONValue+StructuralHash.swift`), computed whenever the parts
  /// are set: a key built once and used for many reads and writes is never hashed again.
  package private(set) var structuralHash: Int

  /// The parts of the key, in order.
  public var parts: [JSONValue] {
    get { storage.parts }
    set {
      storage = Storage(newValue)
      structuralHash = JSONValue.structuralHash(of: newValue)
    }
  }

  /// Creates a key from its parts.
  public init(_ parts: [JSONValue]) {
    storage = Storage(parts)
    structuralHash = JSONValue.structuralHash(of: parts)
  }

  /// A key of `storage` whose structural hash the caller computed as
  /// `JSONValue.structuralHash(of:)` does (`JSONValue+StructuralHash.swift`).
  init(storage: Storage, structuralHash: Int) {
    self.storage = storage
    self.structuralHash = structuralHash
  }

  /// Creates a key from an array literal.
  public init(arrayLiteral elements: JSONValue...) {
    storage = Storage(elements)
    structuralHash = JSONValue.structuralHash(of: elements)
  }

  /// TanStack's `hashKey`: `JSON.stringify` of the key with every plain object's members sorted,
  /// enumerated as a JavaScript object enumerates them (array-index names such as `"9"` and `"10"`
  /// first, in numeric order, then the rest by UTF-16 code units); `undefined` members are left out
  /// and `undefined` elements written `null`.
  ///
  /// ```swift
  /// QueryKey([["b": 1, "10": 2, "9": 3, "01": 4]]).queryHash  // [{"9":3,"10":2,"01":4,"b":1}]
  /// ```
  /// Compare hashes by code units (`a.utf8.elementsEqual(b.utf8)`), as the cache does: Swift's
  /// `String ==` calls canonically equivalent hashes equal.
  public var queryHash: String { JSONValue.array(parts).jsonText(order: .javaScriptProperty) }

  /// The key as a JSON array.
  public var jsonValue: JSONValue { .array(parts) }

  /// The query hash.
  public var description: String { queryHash }
}

/// TanStack's `partialMatchKey`: whether `b` is a prefix/subset of `a`.
///
/// Arrays match element by element for `b`'s length; objects match when every member of `b`
/// matches in `a`; anything else matches by equality.
///
/// `partialDeepEqual(.array(a.parts), .array(b.parts))`, taken part by part: each part of `b`
/// matches `a`'s part at its index (`undefined` past `a`'s end), a string or number part
/// compared in place (`===`: the same code units, or `==` on the numbers). Going through
/// `partialDeepEqual` for the whole key copied both sides at every level (about 200
/// instructions per query for a one-string filter).
public func partialMatchKey(_ a: QueryKey, _ b: QueryKey) -> Bool {
  // Read where they lie (both keys are the caller's): `a.parts` and `b.parts` each retained
  // and released the array (about 50 instructions per matched query).
  a.storage.withParts { key in b.storage.withParts { filter in partialMatchParts(key, filter) } }
}

/// ``partialMatchKey(_:_:)`` of the two keys' parts.
@inline(__always)
private func partialMatchParts(_ key: UnsafeBufferPointer<JSONValue>, _ filter: UnsafeBufferPointer<JSONValue>) -> Bool {
  for i in filter.indices {
    switch filter[i] {
    case .string(let wanted):
      guard i < key.count, case .string(let part) = key[i], part.hasSameCodeUnits(as: wanted) else { return false }
    case .number(let wanted):
      guard i < key.count, case .number(let part) = key[i], part == wanted else { return false }
    case let wanted:
      if !partialDeepEqual(i < key.count ? key[i] : .undefined, wanted) { return false }
    }
  }
  return true
}

/// TanStack's `partialMatchKey` over JSON values, as JavaScript evaluates it.
///
/// - Primitives match when `===` (strings by exact code units; `undefined` only `undefined`).
/// - Two arrays: each element of `b` matches `a`'s element at that index (`undefined` past
///   `a`'s end, so a trailing `undefined` in `b` matches a shorter `a`).
/// - Otherwise, when both are arrays or objects, each member of `b` (an array's members are its
///   indices `"0"`, `"1"`, …) matches `a`'s member of that name (an array's `"0"`… are its
///   elements and `"length"` its count; anything absent is `undefined`). So `{}` and `[]` match
///   any array or object, and `{"0": "x"}` matches `["x"]`.
/// - `null` matches only `null`.
///
/// Any depth is safe (past 128 levels it goes on without recursion).
/// Unlike JavaScript, members that `a` inherits from `Object.prototype` or `Array.prototype`
/// (`"toString"`, `"map"`, …) are not seen.
public func partialDeepEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
  partialDeepEqual(a, b, depth: 0)
}

private func partialDeepEqual(_ a: JSONValue, _ b: JSONValue, depth: Int) -> Bool {
  guard depth < JSONValue.recursionLimit else { return partialDeepEqualIteratively(a, b) }
  switch (a, b) {
  case (.null, .null), (.undefined, .undefined): return true
  case (.bool(let x), .bool(let y)): return x == y
  case (.number(let x), .number(let y)): return x == y
  case (.string(let x), .string(let y)): return x.hasSameCodeUnits(as: y)
  case (.array(let x), .array(let y)):
    for i in y.indices where !partialDeepEqual(i < x.count ? x[i] : .undefined, y[i], depth: depth + 1) { return false }
    return true
  case (.array, .object), (.object, .object):
    for (name, value) in b.objectValue! where !partialDeepEqual(a.javaScriptMember(name), value, depth: depth + 1) { return false }
    return true
  case (.object, .array(let y)):
    for i in y.indices where !partialDeepEqual(a.javaScriptMember(String(i)), y[i], depth: depth + 1) { return false }
    return true
  default: return false
  }
}

private func partialDeepEqualIteratively(_ a: JSONValue, _ b: JSONValue) -> Bool {
  var pending: [(JSONValue, JSONValue)] = [(a, b)]
  while let (a, b) = pending.popLast() {
    switch (a, b) {
    case (.null, .null), (.undefined, .undefined): continue
    case (.bool(let x), .bool(let y)): if x != y { return false }
    case (.number(let x), .number(let y)): if x != y { return false }
    case (.string(let x), .string(let y)): if !x.hasSameCodeUnits(as: y) { return false }
    case (.array(let x), .array(let y)):
      for i in y.indices { pending.append((i < x.count ? x[i] : .undefined, y[i])) }
    case (.array, .object), (.object, .object):
      for (name, value) in b.objectValue! { pending.append((a.javaScriptMember(name), value)) }
    case (.object, .array(let y)):
      for i in y.indices { pending.append((a.javaScriptMember(String(i)), y[i])) }
    default: return false
    }
  }
  return true
}

extension JSONValue {
  /// `value[name]` in JavaScript for an array or object (own members only), `undefined` if absent.
  func javaScriptMember(_ name: String) -> JSONValue {
    switch self {
    case .object(let members): return members.exactMember(name) ?? .undefined
    case .array(let items):
      if name == "length" { return .number(Double(items.count)) }
      if let i = JSONValue.arrayIndex(name), Int(i) < items.count { return items[Int(i)] }
      return .undefined
    default: return .undefined
    }
  }
}
