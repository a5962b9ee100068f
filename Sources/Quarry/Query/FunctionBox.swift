/// A function with an identity, so options can tell "the same function" from "a new one" as
/// JavaScript does by reference.
public final class FunctionBox<F: Sendable>: Sendable {
  /// The wrapped function.
  public let call: F
  /// Wraps `call`.
  public init(_ call: F) { self.call = call }
}
