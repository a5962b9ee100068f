import Foundation

/// The one recursive lock that guards all of a client's engine state.
///
/// Recursive, so listeners called while it is held can call back into the client, as they can
/// in TanStack's single-threaded world.
final class EngineLock: @unchecked Sendable {
  // Safe: NSRecursiveLock is thread-safe; this only wraps it.
  private let lock = NSRecursiveLock()

  @inline(__always)
  func sync<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}
