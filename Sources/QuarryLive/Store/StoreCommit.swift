/// One committed transaction of a ``LiveStore``: its version and the entities it wrote.
///
/// A commit names entities (tables), not rows: a changed row can enter or leave a query's
/// predicate, so a controller fetches again either way and finds the per-row changes by diffing
/// (``LiveDiff``).
public struct StoreCommit: Sendable, Equatable {
  /// The store's version after the commit; it only grows.
  public var version: UInt64
  /// The entities the transaction wrote, or `nil` when unknown (another connection or process wrote).
  public var entities: Set<String>?

  /// A commit.
  public init(version: UInt64, entities: Set<String>?) {
    self.version = version
    self.entities = entities
  }

  /// Whether a query reading `read` (`nil`: anything) may see a change from this commit.
  public func affects(_ read: Set<String>?) -> Bool {
    guard let entities, let read else { return true }
    return !entities.isDisjoint(with: read)
  }
}
