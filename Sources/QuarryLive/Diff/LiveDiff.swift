/// How a live query's results changed from one delivery to the next: per-row changes by identity,
/// or "reload" when there are too many to be worth animating (or IDs are not unique).
///
/// Index frames follow UIKit's batch-update rules, and each field says which it uses: `removed`
/// holds indices of the *old* results, `inserted` and `updated` indices of the *new* results,
/// and a move both (`from` old, `to` new). Applying removals (and move sources) in descending order,
/// then insertions (and move destinations) in ascending order turns the old results into the new.
///
/// ```swift
/// let diff = LiveDiff.between(old: [1, 2, 3, 4], new: [4, 1, 3, 5], id: { $0 })
/// print(diff)  // rows(removed: [1], inserted: [3], moved: [3 → 0], updated: [])
/// ```
public enum LiveDiff: Sendable, Equatable {
  /// Row changes.
  case rows(RowChanges)
  /// Too many changes (more than the threshold) or duplicate IDs: show the new results as a whole.
  case reload

  /// The default largest number of removed, inserted and moved rows reported one by one.
  public static let defaultReloadThreshold = 1_000

  /// No change at all.
  public var isEmpty: Bool {
    if case .rows(let rows) = self { return rows.isEmpty }
    return false
  }
}

extension LiveDiff {
  /// Per-row changes between two results, by identity.
  public struct RowChanges: Sendable, Equatable {
    /// Indices in the old results of rows that are gone, ascending.
    public var removed: [Int]
    /// Indices in the new results of rows that are new, ascending.
    public var inserted: [Int]
    /// Rows that changed place relative to the others: `from` an old index `to` a new one,
    /// ascending by `to`.
    public var moved: [Move]
    /// Indices in the new results of rows present on both sides whose value changed (moved ones too), ascending.
    public var updated: [Int]

    /// Row changes.
    public init(removed: [Int] = [], inserted: [Int] = [], moved: [Move] = [], updated: [Int] = []) {
      self.removed = removed
      self.inserted = inserted
      self.moved = moved
      self.updated = updated
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && moved.isEmpty && updated.isEmpty }

    /// Removed, inserted and moved rows (what the reload threshold counts).
    public var structuralCount: Int { removed.count + inserted.count + moved.count }
  }

  /// A row that moved: from its index in the old results to its index in the new results.
  public struct Move: Sendable, Hashable, CustomStringConvertible {
    /// Index in the old results.
    public var from: Int
    /// Index in the new results.
    public var to: Int
    /// A move.
    public init(from: Int, to: Int) {
      self.from = from
      self.to = to
    }
    /// `from → to`.
    public var description: String { "\(from) → \(to)" }
  }
}

extension LiveDiff: CustomStringConvertible {
  /// `rows(removed: […], inserted: […], moved: […], updated: […])` or `reload`.
  public var description: String {
    switch self {
    case .reload: "reload"
    case .rows(let r): "rows(removed: \(r.removed), inserted: \(r.inserted), moved: \(r.moved), updated: \(r.updated))"
    }
  }
}
