import CSQLite

/// One SQLite connection: runs statements with bound values and reads rows.
///
/// Not `Sendable`: a ``SQLiteStore`` hands it to one body at a time (a read, a write) on its own
/// queue or lock; never keep it beyond that body.
public final class SQLiteConnection {
  let handle: OpaquePointer

  /// Opens (and creates) the database at `path`.
  init(path: String, readOnly: Bool = false) throws {
    var db: OpaquePointer?
    let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_FULLMUTEX
    let code = sqlite3_open_v2(path, &db, flags, nil)
    guard code == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
      sqlite3_close_v2(db)
      throw SQLiteError(code: code, message: message)
    }
    handle = db
  }

  deinit { sqlite3_close_v2(handle) }

  /// Runs one statement (`INSERT`, `UPDATE`, `CREATE …`) with `arguments` bound to its `?`s.
  public func execute(_ sql: String, _ arguments: [SQLiteValue] = []) throws {
    try withStatement(sql, arguments) { statement in
      while try step(statement, sql) {}
    }
  }

  /// Runs one query and returns its rows.
  public func query(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [SQLiteRow] {
    try withStatement(sql, arguments) { statement in
      let count = sqlite3_column_count(statement)
      let columns = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
      var rows: [SQLiteRow] = []
      while try step(statement, sql) {
        rows.append(SQLiteRow(columns: columns, values: (0..<count).map { column(statement, $0) }))
      }
      return rows
    }
  }

  /// The rowid of the last inserted row.
  public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// The number of rows the last statement changed.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  /// An error from the connection's last failure.
  func error(_ code: Int32, _ sql: String?) -> SQLiteError {
    SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
  }

  private func withStatement<T>(_ sql: String, _ arguments: [SQLiteValue], _ body: (OpaquePointer) throws -> T) throws -> T {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard code == SQLITE_OK, let statement else { throw error(code, sql) }
    defer { sqlite3_finalize(statement) }
    for (index, argument) in arguments.enumerated() {
      try bind(argument, at: Int32(index + 1), statement, sql)
    }
    return try body(statement)
  }

  private func step(_ statement: OpaquePointer, _ sql: String) throws -> Bool {
    switch sqlite3_step(statement) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let code: throw error(code, sql)
    }
  }

  private func bind(_ value: SQLiteValue, at index: Int32, _ statement: OpaquePointer, _ sql: String) throws {
    // SQLITE_TRANSIENT: SQLite copies the bytes before the call returns.
    let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
    let code: Int32
    switch value {
    case .null: code = sqlite3_bind_null(statement, index)
    case .integer(let value): code = sqlite3_bind_int64(statement, index, value)
    case .real(let value): code = sqlite3_bind_double(statement, index, value)
    case .text(let value): code = sqlite3_bind_text(statement, index, value, -1, transient)
    case .blob(let bytes):
      code = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), transient) }
    }
    guard code == SQLITE_OK else { throw error(code, sql) }
  }

  private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLiteValue {
    switch sqlite3_column_type(statement, index) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
    case SQLITE_TEXT:
      let count = Int(sqlite3_column_bytes(statement, index))
      guard let text = sqlite3_column_text(statement, index) else { return .text("") }
      return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(statement, index))
      guard let bytes = sqlite3_column_blob(statement, index) else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
    default: return .null
    }
  }
}
