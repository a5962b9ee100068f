/// One result row: its values by column index or name.
public struct SQLiteRow: Sendable {
  /// The column names, in order.
  public let columns: [String]
  /// The values, in column order.
  public let values: [SQLiteValue]

  /// The value of column `index`.
  public subscript(index: Int) -> SQLiteValue { values[index] }

  /// The value of the column named `name` (`.null` if there is none).
  public subscript(name: String) -> SQLiteValue {
    columns.firstIndex(of: name).map { values[$0] } ?? .null
  }
}
