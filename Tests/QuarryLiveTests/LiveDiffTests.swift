import Testing
@testable import QuarryLive
import QuarryScenarios

@Suite struct LiveDiffTests {
  @Test func reportsRemovalsInOldIndicesInsertionsAndMovesInNewOnes() {
    let diff = LiveDiff.between(old: [1, 2, 3, 4], new: [4, 1, 3, 5], id: { $0 })
    #expect(diff == .rows(.init(removed: [1], inserted: [3], moved: [.init(from: 3, to: 0)])))
    #expect(diff.description == "rows(removed: [1], inserted: [3], moved: [3 → 0], updated: [])")
    #expect(applied(diff, to: [1, 2, 3, 4], new: [4, 1, 3, 5]) == [4, 1, 3, 5])
  }

  @Test func aChangedValueWithTheSameIdentityIsAnUpdateNotARemoveAndInsert() {
    let old = [Item(id: 1, name: "a"), Item(id: 2, name: "b"), Item(id: 3, name: "c")]
    var new = old
    new[1].name = "B"
    #expect(LiveDiff.between(old: old, new: new) == .rows(.init(updated: [1])))
    #expect(LiveDiff.between(old: old, new: old).isEmpty)
  }

  @Test func aMovedAndChangedRowIsReportedAsBoth() {
    let old = [Item(id: 1, name: "a"), Item(id: 2, name: "b")]
    let new = [Item(id: 2, name: "B"), Item(id: 1, name: "a")]
    // One of the two is the move; the other keeps its place. Updated is in the new frame.
    guard case .rows(let rows) = LiveDiff.between(old: old, new: new) else {
      Issue.record("expected rows")
      return
    }
    #expect(rows.moved.count == 1)
    #expect(rows.updated == [0])
    #expect(applied(.rows(rows), to: old.map(\.id), new: new.map(\.id)) == [2, 1])
  }

  @Test func moreChangesThanTheThresholdIsAReload() {
    let old = Array(0..<10)
    #expect(LiveDiff.between(old: old, new: Array(5..<15), id: { $0 }, reloadThreshold: 9) == .reload)
    #expect(LiveDiff.between(old: old, new: Array(5..<15), id: { $0 }, reloadThreshold: 10) != .reload)
    #expect(LiveDiff.between(old: old, new: old.reversed(), id: { $0 }, reloadThreshold: 8) == .reload)
  }

  @Test func duplicateIdentitiesOnEitherSideAreAReload() {
    #expect(LiveDiff.between(old: [1, 1], new: [1], id: { $0 }) == .reload)
    #expect(LiveDiff.between(old: [1], new: [1, 2, 2], id: { $0 }) == .reload)
    // A row already in `old` twice in `new`, with or without rows in between.
    #expect(LiveDiff.between(old: [1, 2], new: [1, 1], id: { $0 }) == .reload)
    #expect(LiveDiff.between(old: [1, 2], new: [2, 3, 2], id: { $0 }) == .reload)
  }

  @Test func fromAndToNothing() {
    #expect(LiveDiff.between(old: [], new: [7, 8], id: { $0 }) == .rows(.init(inserted: [0, 1])))
    #expect(LiveDiff.between(old: [7, 8], new: [], id: { $0 }) == .rows(.init(removed: [0, 1])))
    #expect(LiveDiff.between(old: [Int](), new: [], id: { $0 }).isEmpty)
  }

  @Test func aReversalMovesAllButOneRow() {
    let old = Array(0..<1_000)
    let diff = LiveDiff.between(old: old, new: old.reversed(), id: { $0 }, reloadThreshold: .max)
    guard case .rows(let rows) = diff else {
      Issue.record("expected rows")
      return
    }
    #expect(rows.moved.count == 999)
    #expect(applied(diff, to: old, new: Array(old.reversed())) == Array(old.reversed()))
  }

  /// Diff cost: a shuffle of 100k rows is n log n (Swift's `difference(from:)` needs seconds for
  /// 20k), and the diff is exact: moves are the complement of one longest ordered run.
  @Test func aShuffleOfOneHundredThousandRowsIsExactAndMinimal() {
    var generator = SplitMix64(seed: 100_000)
    let old = Array(0..<100_000)
    var new = old.shuffled(using: &generator)
    new.removeLast(1_000)
    new += 100_000..<100_500
    new.shuffle(using: &generator)
    let diff = LiveDiff.between(old: old, new: new, id: { $0 }, reloadThreshold: .max)
    guard case .rows(let rows) = diff else {
      Issue.record("expected rows")
      return
    }
    #expect(rows.removed.count == 1_000)
    #expect(rows.inserted.count == 500)
    let common = new.filter { $0 < 100_000 }
    #expect(rows.moved.count == common.count - longestIncreasingLength(common))
    #expect(applied(diff, to: old, new: new) == new)
  }

  @Test func tenThousandRandomEditsEachDiffTurnsTheOldIDsIntoTheNew() {
    var generator = SplitMix64(seed: 15)
    var current: [Item] = []
    var nextID = 0
    for step in 0..<10_000 {
      var next = current
      for _ in 0..<Int.random(in: 1...3, using: &generator) {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0 where next.count < 300, _ where next.isEmpty:
          nextID += 1
          next.insert(Item(id: nextID, name: "n\(step)"), at: Int.random(in: 0...next.count, using: &generator))
        case 1:
          next.remove(at: Int.random(in: 0..<next.count, using: &generator))
        case 2:
          next[Int.random(in: 0..<next.count, using: &generator)].name = "u\(step)"
        default:
          let moved = next.remove(at: Int.random(in: 0..<next.count, using: &generator))
          next.insert(moved, at: Int.random(in: 0...next.count, using: &generator))
        }
      }
      let diff = LiveDiff.between(old: current, new: next, reloadThreshold: .max)
      #expect(applied(diff, to: current.map(\.id), new: next.map(\.id)) == next.map(\.id), "step \(step)")
      if case .rows(let rows) = diff {
        let changed = rows.updated.map { next[$0].id }
        let oldByID = Dictionary(uniqueKeysWithValues: current.map { ($0.id, $0) })
        let expected = next.filter { item in oldByID[item.id].map { $0 != item } ?? false }.map(\.id)
        #expect(changed == expected, "step \(step)")
      } else {
        Issue.record("unexpected reload at step \(step)")
      }
      current = next
    }
  }

  /// One edit in 1k, 10k and 100k rows is one change, however large the results: the cost a UI
  /// pays is the edit, not the table.
  @Test(arguments: [1_000, 10_000, 100_000])
  func oneEditInALargeTableIsOneChange(rows: Int) {
    let old = Array(0..<rows)
    var moved = old
    moved.insert(moved.remove(at: rows / 3), at: rows - 10)
    #expect(LiveDiff.between(old: old, new: moved, id: { $0 }) == .rows(.init(moved: [.init(from: rows / 3, to: rows - 10)])))
    var removed = old
    removed.remove(at: rows / 2)
    #expect(LiveDiff.between(old: old, new: removed, id: { $0 }) == .rows(.init(removed: [rows / 2])))
    let appended = old + [rows]
    #expect(LiveDiff.between(old: old, new: appended, id: { $0 }) == .rows(.init(inserted: [rows])))
  }

  @Test func longestIncreasingRunKeepsAnOrderedSubsequenceOfMaximalLength() {
    let values = [5, 1, 6, 2, 7, 3, 8]
    let kept = LiveDiff.longestIncreasingRun(values)
    let run = values.indices.filter { kept[$0] }.map { values[$0] }
    #expect(run == run.sorted())
    #expect(run.count == 4)  // 1 2 3 8, 1 2 7 8, …
  }
}

/// The length of a longest strictly increasing subsequence (quadratic-free reference by patience).
func longestIncreasingLength(_ values: [Int]) -> Int {
  var tails: [Int] = []
  for value in values {
    var low = 0, high = tails.count
    while low < high {
      let mid = (low + high) / 2
      if tails[mid] < value { low = mid + 1 } else { high = mid }
    }
    if low == tails.count { tails.append(value) } else { tails[low] = value }
  }
  return tails.count
}
