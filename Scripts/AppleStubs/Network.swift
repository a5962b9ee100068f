// The slice of Network that Sources/QuarrySwiftUI uses (path monitoring), declared with Apple's
// names and shapes so Linux can type-check that code (Scripts/typecheck-apple-stubs.sh).
// Not an implementation.
import Dispatch

public struct NWPath: Equatable, Sendable {
  public enum Status: Equatable, Hashable, Sendable {
    case satisfied, unsatisfied, requiresConnection
  }
  public let status: Status
}

final public class NWPathMonitor: @unchecked Sendable {
  // Safe: a declaration-only stub; nothing runs.
  public init() {}
  public var pathUpdateHandler: (@Sendable (_ newPath: NWPath) -> Void)?
  public var currentPath: NWPath { NWPath(status: .satisfied) }
  public func start(queue: DispatchQueue) {}
  public func cancel() {}
}
