import Quarry
/// A run that cannot start: bad arguments, an unreadable directory or a malformed list file.
public struct RunnerError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public var message: String

  /// Creates an error.
  public init(_ message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}
