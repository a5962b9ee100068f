import CSQLite
import Dispatch
import Foundation

/// A SQLite database as a ``LiveStore``, in WAL mode: live queries see its own writes, writes
/// from other connections and writes from other processes.
///
/// - **Own writes** (``write(_:)``): SQLite's update hook records the tables each transaction
///   writes and its commit hook marks the transaction committed; after `COMMIT` returns, commit
///   observers get one ``StoreCommit`` naming those tables, before `write` returns.
/// - **Other connections and processes**: a file watcher (inotify on Linux, a dispatch source on
///   Apple platforms) wakes on changes to the database's files; the store then takes the write
///   lock (`BEGIN IMMEDIATE`, which waits for a writer still committing) and compares
///   `PRAGMA data_version`, which changes only for *other* connections' commits. A change is
///   reported as a commit of unknown tables (`entities == nil`). ``checkForExternalChanges()``
///   does the same on demand (on returning to the foreground, or where files cannot be watched).
/// - **Reads** run on their own connection and queue, each in one read transaction, so they see
///   one consistent snapshot and never wait for writers.
///
/// ```swift
/// struct Note: Identifiable, Equatable, Sendable { var id: Int; var text: String }
/// struct AllNotes: LiveDescriptor {
///   var entities: Set<String>? { ["notes"] }
///   func fetch(_ db: SQLiteConnection) throws -> [Note] {
///     try db.query("SELECT id, text FROM notes ORDER BY id").map { Note(id: $0[0].int ?? 0, text: $0[1].string ?? "") }
///   }
/// }
/// let store = try SQLiteStore(path: NSTemporaryDirectory() + "notes.sqlite")
/// try store.write { try $0.execute("CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, text TEXT)") }
/// let controller = LiveQueryController(store: store, descriptor: AllNotes())
/// var updates = controller.updates().makeAsyncIterator()
/// try store.write { try $0.execute("INSERT INTO notes (text) VALUES (?)", ["milk"]) }
/// print(try await updates.next()?.get().map(\.text) ?? [])  // ["milk"] (or [] first, if the insert came later)
/// ```
public final class SQLiteStore: LiveStore, @unchecked Sendable {
  /// A read sees a connection inside a read transaction.
  public typealias Reader = SQLiteConnection

  // Safe: `writer`, `hooks`, `version` and `lastDataVersion` are only touched while `writeLock` is
  // held; `reader` only on `readQueue`; `watcher` only in init and deinit. Observers are called with
  // no lock held.
  private let writeLock = NSLock()
  private let writer: SQLiteConnection
  private let hooks = CommitHooks()
  private var version: UInt64 = 0
  private var lastDataVersion: Int64 = 0
  private let reader: SQLiteConnection
  private let readQueue = DispatchQueue(label: "QuarryLive.SQLiteStore.read")
  private let observers = CommitObservers()
  private var watcher: FileWatcher?

  /// The database file.
  public let path: String

  /// Opens (creating it if needed) the database at `path` in WAL mode.
  ///
  /// - Parameters:
  ///   - watchesFile: watch the database's files for other connections' and processes' commits.
  ///   - busyTimeout: how long (milliseconds) SQLite itself retries when another connection holds the write lock.
  public init(path: String, watchesFile: Bool = true, busyTimeout: Int32 = 5_000) throws {
    self.path = path
    writer = try SQLiteConnection(path: path)
    sqlite3_busy_timeout(writer.handle, busyTimeout)
    _ = try writer.query("PRAGMA journal_mode=WAL")
    reader = try SQLiteConnection(path: path)
    sqlite3_busy_timeout(reader.handle, busyTimeout)
    hooks.install(on: writer)
    lastDataVersion = try Self.dataVersion(writer)
    if watchesFile {
      watcher = try FileWatcher(databasePath: path) { [weak self] in
        _ = try? self?.checkForExternalChanges()
      }
    }
  }

  deinit { watcher?.cancel() }

  /// Runs `body` in one write transaction (`BEGIN IMMEDIATE` … `COMMIT`); rolls back if it throws.
  /// Commit observers hear of it before this returns.
  ///
  /// `body` runs under the store's write lock, so writes are serial: it must not call `write`
  /// or ``checkForExternalChanges()``.
  @discardableResult
  public func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
    let (value, commits) = try writeLock.withLock { () throws -> (T, [StoreCommit]) in
      try writer.execute("BEGIN IMMEDIATE")
      do {
        let value = try body(writer)
        try writer.execute("COMMIT")
        let commits = hooks.committed.map { tables in
          version += 1
          return StoreCommit(version: version, entities: tables)
        }
        hooks.reset()
        return (value, commits)
      } catch {
        if sqlite3_get_autocommit(writer.handle) == 0 { try? writer.execute("ROLLBACK") }
        hooks.reset()
        throw error
      }
    }
    for commit in commits { observers.notify(commit) }
    return value
  }

  /// Runs `body` in a read transaction on the reading connection, off the caller's thread.
  public func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      readQueue.async {
        continuation.resume(with: Result { try self.readTransaction(body) })
      }
    }
  }

  /// Registers `onCommit`: called after each own commit (on the writing thread) and each commit
  /// found from another connection or process (on the watcher's queue).
  public func observeCommits(_ onCommit: @escaping @Sendable (StoreCommit) -> Void) -> LiveSubscription {
    observers.add(onCommit)
  }

  /// Looks for commits by other connections or processes since the last look; reports one commit
  /// of unknown tables if there were any. Returns whether there were.
  @discardableResult
  public func checkForExternalChanges() throws -> Bool {
    let commit = try writeLock.withLock { () throws -> StoreCommit? in
      // Taking the write lock waits for another connection's commit under way to finish, so a
      // file event seen mid-commit cannot make this look too early.
      try writer.execute("BEGIN IMMEDIATE")
      defer {
        try? writer.execute("ROLLBACK")
        hooks.reset()
      }
      let current = try Self.dataVersion(writer)
      guard current != lastDataVersion else { return nil }
      lastDataVersion = current
      version += 1
      return StoreCommit(version: version, entities: nil)
    }
    guard let commit else { return false }
    observers.notify(commit)
    return true
  }

  private func readTransaction<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
    try reader.execute("BEGIN")
    do {
      let value = try body(reader)
      try reader.execute("COMMIT")
      return value
    } catch {
      try? reader.execute("ROLLBACK")
      throw error
    }
  }

  /// `PRAGMA data_version`: changes when another connection commits.
  private static func dataVersion(_ connection: SQLiteConnection) throws -> Int64 {
    guard case .integer(let value) = try connection.query("PRAGMA data_version").first?[0] else {
      throw SQLiteError(code: SQLITE_ERROR, message: "PRAGMA data_version returned no integer")
    }
    return value
  }
}
