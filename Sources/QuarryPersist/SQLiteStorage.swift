import CSQLite
import Foundation

/// A ``PersistStorage`` in one SQLite table (`quarry_persist`: key, format version, value) in WAL
/// mode with `synchronous=FULL`: each write is one transaction, so after a crash or `SIGKILL` a
/// value is the old one or the new one. A row of another format version is deleted and reported
/// as ``PersistStorageError/corrupt(_:)``; a file that is not a database is reported as
/// ``PersistStorageError/corrupt(_:)`` when opened.
public final class SQLiteStorage: PersistStorage, @unchecked Sendable {
  // Safe: the connection is only used while `lock` is held.
  private let lock = NSLock()
  private let db: OpaquePointer
  /// The database file.
  public let path: String
  /// The format version written in each row.
  public static let formatVersion: Int64 = 1

  /// Opens (and creates) the database at `path`.
  public init(path: String) throws {
    self.path = path
    var handle: OpaquePointer?
    let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil)
    guard code == SQLITE_OK, let handle else {
      sqlite3_close_v2(handle)
      throw PersistStorageError.io("cannot open \(path): SQLite code \(code)")
    }
    db = handle
    sqlite3_busy_timeout(db, 5000)
    do {
      try exec("PRAGMA journal_mode=WAL")
      try exec("PRAGMA synchronous=FULL")
      try exec("CREATE TABLE IF NOT EXISTS quarry_persist (key TEXT PRIMARY KEY NOT NULL, format INTEGER NOT NULL, value BLOB NOT NULL)")
    } catch {
      sqlite3_close_v2(db)
      throw PersistStorageError.corrupt("\(path): \(error)")
    }
  }

  deinit { sqlite3_close_v2(db) }

  private func exec(_ sql: String) throws {
    let code = sqlite3_exec(db, sql, nil, nil, nil)
    guard code == SQLITE_OK else { throw PersistStorageError.io("\(sql): \(String(cString: sqlite3_errmsg(db)))") }
  }

  private func statement(_ sql: String) throws -> OpaquePointer {
    var s: OpaquePointer?
    let code = sqlite3_prepare_v2(db, sql, -1, &s, nil)
    guard code == SQLITE_OK, let s else {
      throw code == SQLITE_NOTADB || code == SQLITE_CORRUPT
        ? PersistStorageError.corrupt("\(path): \(String(cString: sqlite3_errmsg(db)))")
        : PersistStorageError.io("\(sql): \(String(cString: sqlite3_errmsg(db)))")
    }
    return s
  }

  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  private func bind(_ s: OpaquePointer, _ index: Int32, _ text: String) {
    sqlite3_bind_text(s, index, text, -1, Self.transient)
  }

  private func step(_ s: OpaquePointer) throws -> Bool {
    switch sqlite3_step(s) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case SQLITE_FULL: throw PersistStorageError.full(String(cString: sqlite3_errmsg(db)))
    case SQLITE_CORRUPT, SQLITE_NOTADB: throw PersistStorageError.corrupt("\(path): \(String(cString: sqlite3_errmsg(db)))")
    default: throw PersistStorageError.io(String(cString: sqlite3_errmsg(db)))
    }
  }

  /// The value under `key`; a row of another format version is deleted and reported.
  public func getItem(_ key: String) throws -> Data? {
    let row: (format: Int64, value: Data)? = try lock.withLock {
      let s = try statement("SELECT format, value FROM quarry_persist WHERE key = ?")
      defer { sqlite3_finalize(s) }
      bind(s, 1, key)
      guard try step(s) else { return nil }
      let count = Int(sqlite3_column_bytes(s, 1))
      let value = count == 0 ? Data() : Data(bytes: sqlite3_column_blob(s, 1), count: count)
      return (sqlite3_column_int64(s, 0), value)
    }
    guard let row else { return nil }
    guard row.format == Self.formatVersion else {
      try removeItem(key)
      throw PersistStorageError.corrupt("\(path): row \(key) has format version \(row.format), this build reads \(Self.formatVersion)")
    }
    return row.value
  }

  /// Stores `value` in one transaction.
  public func setItem(_ key: String, _ value: Data) throws {
    try lock.withLock {
      let s = try statement("INSERT OR REPLACE INTO quarry_persist (key, format, value) VALUES (?, ?, ?)")
      defer { sqlite3_finalize(s) }
      bind(s, 1, key)
      sqlite3_bind_int64(s, 2, Self.formatVersion)
      _ = value.withUnsafeBytes { sqlite3_bind_blob(s, 3, $0.baseAddress, Int32($0.count), Self.transient) }
      _ = try step(s)
    }
  }

  /// Deletes the row of `key`.
  public func removeItem(_ key: String) throws {
    try lock.withLock {
      let s = try statement("DELETE FROM quarry_persist WHERE key = ?")
      defer { sqlite3_finalize(s) }
      bind(s, 1, key)
      _ = try step(s)
    }
  }

  /// Every key and value of the current format version, by key.
  public func entries() throws -> [(key: String, value: Data)] {
    try lock.withLock {
      let s = try statement("SELECT key, value FROM quarry_persist WHERE format = ? ORDER BY key")
      defer { sqlite3_finalize(s) }
      sqlite3_bind_int64(s, 1, Self.formatVersion)
      var out: [(key: String, value: Data)] = []
      while try step(s) {
        let key = String(cString: sqlite3_column_text(s, 0))
        let count = Int(sqlite3_column_bytes(s, 1))
        out.append((key, count == 0 ? Data() : Data(bytes: sqlite3_column_blob(s, 1), count: count)))
      }
      return out
    }
  }
}
