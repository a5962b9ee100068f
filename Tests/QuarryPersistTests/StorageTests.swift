import Foundation
import Quarry
@testable import QuarryPersist
import Testing

/// The file and SQLite storages: round trips, atomic replacement, and damaged or old-format
/// values dropped with a reported error, never a crash.
@Suite struct StorageTests {
  static func storages(_ name: String) throws -> [any PersistStorage] {
    let dir = temporaryDirectory(name)
    return [try FileStorage(directory: dir.appendingPathComponent("files")), try SQLiteStorage(path: dir.appendingPathComponent("cache.sqlite").path)]
  }

  @Test func valuesRoundTripAndReplace() throws {
    for storage in try Self.storages("roundtrip") {
      #expect(try storage.getItem("k") == nil)
      try storage.setItem("k", Data("one".utf8))
      try storage.setItem("tanstack-query-[\"a\",{\"b\":1}]", Data("two".utf8))
      try storage.setItem("k", Data("three".utf8))
      #expect(try storage.getItem("k") == Data("three".utf8))
      #expect(try storage.entries().map(\.key).sorted() == ["k", "tanstack-query-[\"a\",{\"b\":1}]"])
      try storage.removeItem("k")
      try storage.removeItem("k")
      #expect(try storage.getItem("k") == nil)
    }
  }

  @Test func aDamagedFileIsDroppedWithAnError() throws {
    let storage = try FileStorage(directory: temporaryDirectory("damaged"))
    try storage.setItem("k", Data("a value long enough".utf8))
    let url = storage.fileURL(for: "k")
    var bytes = try Data(contentsOf: url)
    bytes[bytes.count - 1] ^= 0xFF  // a flipped bit
    try bytes.write(to: url)
    #expect(throws: PersistStorageError.self) { try storage.getItem("k") }
    #expect(!FileManager.default.fileExists(atPath: url.path))
    #expect(try storage.getItem("k") == nil)
  }

  @Test func truncatedGarbageAndOldFormatFilesAreDropped() throws {
    let storage = try FileStorage(directory: temporaryDirectory("formats"))
    let cases: [Data] = [
      FileStorage.encode(Data("x".utf8)).prefix(10),                 // truncated header
      Data("{\"timestamp\":1}".utf8),                                // not a Quarry file (e.g. plain JSON)
      FileStorage.encode(Data("old".utf8), version: 0),              // an older format version
      FileStorage.encode(Data("payload".utf8)).dropLast(2),          // truncated payload
    ]
    for damaged in cases {
      try damaged.write(to: storage.fileURL(for: "k"))
      #expect(throws: PersistStorageError.self) { try storage.getItem("k") }
      #expect(try storage.getItem("k") == nil)
    }
  }

  @Test func leftoverTemporaryFilesAreRemovedOnOpen() throws {
    let dir = temporaryDirectory("leftover")
    let leftover = dir.appendingPathComponent(".k.quarry.tmp-1-1")
    try Data("partial".utf8).write(to: leftover)
    _ = try FileStorage(directory: dir)
    #expect(!FileManager.default.fileExists(atPath: leftover.path))
  }

  @Test func sqliteUsesWALAndDropsOldFormatRows() throws {
    let dir = temporaryDirectory("sqlite")
    let path = dir.appendingPathComponent("cache.sqlite").path
    let storage = try SQLiteStorage(path: path)
    try storage.setItem("k", Data("v".utf8))
    #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    let other = try SQLiteStorage(path: path)
    #expect(try other.getItem("k") == Data("v".utf8))
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["sqlite3", path, "UPDATE quarry_persist SET format = 0"]
    guard (try? p.run()) != nil else { return }  // no sqlite3 tool here: the rest needs it
    p.waitUntilExit()
    guard p.terminationStatus == 0 else { return }
    #expect(throws: PersistStorageError.self) { try storage.getItem("k") }
    #expect(try storage.getItem("k") == nil)
  }

  @Test func aFileThatIsNotADatabaseIsReported() throws {
    let dir = temporaryDirectory("notadb")
    let path = dir.appendingPathComponent("cache.sqlite").path
    try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: path))
    #expect(throws: PersistStorageError.self) { _ = try SQLiteStorage(path: path) }
  }

  // A client saved through a file storage restores in a new client, as after a relaunch.
  @Test func aClientSurvivesARelaunchThroughEachBackend() throws {
    for storage in try Self.storages("relaunch") {
      let scheduler = VirtualScheduler()
      scheduler.advance(to: 1_000)
      let client = QueryClient(scheduler: scheduler)
      let persistence = persistQueryClient(client, PersistQueryClientOptions(persister: StoragePersister(storage: storage, scheduler: scheduler)))
      try persistence.restore()
      _ = client.setQueryData(["todos"], value: JSONValue.array(["milk", "eggs"]))
      scheduler.advance(by: 2_000)
      persistence.unsubscribe()

      let relaunched = QueryClient(scheduler: scheduler)
      try persistQueryClient(relaunched, PersistQueryClientOptions(persister: StoragePersister(storage: storage, scheduler: scheduler))).restore()
      #expect(try relaunched.getQueryData(["todos"], as: [String].self) == ["milk", "eggs"])
      #expect(relaunched.getQueryState(["todos"])?.dataUpdatedAt == 1_000)
    }
  }
}
