/// A JSON-like value: the building block of query keys and a convenient data type.
///
/// Numbers are `Double`s, as in JavaScript, so `1` and `1.0` are the same value and hash the same.
/// Strings compare by their exact code units, as JavaScript's `===` does: `"caf\u{E9}"` and
/// `"cafe\u{301}"` are different values (Swift's `String ==` would call them equal). Equality,
/// hashing, ``canonicalJSON`` and ``partialDeepEqual(_:_:)`` recurse at most 128 levels and go on
/// with an explicit stack, so a value nested 100,000 levels deep cannot overflow the stack in them.
/// Keys and data that Quarry holds are released without recursion too; releasing a deep value of
/// your own is Swift's recursion unless you hand it to ``dismantle(_:)``.
///
/// ```swift
/// let filter: JSONValue = ["status": "done", "page": 2, "tags": ["a", "b"]]
/// ```
public enum JSONValue: Hashable, Sendable {
  /// JSON `null`.
  case null
  /// JavaScript's `undefined` inside an array or object: an array element `[undefined]` is not
  /// `[null]`, and an object member set to `undefined` is not an absent one (TanStack's structural
  /// sharing and key filters tell them apart). JSON text writes it as `null` in an array and leaves
  /// an object member holding it out, as `JSON.stringify` does.
  case undefined
  /// A boolean.
  case bool(Bool)
  /// A number (always a `Double`, like a JavaScript number).
  case number(Double)
  /// A string.
  case string(String)
  /// An ordered array.
  case array([JSONValue])
  /// An object; its key order never matters. Two member names that differ only by Unicode
  /// normalization cannot both be held (a Swift `Dictionary` merges them).
  case object([String: JSONValue])
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  /// Creates `null`.
  public init(nilLiteral: ()) { self = .null }
  /// Creates a boolean.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// Creates a number from an integer literal.
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  /// Creates a number from a floating-point literal.
  public init(floatLiteral value: Double) { self = .number(value) }
  /// Creates a string.
  public init(stringLiteral value: String) { self = .string(value) }
  /// Creates an array.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  /// Creates an object; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    // Sized once (growing from empty reallocated and rehashed the storage).
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}

extension JSONValue {
  /// The value as an array, or `nil`.
  public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
  /// The value as an object, or `nil`.
  public var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o } else { return nil } }
  /// The value as a string, or `nil`.
  public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
  /// The value as a number, or `nil`.
  public var numberValue: Double? { if case .number(let n) = self { return n } else { return nil } }
  /// The value as a boolean, or `nil`.
  public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
  /// Whether the value is `null`.
  public var isNull: Bool { if case .null = self { return true } else { return false } }
  /// Whether the value is `undefined`.
  public var isUndefined: Bool { if case .undefined = self { return true } else { return false } }

  /// The member named exactly `key` (by code units) of an object, or `nil`.
  public subscript(key: String) -> JSONValue? { objectValue?.exactMember(key) }
}
