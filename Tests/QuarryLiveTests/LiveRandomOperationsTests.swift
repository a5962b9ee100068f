import Testing
@testable import QuarryLive
import QuarryScenarios

/// Checks every change an observer receives: its diff, applied to the previous ids, gives the new
/// ids exactly, and `updated` names exactly the rows present before and after whose value changed.
final class DiffChainChecker: @unchecked Sendable {
  // Safe: `previous`, `failures` and `deliveries` are only touched while `lock` is held (observer
  // calls are serial anyway).
  private let lock = Locked<(previous: [Item], failures: [String], deliveries: Int, reloads: Int)>(([], [], 0, 0))

  func check(_ change: LiveChange<Item>) {
    guard let diff = change.diff else { return }
    lock.withLock { state in
      state.deliveries += 1
      let new = change.results
      let ids = applied(diff, to: state.previous.map(\.id), new: new.map(\.id))
      if ids != new.map(\.id) { state.failures.append("delivery \(state.deliveries): \(diff) gave \(ids), not \(new.map(\.id))") }
      switch diff {
      case .reload:
        state.reloads += 1
      case .rows(let rows):
        let old = Dictionary(uniqueKeysWithValues: state.previous.map { ($0.id, $0) })
        let expected = new.indices.filter { index in old[new[index].id].map { $0 != new[index] } ?? false }
        if rows.updated != expected { state.failures.append("delivery \(state.deliveries): updated \(rows.updated), not \(expected)") }
      }
      state.previous = new
    }
  }

  var failures: [String] { lock.withLock { $0.failures } }
  var deliveries: Int { lock.withLock { $0.deliveries } }
  var reloads: Int { lock.withLock { $0.reloads } }
  var lastIDs: [Int] { lock.withLock { $0.previous.map(\.id) } }
}

@Suite struct LiveRandomOperationsTests {
  /// 10,000 seeded inserts, updates, deletes and moves on an in-memory store, observed by two
  /// controllers (one sorted and filtered, one in stored order). Settling after a random number
  /// of commits lets several commits coalesce into one delivery.
  @Test(arguments: [(seed: UInt64(1), reloadThreshold: Int.max), (seed: UInt64(2), reloadThreshold: 2)])
  func tenThousandOperationsEveryDiffTurnsThePreviousIDsIntoTheNew(seed: UInt64, reloadThreshold: Int) async throws {
    var generator = SplitMix64(seed: seed)
    let store = InMemoryStore<Item>(entity: "Item")
    let sorted = LiveQueryController(store: store, descriptor: ItemsByRank(minRank: 10), reloadThreshold: reloadThreshold)
    let ordered = LiveQueryController(store: store, descriptor: ItemsInOrder(), reloadThreshold: reloadThreshold)
    let sortedChecker = DiffChainChecker(), orderedChecker = DiffChainChecker()
    let subscriptions = [sorted.observe { sortedChecker.check($0) }, ordered.observe { orderedChecker.check($0) }]
    var nextID = 0
    var operations = 0
    while operations < 10_000 {
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        operations += 1
        let ids = store.snapshot.records.map(\.id)
        let choice = ids.isEmpty ? 0 : Int.random(in: 0..<4, using: &generator)
        try store.write { tx in
          switch choice {
          case 0 where ids.count < 400, _ where ids.isEmpty:
            nextID += 1
            try tx.insert(Item(id: nextID, name: "n", rank: Int.random(in: 0..<100, using: &generator)),
                          at: Int.random(in: 0...ids.count, using: &generator))
          case 1, 0:
            try tx.delete(id: ids.randomElement(using: &generator)!)
          case 2:
            // A new rank moves the row in the sorted query, or makes it enter or leave it.
            var item = tx.records[tx.index(of: ids.randomElement(using: &generator)!)!]
            if Bool.random(using: &generator) { item.rank = Int.random(in: 0..<100, using: &generator) } else { item.name += "'" }
            try tx.update(item)
          default:
            try tx.move(id: ids.randomElement(using: &generator)!, to: Int.random(in: 0..<ids.count, using: &generator))
          }
        }
      }
      await sorted.settled()
      await ordered.settled()
      // `settled()` returns without suspending when nothing is pending, so without this the
      // loop would hold a cooperative thread for its whole run and starve the suites that wait
      // on the real clock (their timers resume on the same pool).
      await Task.yield()
    }
    #expect(sortedChecker.failures == [])
    #expect(orderedChecker.failures == [])
    #expect(sortedChecker.lastIDs == (try ItemsByRank(minRank: 10).fetch(store.snapshot)).map(\.id))
    #expect(orderedChecker.lastIDs == store.snapshot.records.map(\.id))
    #expect(orderedChecker.deliveries > 1_000)
    if reloadThreshold < 4 { #expect(orderedChecker.reloads > 0) }
    for subscription in subscriptions { subscription.cancel() }
  }

  /// The same on SQLite (1,000 operations): its own commits, one by one or several before a settle.
  @Test func aThousandOperationsOnSQLiteEveryDiffTurnsThePreviousIDsIntoTheNew() async throws {
    var generator = SplitMix64(seed: 3)
    let store = try itemsStore(watchesFile: false)
    let controller = LiveQueryController(store: store, descriptor: SQLItems(minRank: 10), reloadThreshold: .max)
    let checker = DiffChainChecker()
    let subscription = controller.observe { checker.check($0) }
    var nextID = 0
    var live: [Int] = []
    for _ in 0..<1_000 {
      let choice = live.isEmpty ? 0 : Int.random(in: 0..<3, using: &generator)
      try store.write { db in
        switch choice {
        case 0:
          nextID += 1
          live.append(nextID)
          try db.insert(Item(id: nextID, name: "n", rank: Int.random(in: 0..<100, using: &generator)))
        case 1:
          let id = live.remove(at: Int.random(in: 0..<live.count, using: &generator))
          try db.execute("DELETE FROM items WHERE id = ?", [.integer(Int64(id))])
        default:
          let id = live.randomElement(using: &generator)!
          try db.execute("UPDATE items SET rank = ?, name = name || '''' WHERE id = ?",
                         [.integer(Int64(Int.random(in: 0..<100, using: &generator))), .integer(Int64(id))])
        }
      }
      if Int.random(in: 0..<3, using: &generator) == 0 { await controller.settled() }
      await Task.yield()  // as above: lets other suites' jobs onto the cooperative pool
    }
    await controller.settled()
    #expect(checker.failures == [])
    let expected = try await store.read { db in try SQLItems(minRank: 10).fetch(db).map(\.id) }
    #expect(checker.lastIDs == expected)
    subscription.cancel()
  }
}
