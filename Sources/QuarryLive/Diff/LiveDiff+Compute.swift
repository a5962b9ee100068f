extension LiveDiff {
  /// The diff from `old` to `new` records, by `Identifiable` identity; values decide `updated`.
  @inlinable
  public static func between<Record: Identifiable & Equatable>(
    old: [Record], new: [Record], reloadThreshold: Int = defaultReloadThreshold
  ) -> LiveDiff {
    between(old: old, new: new, id: { $0.id }, reloadThreshold: reloadThreshold)
  }

  /// The diff from `old` to `new`, by the identity `id` gives; values (`==`) decide `updated`.
  ///
  /// Runs in O(n log n): rows on both sides keep their place when they belong to the longest
  /// subsequence already in order; every other common row is a move. (Swift's
  /// `difference(from:)` is quadratic on shuffles: 20k shuffled rows take seconds.) Returns
  /// ``reload`` when an ID appears twice on a side or when more than `reloadThreshold` rows are
  /// removed, inserted or moved.
  ///
  /// Inlinable, so a caller's record type gets a specialized copy (plain index loops keep the
  /// unspecialized one from looking up generic metadata per row).
  @inlinable
  public static func between<Element: Equatable, ID: Hashable>(
    old: [Element], new: [Element], id: (Element) -> ID, reloadThreshold: Int = defaultReloadThreshold
  ) -> LiveDiff {
    var oldIndex: [ID: Int] = [:]
    oldIndex.reserveCapacity(old.count)
    for i in 0..<old.count where oldIndex.updateValue(i, forKey: id(old[i])) != nil {
      return .reload
    }
    // For each new row, its old index or -1; `matched[i]` marks old rows still present.
    var fromOld = [Int](repeating: -1, count: new.count)
    var matched = [Bool](repeating: false, count: old.count)
    var inserted: [Int] = []
    var commonCount = 0
    for j in 0..<new.count {
      guard let i = oldIndex[id(new[j])] else {
        inserted.append(j)
        continue
      }
      // A second new row with this ID (its old row is taken): duplicate IDs.
      if matched[i] { return .reload }
      matched[i] = true
      fromOld[j] = i
      commonCount += 1
    }
    if inserted.count > 1 {
      // Duplicates among inserted rows.
      var seen = Set<ID>(minimumCapacity: inserted.count)
      for j in inserted where !seen.insert(id(new[j])).inserted { return .reload }
    }
    var removed: [Int] = []
    if commonCount < old.count {
      for i in 0..<old.count where !matched[i] { removed.append(i) }
    }
    if removed.count + inserted.count > reloadThreshold { return .reload }
    var commonFrom: [Int] = []
    var commonTo: [Int] = []
    commonFrom.reserveCapacity(commonCount)
    commonTo.reserveCapacity(commonCount)
    for j in 0..<new.count where fromOld[j] >= 0 {
      commonFrom.append(fromOld[j])
      commonTo.append(j)
    }
    let kept = longestIncreasingRun(commonFrom)
    var moved: [Move] = []
    var updated: [Int] = []
    for k in 0..<commonFrom.count {
      if !kept[k] { moved.append(Move(from: commonFrom[k], to: commonTo[k])) }
      if old[commonFrom[k]] != new[commonTo[k]] { updated.append(commonTo[k]) }
    }
    if removed.count + inserted.count + moved.count > reloadThreshold { return .reload }
    return .rows(RowChanges(removed: removed, inserted: inserted, moved: moved, updated: updated))
  }

  /// Marks the elements of one longest strictly increasing subsequence of `values` (patience sorting).
  @usableFromInline
  static func longestIncreasingRun(_ values: [Int]) -> [Bool] {
    var kept = [Bool](repeating: false, count: values.count)
    guard !values.isEmpty else { return kept }
    var tails: [Int] = []  // tails[l]: index in `values` ending the best run of length l + 1
    var previous = [Int](repeating: -1, count: values.count)
    for (k, value) in values.enumerated() {
      var low = 0, high = tails.count
      while low < high {
        let mid = (low + high) / 2
        if values[tails[mid]] < value { low = mid + 1 } else { high = mid }
      }
      if low > 0 { previous[k] = tails[low - 1] }
      if low == tails.count { tails.append(k) } else { tails[low] = k }
    }
    var k = tails[tails.count - 1]
    while k >= 0 {
      kept[k] = true
      k = previous[k]
    }
    return kept
  }
}
