import Foundation
import Testing
@testable import QuarryLive

@Suite struct SQLiteStoreTests {
  @Test func theDatabaseIsInWALMode() async throws {
    let store = try itemsStore()
    let mode = try await store.read { db in try db.query("PRAGMA journal_mode").first?[0].string }
    #expect(mode == "wal")
  }

  @Test func valuesRoundTrip() async throws {
    let store = try itemsStore()
    try store.write { db in
      try db.execute("CREATE TABLE v (a, b, c, d, e)")
      try db.execute("INSERT INTO v VALUES (?, ?, ?, ?, ?)", [nil, 42, 2.5, "café ☕︎", .blob([0, 1, 255])])
    }
    let row = try await store.read { db in try db.query("SELECT a, b, c, d, e FROM v")[0] }
    #expect(row.values == [.null, .integer(42), .real(2.5), .text("café ☕︎"), .blob([0, 1, 255])])
    #expect(row.columns == ["a", "b", "c", "d", "e"])
  }

  @Test func eachWriteIsOneCommitNamingTheTablesItWrote() throws {
    let store = try itemsStore(watchesFile: false)
    let commits = Locked<[StoreCommit]>([])
    let subscription = store.observeCommits { commit in commits.withLock { $0.append(commit) } }
    try store.write { db in
      try db.insert(Item(id: 1, name: "a"))
      try db.insert(Item(id: 2, name: "b"))
      try db.execute("INSERT INTO tags (label) VALUES ('x')")
    }
    try store.write { db in try db.execute("UPDATE items SET name = 'B' WHERE id = 2") }
    // Version 1 is the setup write that created the tables.
    #expect(commits.current == [
      StoreCommit(version: 2, entities: ["items", "tags"]), StoreCommit(version: 3, entities: ["items"]),
    ])
    subscription.cancel()
  }

  @Test func aFailedWriteRollsBackAndCommitsNothing() throws {
    let store = try itemsStore([Item(id: 1, name: "a")], watchesFile: false)
    let commits = Locked<[StoreCommit]>([])
    let subscription = store.observeCommits { commit in commits.withLock { $0.append(commit) } }
    #expect(throws: SQLiteError.self) {
      try store.write { db in
        try db.insert(Item(id: 2, name: "b"))
        try db.insert(Item(id: 1, name: "duplicate"))
      }
    }
    try store.write { db in try db.insert(Item(id: 3, name: "c")) }
    #expect(commits.current == [StoreCommit(version: 2, entities: ["items"])])
    let ids = try store.write { db in try db.query("SELECT id FROM items ORDER BY id").compactMap { $0[0].int } }
    #expect(ids == [1, 3])
    subscription.cancel()
  }

  @Test func aControllerSeesItsStoresWritesAsDiffs() async throws {
    let store = try itemsStore([Item(id: 1, name: "a", rank: 1), Item(id: 2, name: "b", rank: 2)])
    let controller = LiveQueryController(store: store, descriptor: SQLItems())
    let log = ChangeLog()
    let subscription = controller.observe { log.append($0) }
    await controller.settled()
    try store.write { db in
      try db.execute("UPDATE items SET rank = 0 WHERE id = 2")
      try db.insert(Item(id: 3, name: "c", rank: 5))
    }
    await controller.settled()
    #expect(log.lines == ["loading(nil)", "loaded([1, 2])", "loaded([2, 1, 3])"])
    #expect(log.changes.last?.diff == .rows(.init(inserted: [2], moved: [.init(from: 1, to: 0)], updated: [0])))
    subscription.cancel()
  }

  @Test func writesToAnotherTableDoNotFetch() async throws {
    let store = try itemsStore([Item(id: 1, name: "a")], watchesFile: false)
    let controller = LiveQueryController(store: store, descriptor: SQLItems())
    controller.start()
    await controller.settled()
    try store.write { db in try db.execute("INSERT INTO tags (label) VALUES ('x')") }
    await controller.settled()
    #expect(controller.fetchesStarted == 1)
  }

  @Test func aFailingQueryIsStateAndTheNextCommitFetchesAgain() async throws {
    let store = try itemsStore([Item(id: 1, name: "a")], watchesFile: false)
    let controller = LiveQueryController(store: store, descriptor: SQLItems(table: "later"))
    controller.start()
    await controller.settled()
    #expect((controller.state.error as? SQLiteError)?.message.contains("no such table") == true)
    try store.write { db in
      try db.execute("CREATE TABLE later (id INTEGER PRIMARY KEY, name TEXT, rank INTEGER, grp TEXT)")
      try db.execute("INSERT INTO later VALUES (7, 'x', 0, 'a')")
    }
    await controller.settled()
    #expect(describe(controller.state) == "loaded([7])")
  }

  @Test func checkingForExternalChangesIgnoresOwnWritesAndFindsAnotherConnections() throws {
    let path = try temporaryDatabasePath()
    let store = try itemsStore(path: path, watchesFile: false)
    let other = try SQLiteStore(path: path, watchesFile: false)
    let commits = Locked<[StoreCommit]>([])
    let subscription = store.observeCommits { commit in commits.withLock { $0.append(commit) } }
    try store.write { db in try db.insert(Item(id: 1, name: "own")) }
    #expect(try store.checkForExternalChanges() == false)
    try other.write { db in try db.insert(Item(id: 2, name: "theirs")) }
    #expect(try store.checkForExternalChanges() == true)
    #expect(try store.checkForExternalChanges() == false)
    #expect(commits.current == [StoreCommit(version: 2, entities: ["items"]), StoreCommit(version: 3, entities: nil)])
    subscription.cancel()
  }

  @Test func aWriteFromAnotherConnectionReachesTheStream() async throws {
    let path = try temporaryDatabasePath()
    let store = try itemsStore([Item(id: 1, name: "a", rank: 1)], path: path)
    let controller = LiveQueryController(store: store, descriptor: SQLItems())
    var updates = controller.updates().makeAsyncIterator()
    #expect(await nextIDs(&updates) == [1])
    let other = try SQLiteStore(path: path, watchesFile: false)
    try other.write { db in try db.insert(Item(id: 2, name: "b", rank: 2)) }
    #expect(await nextIDs(&updates) == [1, 2])  // waits for the file watcher, no sleep
    try other.write { db in try db.execute("DELETE FROM items WHERE id = 1") }
    #expect(await nextIDs(&updates) == [2])
  }

  @Test(.enabled(if: sqlite3CommandLine != nil, "needs the sqlite3 command line tool (apt-get install sqlite3)"))
  func aWriteFromAnotherProcessReachesTheStream() async throws {
    let path = try temporaryDatabasePath()
    let store = try itemsStore([Item(id: 1, name: "a", rank: 1)], path: path)
    let controller = LiveQueryController(store: store, descriptor: SQLItems())
    var updates = controller.updates().makeAsyncIterator()
    #expect(await nextIDs(&updates) == [1])
    #expect(try runInAnotherProcess("INSERT INTO items (id, name, rank) VALUES (2, 'from sqlite3', 2);", path: path) == 0)
    #expect(await nextIDs(&updates) == [1, 2])
    #expect(try runInAnotherProcess("UPDATE items SET rank = 0 WHERE id = 2; DELETE FROM items WHERE id = 1;", path: path) == 0)
    #expect(await nextIDs(&updates) == [2])
    #expect(controller.results.first?.name == "from sqlite3")
  }

  @Test func manyWritesFromBothConnectionsEndInTheFinalContents() async throws {
    let path = try temporaryDatabasePath()
    let store = try itemsStore(path: path)
    let other = try SQLiteStore(path: path, watchesFile: false)
    let controller = LiveQueryController(store: store, descriptor: SQLItems())
    var updates = controller.updates().makeAsyncIterator()
    #expect(await nextIDs(&updates) == [])
    for id in 1...50 {
      try (id.isMultiple(of: 2) ? store : other).write { db in try db.insert(Item(id: id, name: "n", rank: id)) }
    }
    var last: [Int]? = []
    while last != Array(1...50) {
      last = await nextIDs(&updates)
      if last == nil { break }
    }
    #expect(last == Array(1...50))
  }
}
