/// A local store that live queries read and observe: an in-memory store, a SQLite database, a
/// SwiftData container.
///
/// A store does two things. It runs a read against a consistent view of its committed data
/// (`read(_:)`), and it reports each committed transaction once, after it committed
/// (`observeCommits(_:)`). What a read sees is the store's `Reader`: a snapshot, a connection, a
/// context. A ``LiveDescriptor`` says what to fetch from it; a ``LiveQueryController`` puts the two
/// together, fetching again after each commit that may change the descriptor's results.
public protocol LiveStore: AnyObject, Sendable {
  /// What a read sees: a snapshot (``InMemoryStore``), a connection (``SQLiteStore``), a context.
  associatedtype Reader

  /// Runs `body` against a consistent view of the committed data and returns its result.
  ///
  /// `body` may run on any thread; it must not write to the store.
  func read<T: Sendable>(_ body: @escaping @Sendable (Reader) throws -> T) async throws -> T

  /// Calls `onCommit` once per committed transaction, after the commit, until the subscription is
  /// cancelled. `onCommit` runs on the committing thread (or the store's watcher) with no lock of the
  /// store held; it must be quick.
  func observeCommits(_ onCommit: @escaping @Sendable (StoreCommit) -> Void) -> LiveSubscription
}

/// The "blueprint" of a live query: an equatable, sendable description of a fetch.
///
/// A controller fetches anew only when the descriptor *changes* (`==`), as SwiftDataX's
/// `FetchDescriptorRepresentable` and sqlite-data's hashable requests do; predicates and sort
/// closures are built inside ``fetch(_:)`` from the descriptor's plain values.
public protocol LiveDescriptor: Hashable, Sendable {
  /// What the fetch reads from: the store's ``LiveStore/Reader``.
  associatedtype Reader
  /// A fetched record: a `Sendable` value with a stable identity.
  associatedtype Record: Identifiable & Equatable & Sendable where Record.ID: Sendable

  /// The entities (tables) the fetch reads; `nil` (the default) means any commit may change it.
  var entities: Set<String>? { get }

  /// Fetches the records, in the order the query shows them.
  func fetch(_ reader: Reader) throws -> [Record]
}

extension LiveDescriptor {
  /// Any commit may change the results.
  public var entities: Set<String>? { nil }
}
