import CSQLite

/// What SQLite's hooks on a writing connection saw: the tables of the transaction under way and
/// the transactions committed since the last look. Installed by ``SQLiteStore``.
final class CommitHooks {
  // Not Sendable and not locked: the hooks run inside SQLite calls on the writing connection,
  // which ``SQLiteStore`` only makes while holding its write lock; it reads these under that lock.
  var pendingTables: Set<String> = []
  /// One entry per committed transaction: its tables, or nil when the update hook saw none
  /// (schema changes, `WITHOUT ROWID` tables), which means "anything may have changed".
  var committed: [Set<String>?] = []

  /// Installs the update, commit and rollback hooks on `connection`; `self` must outlive it.
  func install(on connection: SQLiteConnection) {
    let context = Unmanaged.passUnretained(self).toOpaque()
    sqlite3_update_hook(connection.handle, { context, _, _, table, _ in
      guard let context, let table else { return }
      Unmanaged<CommitHooks>.fromOpaque(context).takeUnretainedValue().pendingTables.insert(String(cString: table))
    }, context)
    sqlite3_commit_hook(connection.handle, { context in
      guard let context else { return 0 }
      let hooks = Unmanaged<CommitHooks>.fromOpaque(context).takeUnretainedValue()
      hooks.committed.append(hooks.pendingTables.isEmpty ? nil : hooks.pendingTables)
      hooks.pendingTables = []
      return 0  // let the commit go on
    }, context)
    sqlite3_rollback_hook(connection.handle, { context in
      guard let context else { return }
      Unmanaged<CommitHooks>.fromOpaque(context).takeUnretainedValue().pendingTables = []
    }, context)
  }

  /// Forgets everything (after a failed transaction).
  func reset() {
    pendingTables = []
    committed = []
  }
}
