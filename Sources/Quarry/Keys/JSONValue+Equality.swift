import Foundation

/// Equality and hashing by exact code units, without recursion.
extension JSONValue {
  /// Whether two values are the same JSON: strings and member names by their exact code units
  /// (JavaScript's `===`, not Swift's canonical equivalence), numbers by value (`-0 == 0`), arrays
  /// in order, objects by members. `undefined` equals only `undefined`.
  ///
  /// ```swift
  /// JSONValue.string("caf\u{E9}") == .string("cafe\u{301}")  // false
  /// ```
  /// Any depth is compared safely: past `recursionLimit` levels without recursion.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { equal(lhs, rhs, depth: 0) }

  /// Inlined where it is called (into `==`, and so into `[JSONValue] ==`, a key's comparison),
  /// so that scalars, most of a key's parts, compare in place; arrays and objects go on in
  /// ``equalContainers(_:_:depth:)``.
  @inline(__always)
  private static func equal(_ a: JSONValue, _ b: JSONValue, depth: Int) -> Bool {
    switch a {
    case .null: if case .null = b { return true } else { return false }
    case .undefined: if case .undefined = b { return true } else { return false }
    case .bool(let x): if case .bool(let y) = b { return x == y } else { return false }
    case .number(let x): if case .number(let y) = b { return x == y } else { return false }
    case .string(let x): if case .string(let y) = b { return x.hasSameCodeUnits(as: y) } else { return false }
    case .array, .object: return equalContainers(a, b, depth: depth)
    }
  }

  /// ``equal(_:_:depth:)`` of an array or object with `b`.
  @inline(never)
  private static func equalContainers(_ a: JSONValue, _ b: JSONValue, depth: Int) -> Bool {
    guard depth < recursionLimit else { return equalIteratively(a, b) }
    switch (a, b) {
    case (.array(let x), .array(let y)):
      guard x.count == y.count else { return false }
      for i in x.indices where !equal(x[i], y[i], depth: depth + 1) { return false }
      return true
    case (.object(let x), .object(let y)):
      guard x.count == y.count else { return false }
      if x.count <= smallObjectCount { return equalSmallObjects(x, y, depth: depth) }
      for (key, value) in x {
        guard let other = y.exactMember(key), equal(value, other, depth: depth + 1) else { return false }
      }
      return true
    default: return false
    }
  }

  /// Up to how many members two objects are compared by scanning for each member's name rather
  /// than looking it up (which hashes the name with SipHash).
  private static let smallObjectCount = 8

  /// Two objects of the same count (at most `smallObjectCount`) compared member by member, by
  /// names' code units. A dictionary's names are distinct even under canonical equivalence, so
  /// at most one of `y`'s has a given name's code units, as `exactMember` finds.
  private static func equalSmallObjects(_ x: [String: JSONValue], _ y: [String: JSONValue], depth: Int) -> Bool {
    if x.count == 1 {
      // One member each (a key's `["page": n]`): one comparison, without scanning `y` again.
      for (key, value) in x {
        for (name, other) in y { return name.hasSameCodeUnits(as: key) && equal(value, other, depth: depth + 1) }
      }
    }
    // In step: two objects built alike (the same names written in the same order into tables
    // of the same seed, as a typed key built again is) enumerate their members in the same
    // order, so each of `x`'s names is `y`'s at the same place. A member of the same name and
    // another value decides at once; names apart in step leave it to the scan.
    var members = y.makeIterator()
    for (key, value) in x {
      guard let (name, other) = members.next(), name.hasSameCodeUnits(as: key) else {
        return equalSmallObjectsByScan(x, y, depth: depth)
      }
      if !equal(value, other, depth: depth + 1) { return false }
    }
    return true
  }

  /// ``equalSmallObjects(_:_:depth:)`` of objects whose members are not in step: each of `x`'s
  /// names looked for among `y`'s.
  private static func equalSmallObjectsByScan(_ x: [String: JSONValue], _ y: [String: JSONValue], depth: Int) -> Bool {
    for (key, value) in x {
      var other: JSONValue?
      for (name, candidate) in y where name.hasSameCodeUnits(as: key) {
        other = candidate
        break
      }
      guard let other, equal(value, other, depth: depth + 1) else { return false }
    }
    return true
  }

  private static func equalIteratively(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
    var pending: [(JSONValue, JSONValue)] = [(lhs, rhs)]
    while let (a, b) = pending.popLast() {
      switch (a, b) {
      case (.null, .null), (.undefined, .undefined): continue
      case (.bool(let x), .bool(let y)): if x != y { return false }
      case (.number(let x), .number(let y)): if x != y { return false }
      case (.string(let x), .string(let y)): if !x.hasSameCodeUnits(as: y) { return false }
      case (.array(let x), .array(let y)):
        guard x.count == y.count else { return false }
        for i in x.indices { pending.append((x[i], y[i])) }
      case (.object(let x), .object(let y)):
        guard x.count == y.count else { return false }
        for (key, value) in x {
          guard let other = y.exactMember(key) else { return false }
          pending.append((value, other))
        }
      default: return false
      }
    }
    return true
  }

  /// How many levels of arrays and objects `hash(into:)` looks into; deeper parts are hashed by
  /// their size only (equal values still hash equally, and equality decides).
  static let hashedDepth = 4

  /// Hashes the value consistently with `==` (exact code units; `-0` and `0` alike; object
  /// members in any order): its structural hash (`JSONValue+StructuralHash.swift`).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(structuralHash)
  }
}

extension Dictionary where Key == String {
  /// The value whose key has exactly `key`'s code units (a `Dictionary` lookup alone matches
  /// canonically equivalent strings too).
  func exactMember(_ key: String) -> Value? {
    guard let index = self.index(forKey: key), self[index].key.hasSameCodeUnits(as: key) else { return nil }
    return self[index].value
  }
}

extension String {
  /// Whether two strings have the same code units (JavaScript's `===`), unlike `==`, which
  /// compares by Unicode canonical equivalence.
  @inline(__always)
  func hasSameCodeUnits(as other: String) -> Bool {
    // The same bits are the same string (a value is its bits): a key's small strings, and copies
    // of one stored string, are told equal without reading their code units.
    if MemoryLayout<String>.size == 16,
      unsafeBitCast(self, to: (UInt64, UInt64).self) == unsafeBitCast(other, to: (UInt64, UInt64).self)
    {
      return true
    }
    return hasSameCodeUnitsReadingThem(other)
  }

  /// ``hasSameCodeUnits(as:)`` of strings of different bits: their code units compared.
  @inline(never)
  private func hasSameCodeUnitsReadingThem(_ other: String) -> Bool {
    let count = utf8.count
    guard count == other.utf8.count else { return false }
    if count == 0 { return true }
    let same: Bool?? = utf8.withContiguousStorageIfAvailable { a in
      other.utf8.withContiguousStorageIfAvailable { b in memcmp(a.baseAddress!, b.baseAddress!, count) == 0 }
    }
    if case .some(.some(let same)) = same { return same }
    return utf8.elementsEqual(other.utf8)
  }
}

/// A string compared and hashed by its exact code units: the key of the cache's hash table, so
/// that `"caf\u{E9}"` and `"cafe\u{301}"` name different queries, as they do in TanStack.
struct CodeUnitString: Hashable, Sendable {
  /// The string.
  let string: String
  /// The code units' structural hash (`StructuralHasher`), computed once as the string is
  /// wrapped: the hash table's keys keep it (``Prehashed``).
  let structuralHash: Int
  init(_ string: String) {
    self.string = string
    var hasher = StructuralHasher()
    hasher.combine(codeUnitsOf: string)
    self.structuralHash = hasher.value
  }
  static func == (lhs: CodeUnitString, rhs: CodeUnitString) -> Bool { lhs.string.hasSameCodeUnits(as: rhs.string) }
  func hash(into hasher: inout Hasher) { hasher.combine(structuralHash) }
}
