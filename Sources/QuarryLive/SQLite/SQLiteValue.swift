/// A SQLite value: what a statement binds and a row holds.
public enum SQLiteValue: Sendable, Hashable {
  /// `NULL`.
  case null
  /// An `INTEGER`.
  case integer(Int64)
  /// A `REAL`.
  case real(Double)
  /// `TEXT`.
  case text(String)
  /// A `BLOB`.
  case blob([UInt8])
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByNilLiteral {
  /// An `INTEGER`.
  public init(integerLiteral value: Int64) { self = .integer(value) }
  /// `TEXT`.
  public init(stringLiteral value: String) { self = .text(value) }
  /// A `REAL`.
  public init(floatLiteral value: Double) { self = .real(value) }
  /// `NULL`.
  public init(nilLiteral: ()) { self = .null }
}

extension SQLiteValue {
  /// The integer, or nil.
  public var int: Int? {
    if case .integer(let value) = self { return Int(value) }
    return nil
  }
  /// The text, or nil.
  public var string: String? {
    if case .text(let value) = self { return value }
    return nil
  }
  /// The number (integer or real), or nil.
  public var double: Double? {
    switch self {
    case .integer(let value): Double(value)
    case .real(let value): value
    default: nil
    }
  }
}
