import Foundation

/// A transactional, versioned in-memory store of one entity: the store that makes every live
/// query behaviour testable without a database and without sleeping.
///
/// A write runs on a copy and commits only if its body returns; each commit bumps the version and
/// is reported to commit observers synchronously, before `write` returns, so a test can write and
/// then `await controller.settled()`.
///
/// ```swift
/// struct Note: Identifiable, Equatable, Sendable { var id: Int; var text: String }
/// struct AllNotes: LiveDescriptor {
///   func fetch(_ snapshot: InMemoryStore<Note>.Snapshot) -> [Note] { snapshot.records.sorted { $0.id < $1.id } }
/// }
/// let store = InMemoryStore<Note>()
/// let controller = LiveQueryController(store: store, descriptor: AllNotes())
/// controller.start()
/// try store.write { try $0.insert(Note(id: 1, text: "milk")) }
/// _ = await controller.settled()
/// print(controller.results.map(\.text))  // ["milk"]
/// ```
public final class InMemoryStore<Record: Identifiable & Equatable & Sendable>: LiveStore, @unchecked Sendable
where Record.ID: Sendable {
  // Safe: `current` is only touched while `lock` is held; observers are called after it is released.
  private let lock = NSLock()
  private var current: Snapshot
  private let observers = CommitObservers()
  /// The entity name commits report.
  public let entity: String

  /// A store holding `records` at version 0.
  public init(entity: String = String(describing: Record.self), records: [Record] = []) {
    self.entity = entity
    self.current = Snapshot(records: records, version: 0)
  }

  /// The committed records and version.
  public var snapshot: Snapshot { lock.withLock { current } }

  /// Runs `body` on the committed snapshot.
  public func read<T: Sendable>(_ body: @escaping @Sendable (Snapshot) throws -> T) async throws -> T {
    try body(snapshot)
  }

  /// Registers `onCommit`; it runs on the writing thread after each commit.
  public func observeCommits(_ onCommit: @escaping @Sendable (StoreCommit) -> Void) -> LiveSubscription {
    observers.add(onCommit)
  }

  /// Runs `body` as one transaction: its changes commit together when it returns, or not at all
  /// when it throws. A transaction that changes nothing commits nothing.
  ///
  /// `body` runs under the store's lock, so writes are serial: it must not call the store.
  @discardableResult
  public func write<T>(_ body: (inout Transaction) throws -> T) throws -> T {
    let (value, commit) = try lock.withLock { () throws -> (T, StoreCommit?) in
      var transaction = Transaction(records: current.records)
      let value = try body(&transaction)
      guard transaction.isChanged else { return (value, nil) }
      current = Snapshot(records: transaction.records, version: current.version + 1)
      return (value, StoreCommit(version: current.version, entities: [entity]))
    }
    if let commit { observers.notify(commit) }
    return value
  }
}

extension InMemoryStore {
  /// The committed records at one version.
  public struct Snapshot: Sendable {
    /// The records, in the order they were inserted (moved with ``Transaction/move(id:to:)``).
    public let records: [Record]
    /// The number of commits so far.
    public let version: UInt64
  }

  /// The changes of one ``write(_:)``.
  public struct Transaction {
    /// The records as the transaction has them so far.
    public private(set) var records: [Record]
    /// Whether anything was written.
    public private(set) var isChanged = false

    init(records: [Record]) { self.records = records }

    /// The index of the record with `id`.
    public func index(of id: Record.ID) -> Int? { records.firstIndex { $0.id == id } }

    /// Inserts `record` (at `index`, or at the end); throws if its ID exists.
    public mutating func insert(_ record: Record, at index: Int? = nil) throws {
      guard self.index(of: record.id) == nil else { throw InMemoryStoreError.duplicateID(String(describing: record.id)) }
      records.insert(record, at: index ?? records.endIndex)
      isChanged = true
    }

    /// Replaces the record with `record.id`; throws if there is none.
    public mutating func update(_ record: Record) throws {
      guard let index = index(of: record.id) else { throw InMemoryStoreError.notFound(String(describing: record.id)) }
      records[index] = record
      isChanged = true
    }

    /// Inserts or replaces `record`.
    public mutating func upsert(_ record: Record) {
      if let index = index(of: record.id) { records[index] = record } else { records.append(record) }
      isChanged = true
    }

    /// Deletes the record with `id`; throws if there is none.
    public mutating func delete(id: Record.ID) throws {
      guard let index = index(of: id) else { throw InMemoryStoreError.notFound(String(describing: id)) }
      records.remove(at: index)
      isChanged = true
    }

    /// Moves the record with `id` to `index` of the stored order; throws if there is none.
    public mutating func move(id: Record.ID, to index: Int) throws {
      guard let from = self.index(of: id) else { throw InMemoryStoreError.notFound(String(describing: id)) }
      let record = records.remove(at: from)
      records.insert(record, at: min(max(index, 0), records.endIndex))
      isChanged = true
    }
  }
}

/// Why an ``InMemoryStore`` transaction refused a write.
public enum InMemoryStoreError: Error, Equatable, Sendable {
  /// A record with this ID exists.
  case duplicateID(String)
  /// No record has this ID.
  case notFound(String)
}
