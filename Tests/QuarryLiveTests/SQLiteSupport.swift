import Foundation
import QuarryLive
import QuarryTestSupport

/// A database path in a fresh folder for one test (removed when the test process exits).
func temporaryDatabasePath(_ name: String = "live.sqlite") throws -> String {
  ScratchFolder.make("QuarryLiveTests").appendingPathComponent(name).path
}

/// A SQLite store with an `items` table holding `items`.
func itemsStore(_ items: [Item] = [], path: String? = nil, watchesFile: Bool = true) throws -> SQLiteStore {
  let store = try SQLiteStore(path: path ?? temporaryDatabasePath(), watchesFile: watchesFile)
  try store.write { db in
    try db.execute("CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, rank INTEGER NOT NULL, grp TEXT NOT NULL DEFAULT 'a')")
    try db.execute("CREATE TABLE IF NOT EXISTS tags (id INTEGER PRIMARY KEY, label TEXT)")
    for item in items { try db.insert(item) }
  }
  return store
}

extension SQLiteConnection {
  /// Inserts `item` into `items`.
  func insert(_ item: Item) throws {
    try execute("INSERT INTO items (id, name, rank, grp) VALUES (?, ?, ?, ?)",
                [.integer(Int64(item.id)), .text(item.name), .integer(Int64(item.rank)), .text(item.group)])
  }
}

/// `SELECT … FROM items WHERE rank >= minRank ORDER BY rank, id`.
struct SQLItems: LiveDescriptor {
  var minRank = Int.min
  var table = "items"
  var entities: Set<String>? { [table] }

  func fetch(_ db: SQLiteConnection) throws -> [Item] {
    try db.query("SELECT id, name, rank, grp FROM \(table) WHERE rank >= ? ORDER BY rank, id", [.integer(Int64(minRank))]).map {
      Item(id: $0["id"].int ?? -1, name: $0["name"].string ?? "", rank: $0["rank"].int ?? 0, group: $0["grp"].string ?? "")
    }
  }
}

/// The sqlite3 command line tool, if installed.
let sqlite3CommandLine: String? = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"]
  .first { FileManager.default.isExecutableFile(atPath: $0) }

/// Runs `sql` on `path` in a separate sqlite3 process and waits for it to exit; returns its status.
func runInAnotherProcess(_ sql: String, path: String) throws -> Int32 {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: sqlite3CommandLine ?? "/usr/bin/sqlite3")
  process.arguments = ["-cmd", ".timeout 10000", path, sql]
  try process.run()
  process.waitUntilExit()
  return process.terminationStatus
}

/// The ids of the next stream element (`"error"` for a failure, nil at the end).
func nextIDs(_ iterator: inout AsyncStream<Result<[Item], any Error>>.Iterator) async -> [Int]? {
  guard let element = await iterator.next() else { return nil }
  return (try? element.get())?.map(\.id)
}
