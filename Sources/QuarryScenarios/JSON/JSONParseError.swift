import Quarry
/// A JSON text that is not strict JSON: where it went wrong (1-based line and column) and why.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The 1-based line of the offending character.
  public var line: Int
  /// The 1-based column (in Unicode scalars) of the offending character.
  public var column: Int
  /// What was expected there.
  public var message: String

  /// Creates a parse error.
  public init(line: Int, column: Int, message: String) {
    self.line = line
    self.column = column
    self.message = message
  }

  /// `line:column: message`.
  public var description: String { "\(line):\(column): \(message)" }
}
