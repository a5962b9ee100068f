/// A failure reported by SQLite.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
  /// SQLite's result code (`SQLITE_BUSY` is 5, `SQLITE_CONSTRAINT` 19, …).
  public var code: Int32
  /// SQLite's message.
  public var message: String
  /// The statement that failed, if any.
  public var sql: String?

  /// An error.
  public init(code: Int32, message: String, sql: String? = nil) {
    self.code = code
    self.message = message
    self.sql = sql
  }

  /// `SQLite error 19: UNIQUE constraint failed: items.id (in INSERT …)`.
  public var description: String {
    "SQLite error \(code): \(message)" + (sql.map { " (in \($0))" } ?? "")
  }
}
