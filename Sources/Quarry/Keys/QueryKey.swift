/// The identity of a query: an array of JSON-like parts, hashed with TanStack's `hashKey`.
///
/// ```swift
/// let key: QueryKey = ["todos", 1, ["page": 2]]
/// key.queryHash  // ["todos",1,{"page":2}]
/// ```
public struct QueryKey: Hashable, Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
  /// The parts of the key, in order.
  public var parts: [JSONValue]

  /// Creates a key from its parts.
  public init(_ parts: [JSONValue]) { self.parts = parts }

  /// Creates a key from an array literal.
  public init(arrayLiteral elements: JSONValue...) { self.parts = elements }

  /// TanStack's `hashKey`: the key as JSON with object keys sorted.
  public var queryHash: String { JSONValue.array(parts).canonicalJSON }

  /// The key as a JSON array.
  public var jsonValue: JSONValue { .array(parts) }

  /// The query hash.
  public var description: String { queryHash }
}

/// TanStack's `partialMatchKey`: whether `b` is a prefix/subset of `a`.
///
/// Arrays match element by element for `b`'s length; objects match when every key of `b`
/// matches in `a`; anything else matches by equality.
public func partialMatchKey(_ a: QueryKey, _ b: QueryKey) -> Bool {
  partialDeepEqual(.array(a.parts), .array(b.parts))
}

/// TanStack's `partialDeepEqual` over JSON values.
public func partialDeepEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
  if a == b { return true }
  switch (a, b) {
  case (.array(let x), .array(let y)):
    // JavaScript compares arrays as objects: every index of `b` must match in `a`.
    guard y.count <= x.count else { return false }
    for (i, item) in y.enumerated() where !partialDeepEqual(x[i], item) { return false }
    return true
  case (.object(let x), .object(let y)):
    for (key, value) in y {
      guard let other = x[key], partialDeepEqual(other, value) else { return false }
    }
    return true
  default:
    return false
  }
}
