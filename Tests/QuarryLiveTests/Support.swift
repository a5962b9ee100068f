import Foundation
import QuarryLive

/// The record most tests store.
struct Item: Identifiable, Equatable, Sendable {
  var id: Int
  var name: String
  var rank: Int = 0
  var group: String = "a"
}

/// Items with `rank >= minRank`, by rank (then id), ascending or not.
struct ItemsByRank: LiveDescriptor {
  var minRank = Int.min
  var ascending = true
  var entities: Set<String>? = ["Item"]

  func fetch(_ snapshot: InMemoryStore<Item>.Snapshot) throws -> [Item] {
    let sorted = snapshot.records.filter { $0.rank >= minRank }.sorted { ($0.rank, $0.id) < ($1.rank, $1.id) }
    return ascending ? sorted : sorted.reversed()
  }
}

/// Items in stored order.
struct ItemsInOrder: LiveDescriptor {
  func fetch(_ snapshot: InMemoryStore<Item>.Snapshot) throws -> [Item] { snapshot.records }
}

/// A test failure a store read throws.
struct ReadFailure: Error, Equatable {
  var message = "disk on fire"
}

/// A lock for test helpers.
final class Locked<Value>: @unchecked Sendable {
  // Safe: `value` is only touched while `lock` is held.
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
  var current: Value { withLock { $0 } }
}

/// An ``InMemoryStore`` whose reads a test can hold, release one by one, count, and make fail.
/// Waits are on conditions: ``waitForParkedReads(_:)`` returns once that many reads are held.
final class GatedStore: LiveStore, @unchecked Sendable {
  typealias Reader = InMemoryStore<Item>.Snapshot
  // Safe: every `var` is only touched while `lock` is held.
  private let lock = NSLock()
  private var isHolding = false
  private var parked: [CheckedContinuation<Void, Never>] = []
  private var parkWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  private var reads = 0
  private var failure: (any Error)?
  let base: InMemoryStore<Item>

  init(_ records: [Item] = []) { base = InMemoryStore(entity: "Item", records: records) }

  /// Reads started so far.
  var readCount: Int { lock.withLock { reads } }

  /// Holds (true) or lets through (false) reads that start from now on.
  func hold(_ holding: Bool) { lock.withLock { isHolding = holding } }

  /// Makes reads throw `error` (nil: succeed).
  func fail(with error: (any Error)?) { lock.withLock { failure = error } }

  /// Waits until `count` reads are held.
  func waitForParkedReads(_ count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = lock.withLock {
        if parked.count >= count { return true }
        parkWaiters.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// Releases the held read at `index` (0: the oldest).
  func release(at index: Int) {
    let read = lock.withLock { parked.remove(at: index) }
    read.resume()
  }

  func read<T: Sendable>(_ body: @escaping @Sendable (Reader) throws -> T) async throws -> T {
    let holding = lock.withLock { () -> Bool in
      reads += 1
      return isHolding
    }
    if holding {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
          parked.append(continuation)
          let ready = parkWaiters.filter { $0.count <= parked.count }.map(\.continuation)
          parkWaiters.removeAll { $0.count <= parked.count }
          return ready
        }
        for waiter in ready { waiter.resume() }
      }
    }
    if let error = lock.withLock({ failure }) { throw error }
    return try body(base.snapshot)
  }

  func observeCommits(_ onCommit: @escaping @Sendable (StoreCommit) -> Void) -> LiveSubscription {
    base.observeCommits(onCommit)
  }
}

/// Records what an observer receives.
final class ChangeLog: @unchecked Sendable {
  // Safe: `entries` is only touched while `lock` is held.
  private let lock = NSLock()
  private var entries: [LiveChange<Item>] = []
  func append(_ change: LiveChange<Item>) { lock.withLock { entries.append(change) } }
  var changes: [LiveChange<Item>] { lock.withLock { entries } }
  /// One line per change: the state's case and the ids.
  var lines: [String] { changes.map(describe) }
}

/// `loading([1, 2])`, `loaded([1, 2])`, `failed([1])`, `notStarted`.
func describe(_ change: LiveChange<Item>) -> String { describe(change.state) }

/// `loading(nil)`, `loaded([1, 2])`, `failed(nil)`, `notStarted`.
func describe(_ state: Loadable<[Item], any Error>) -> String {
  func ids(_ items: [Item]?) -> String { items.map { "\($0.map(\.id))" } ?? "nil" }
  switch state {
  case .notStarted: return "notStarted"
  case .loading(let previous): return "loading(\(ids(previous)))"
  case .loaded(let items): return "loaded(\(ids(items)))"
  case .failed(_, let previous): return "failed(\(ids(previous)))"
  }
}


/// Applies `diff` to `old` the way a table view does: removals and move sources in descending
/// order, then insertions and move destinations in ascending order. Inserted elements come from
/// `new` (at their new index), moved ones from `old` (at their old index), so a wrong index frame
/// gives a wrong result.
func applied<T: Equatable>(_ diff: LiveDiff, to old: [T], new: [T]) -> [T] {
  guard case .rows(let rows) = diff else { return new }
  var result = old
  let removals = (rows.removed + rows.moved.map(\.from)).sorted(by: >)
  for index in removals { result.remove(at: index) }
  var insertions = rows.inserted.map { ($0, new[$0]) } + rows.moved.map { ($0.to, old[$0.from]) }
  insertions.sort { $0.0 < $1.0 }
  for (index, element) in insertions { result.insert(element, at: index) }
  return result
}
