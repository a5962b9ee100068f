/// The pending timers of a scheduler: a binary min-heap ordered by (due, creation number) plus a
/// map from creation number to the timer's payload.
///
/// Every operation costs O(log n) or less (amortized), whatever the number of timers:
/// - `insert` pushes onto the heap;
/// - `remove` deletes from the map only (lazy deletion); the heap node left behind is dropped
///   when it reaches the top, and the heap is rebuilt from the live timers when dead nodes
///   outnumber them, so memory stays proportional to the live timers;
/// - `popFirst(dueBy:)` takes the earliest live timer.
///
/// Not thread-safe: each scheduler guards its queue with its own lock.
struct TimerQueue<Due: Comparable, Payload> {
  private struct Node {
    var due: Due
    var id: UInt64

    /// Earlier due first; equal due times fire in creation order.
    static func precedes(_ a: Node, _ b: Node) -> Bool {
      a.due < b.due || (!(b.due < a.due) && a.id < b.id)
    }
  }

  private var heap: [Node] = []
  private var live: [TimerNumber: Payload] = [:]

  /// The number of live (not removed, not popped) timers.
  var count: Int { live.count }

  /// Whether a live timer has this creation number.
  func contains(_ id: UInt64) -> Bool { live[TimerNumber(id)] != nil }

  /// Adds a timer. `id` must not be live; a timer re-inserted with its old id (a repeating
  /// interval) keeps its place among timers of equal due time.
  mutating func insert(id: UInt64, due: Due, _ payload: Payload) {
    live[TimerNumber(id)] = payload
    heap.append(Node(due: due, id: id))
    siftUp(heap.count - 1)
  }

  /// Removes a live timer and returns its payload; unknown ids return `nil`.
  @discardableResult
  mutating func remove(_ id: UInt64) -> Payload? {
    guard let payload = live.removeValue(forKey: TimerNumber(id)) else { return nil }
    if heap.count > 64 && heap.count > 2 * live.count { compact() }
    return payload
  }

  /// Removes every listed timer (unknown ids are ignored) and compacts the heap at most once,
  /// at the end (removing one by one compacts at every halving). The ids must be distinct.
  ///
  /// When they are exactly the live timers (as many, each live: `clear()` of a cache whose
  /// timers are all gc timers), the map is emptied at once instead of entry by entry.
  mutating func remove<C: Collection<UInt64>>(all ids: C) {
    assert(Set(ids).count == ids.count, "remove(all:) needs distinct ids")
    if ids.count == live.count, ids.allSatisfy({ live[TimerNumber($0)] != nil }) {
      live.removeAll(keepingCapacity: true)
      heap.removeAll(keepingCapacity: true)
      return
    }
    for id in ids { live.removeValue(forKey: TimerNumber(id)) }
    if live.isEmpty {
      heap.removeAll(keepingCapacity: true)
    } else if heap.count > 64 && heap.count > 2 * live.count {
      compact()
    }
  }

  /// The earliest live timer's due time.
  mutating func firstDue() -> Due? {
    dropDeadTop()
    return heap.first?.due
  }

  /// Removes and returns the earliest live timer if it is due by `time`.
  mutating func popFirst(dueBy time: Due) -> (id: UInt64, due: Due, payload: Payload)? {
    dropDeadTop()
    guard let top = heap.first, !(time < top.due) else { return nil }
    removeTop()
    guard let payload = live.removeValue(forKey: TimerNumber(top.id)) else { return nil }
    return (top.id, top.due, payload)
  }

  // MARK: Heap

  private mutating func dropDeadTop() {
    while let top = heap.first, live[TimerNumber(top.id)] == nil { removeTop() }
  }

  private mutating func removeTop() {
    let last = heap.removeLast()
    if !heap.isEmpty {
      heap[0] = last
      siftDown(0)
    }
  }

  /// Rebuilds the heap from the live timers (Floyd's O(n) heapify).
  private mutating func compact() {
    heap.removeAll { live[TimerNumber($0.id)] == nil }
    var i = heap.count / 2
    while i > 0 {
      i -= 1
      siftDown(i)
    }
  }

  private mutating func siftUp(_ index: Int) {
    var child = index
    let node = heap[child]
    while child > 0 {
      let parent = (child - 1) / 2
      guard Node.precedes(node, heap[parent]) else { break }
      heap[child] = heap[parent]
      child = parent
    }
    heap[child] = node
  }

  private mutating func siftDown(_ index: Int) {
    var parent = index
    let node = heap[parent]
    let count = heap.count
    while true {
      let left = 2 * parent + 1
      guard left < count else { break }
      let right = left + 1
      let child = right < count && Node.precedes(heap[right], heap[left]) ? right : left
      guard Node.precedes(heap[child], node) else { break }
      heap[parent] = heap[child]
      parent = child
    }
    heap[parent] = node
  }
}
