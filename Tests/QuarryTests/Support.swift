import Foundation

/// A tiny lock wrapper for test helpers.
final class NSLockish: @unchecked Sendable {
  // Safe: wraps NSLock, which is thread-safe.
  private let lock = NSLock()
  func sync<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}

