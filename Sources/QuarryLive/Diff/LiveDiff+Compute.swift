extension LiveDiff {
  /// The diff from `old` to `new` records, by `Identifiable` identity; values decide `updated`.
  public static func between<Record: Identifiable & Equatable>(
    old: [Record], new: [Record], reloadThreshold: Int = defaultReloadThreshold
  ) -> LiveDiff {
    between(old: old, new: new, id: \.id, reloadThreshold: reloadThreshold)
  }

  /// The diff from `old` to `new`, by the identity `id` gives; values (`==`) decide `updated`.
  ///
  /// Runs in O(n log n): rows on both sides keep their place when they belong to the longest
  /// subsequence already in order; every other common row is a move. (Swift's
  /// `difference(from:)` is quadratic on shuffles: 20k shuffled rows take seconds.) Returns
  /// ``reload`` when an ID appears twice on a side or when more than `reloadThreshold` rows are
  /// removed, inserted or moved.
  public static func between<Element: Equatable, ID: Hashable>(
    old: [Element], new: [Element], id: (Element) -> ID, reloadThreshold: Int = defaultReloadThreshold
  ) -> LiveDiff {
    var oldIndex: [ID: Int] = [:]
    oldIndex.reserveCapacity(old.count)
    for (i, element) in old.enumerated() where oldIndex.updateValue(i, forKey: id(element)) != nil {
      return .reload
    }
    var seen = Set<ID>()
    seen.reserveCapacity(new.count)
    var inserted: [Int] = []
    var common: [(from: Int, to: Int)] = []  // in new order
    for (j, element) in new.enumerated() {
      let key = id(element)
      guard seen.insert(key).inserted else { return .reload }
      if let i = oldIndex[key] { common.append((i, j)) } else { inserted.append(j) }
    }
    var removed: [Int] = []
    if common.count < old.count {
      for (i, element) in old.enumerated() where !seen.contains(id(element)) { removed.append(i) }
    }
    if removed.count + inserted.count > reloadThreshold { return .reload }
    let kept = longestIncreasingRun(common.map(\.from))
    var moved: [Move] = []
    var updated: [Int] = []
    for (k, pair) in common.enumerated() {
      if !kept[k] { moved.append(Move(from: pair.from, to: pair.to)) }
      if old[pair.from] != new[pair.to] { updated.append(pair.to) }
    }
    if removed.count + inserted.count + moved.count > reloadThreshold { return .reload }
    return .rows(RowChanges(removed: removed, inserted: inserted, moved: moved, updated: updated))
  }

  /// Marks the elements of one longest strictly increasing subsequence of `values` (patience sorting).
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
