import Foundation

/// Where a persister keeps its values: strings of bytes by key (TanStack's `AsyncStorage`, made
/// synchronous: every backend here is local). Implementations must be safe to call from any
/// thread; a write replaces the whole value atomically, so a reader (or the app after a crash)
/// sees the old value or the new one, never a mix.
public protocol PersistStorage: Sendable {
  /// The value stored under `key`, or `nil`. Throws ``PersistStorageError/corrupt(_:)`` (after
  /// dropping the value) when the stored value cannot be read.
  func getItem(_ key: String) throws -> Data?
  /// Stores `value` under `key`, replacing the old value atomically.
  func setItem(_ key: String, _ value: Data) throws
  /// Removes the value under `key` (nothing when absent).
  func removeItem(_ key: String) throws
  /// Every key and value (for the per-query persister's `persisterGc`, `restoreQueries`,
  /// `removeQueries`).
  func entries() throws -> [(key: String, value: Data)]
}

/// Errors of storages.
public enum PersistStorageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The stored value was damaged or written in a format this version cannot read; it was
  /// dropped.
  case corrupt(String)
  /// The storage refused the write (it is full).
  case full(String)
  /// The operating system or SQLite reported an error.
  case io(String)

  /// What happened.
  public var description: String {
    switch self {
    case .corrupt(let detail): return "corrupt or old-format stored value dropped: \(detail)"
    case .full(let detail): return "storage full: \(detail)"
    case .io(let detail): return "storage error: \(detail)"
    }
  }
}

/// A storage in memory, with an optional quota in bytes (like a browser's `localStorage`), for
/// tests and previews.
public final class InMemoryStorage: PersistStorage, @unchecked Sendable {
  // Safe: `items` is only touched while `lock` is held.
  private let lock = NSLock()
  private var items: [String: Data] = [:]
  private var order: [String] = []
  /// The most bytes all keys and values may take together; a write past it throws
  /// ``PersistStorageError/full(_:)`` and changes nothing.
  public let quota: Int?

  /// Creates an empty storage.
  public init(quota: Int? = nil) { self.quota = quota }

  /// The value under `key`.
  public func getItem(_ key: String) throws -> Data? { lock.withLock { items[key] } }

  /// Stores a value, unless it would exceed the quota.
  public func setItem(_ key: String, _ value: Data) throws {
    try lock.withLock {
      if let quota {
        // Keys count too, as in TanStack's storage-full test.
        let others = items.filter { $0.key != key }.reduce(0) { $0 + $1.key.utf8.count + $1.value.count }
        let total = others + key.utf8.count + value.count
        if total > quota { throw PersistStorageError.full("\(total) bytes > quota \(quota)") }
      }
      if items[key] == nil { order.append(key) }
      items[key] = value
    }
  }

  /// Removes a value.
  public func removeItem(_ key: String) throws {
    lock.withLock {
      items[key] = nil
      order.removeAll { $0 == key }
    }
  }

  /// Every key and value, in insertion order.
  public func entries() throws -> [(key: String, value: Data)] {
    lock.withLock { order.map { ($0, items[$0]!) } }
  }
}
