import Quarry
import Dispatch
import QuarryLive

/// QuarryLive at 1k, 10k and 100k rows: the latency from a committed change to its delivery to
/// an observer (store write, commit notification, fetch, diff, delivery), and the cost of
/// `LiveDiff` alone for a small change and for a shuffle past the reload threshold.
enum LiveWorkloads {
  struct Row: Identifiable, Equatable, Sendable {
    var id: Int
    var value: Int
  }

  /// Every row, in store order.
  struct AllRows: LiveDescriptor {
    func fetch(_ snapshot: InMemoryStore<Row>.Snapshot) -> [Row] { snapshot.records }
  }

  /// Waits for deliveries from the controller's thread.
  final class Deliveries: @unchecked Sendable {
    // Safe: `semaphore` is thread-safe; `diffs` is written before `signal` and read after `wait`.
    let semaphore = DispatchSemaphore(value: 0)
    var last: LiveDiff?
  }

  static func run() -> [Measurement] {
    var out: [Measurement] = []
    for n in [1_000, 10_000, 100_000] {
      out.append(latency(rows: n))
      out.append(contentsOf: diffCost(rows: n))
    }
    return out
  }

  /// Median of 21 single-row updates, each timed from the write to the observer's call.
  static func latency(rows n: Int) -> Measurement {
    let store = InMemoryStore<Row>(records: (0..<n).map { Row(id: $0, value: 0) })
    let controller = LiveQueryController(store: store, descriptor: AllRows())
    let deliveries = Deliveries()
    let subscription = controller.observe { change in
      guard change.state.isLoaded else { return }
      deliveries.last = change.diff
      deliveries.semaphore.signal()
    }
    deliveries.semaphore.wait()  // the first load
    var times: [Measurement] = []
    for round in 1...21 {
      let id = (round * 7919) % n
      times.append(measure("live.latency.\(n)", n: 1) {
        try! store.write { try $0.update(Row(id: id, value: round)) }
        deliveries.semaphore.wait()
      })
      guard case .rows(let rows)? = deliveries.last, rows.updated == [id] else {
        fatalError("live: unexpected diff \(String(describing: deliveries.last))")
      }
    }
    subscription.cancel()
    controller.stop()
    return median(times)
  }

  /// `LiveDiff.between` for one update, one insert, one delete and one move; and for a reversal
  /// (every row moves: reported as a reload after the work of finding out).
  static func diffCost(rows n: Int) -> [Measurement] {
    let old = (0..<n).map { Row(id: $0, value: 0) }
    var small = old
    small[n / 2].value = 1
    small.remove(at: n / 3)
    small.insert(Row(id: n, value: 0), at: n / 4)
    small.swapAt(1, n - 2)
    let reversed = Array(old.reversed())
    let repeats = max(1, 1_000_000 / n)
    var sink = 0
    let smallCost = median((0..<3).map { _ in
      measure("live.diff.small.\(n)", n: repeats) {
        for _ in 0..<repeats { if case .rows(let r) = LiveDiff.between(old: old, new: small) { sink &+= r.structuralCount } }
      }
    })
    let shuffleCost = median((0..<3).map { _ in
      measure("live.diff.reversed.\(n)", n: repeats) {
        for _ in 0..<repeats { if LiveDiff.between(old: old, new: reversed) == .reload { sink &+= 1 } }
      }
    })
    precondition(sink > 0)
    return [smallCost, shuffleCost]
  }
}
