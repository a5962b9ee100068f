/// The pending timers of a scheduler: a binary min-heap ordered by (due, creation number) plus a
/// map from creation number to the timer's payload (``TimerPayloads``).
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
  private var live = TimerPayloads<Payload>()

  /// The number of live (not removed, not popped) timers.
  var count: Int { live.count }

  /// Whether a live timer has this creation number.
  func contains(_ id: UInt64) -> Bool { live.contains(id) }

  /// Adds a timer. `id` must not be live; a timer re-inserted with its old id (a repeating
  /// interval) keeps its place among timers of equal due time.
  mutating func insert(id: UInt64, due: Due, _ payload: consuming Payload) {
    live.insert(id, payload)
    let node = Node(due: due, id: id)
    let count = heap.count
    heap.append(node)
    // Most timers come due after their parent (a gc timer: the same delay as the one before,
    // a later number): appended and done, without `siftUp`'s checked reads and writes (about
    // 70 instructions a timer).
    if count > 0 && Node.precedes(node, heap[(count - 1) / 2]) { siftUp(count) }
  }

  /// Removes a live timer and returns its payload; unknown ids return `nil`.
  @discardableResult
  mutating func remove(_ id: UInt64) -> Payload? {
    guard let payload = live.remove(id) else { return nil }
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
    if ids.count == live.count, live.containsAll(ids) {
      live.removeAll()
      heap.removeAll(keepingCapacity: true)
      return
    }
    for id in ids { live.remove(id) }
    if live.count == 0 {
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
    guard let payload = live.remove(top.id) else { return nil }
    return (top.id, top.due, payload)
  }

  // MARK: Heap

  private mutating func dropDeadTop() {
    while let top = heap.first, !live.contains(top.id) { removeTop() }
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
    heap.removeAll { !live.contains($0.id) }
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

/// The payloads of a ``TimerQueue``'s live timers by creation number.
///
/// Schedulers number their timers 1, 2, 3, …, and most timers are cleared or fire in roughly
/// the order they were made (a query's gc timer, a stale timer), so the payloads of recent
/// numbers are kept in an array indexed by number (`window`, from `base`): adding one appends,
/// and finding or removing one indexes, without hashing or rehashing a table as it grows (a
/// `Dictionary` insertion cost about 250 instructions per timer). Numbers outside the window
/// (below it: an interval re-inserted with its old number, or a long-lived timer moved out; far
/// above it: a caller that skips numbers) are kept in a `Dictionary`.
///
/// Every operation is O(1) amortized: the window's dead prefix is dropped once it is half the
/// window, and a window that is mostly dead behind a live timer at its front moves its live
/// payloads out to the table and starts again (each payload moves at most once per window it was
/// added to, and the window holds at least as many dead entries as live ones by then).
struct TimerPayloads<Payload> {
  /// The payloads of numbers `base ..< base + window.count` (`nil`: not live); entries before
  /// `head` are all `nil`.
  private var window: [Payload?] = []
  private var base: UInt64 = 0
  private var head = 0
  /// How many entries of `window` are live.
  private var windowCount = 0
  /// Live payloads whose numbers are outside the window.
  private var outside: [TimerNumber: Payload] = [:]

  /// The number of live payloads.
  var count: Int { windowCount + outside.count }

  /// How many entries the window spans from its first live one (tests check it stays bounded).
  var windowSpan: Int { window.count - head }

  /// The window index of `id`, if it is inside the window.
  @inline(__always)
  private func index(_ id: UInt64) -> Int? {
    guard id >= base else { return nil }
    let offset = id - base
    return offset < UInt64(window.count) ? Int(offset) : nil
  }

  /// Whether `id` is live.
  func contains(_ id: UInt64) -> Bool {
    if let i = index(id), window[i] != nil { return true }
    return !outside.isEmpty && outside[TimerNumber(id)] != nil
  }

  /// Whether every one of `ids` is live. With nothing outside the window (the usual case) the
  /// window's slots are read directly: `contains` per id cost about 25 instructions.
  func containsAll<C: Collection<UInt64>>(_ ids: C) -> Bool {
    guard outside.isEmpty else { return ids.allSatisfy { contains($0) } }
    return window.withUnsafeBufferPointer { slots in
      let span = UInt64(slots.count)
      for id in ids {
        // Below the window wraps around to a large offset.
        let offset = id &- base
        guard offset < span, slots[Int(offset)] != nil else { return false }
      }
      return true
    }
  }

  /// Adds the payload of `id`, which must not be live.
  mutating func insert(_ id: UInt64, _ payload: consuming Payload) {
    // The next number at the window's end (most timers): appended without the checks below.
    if id &- base == UInt64(window.count) && !window.isEmpty {
      window.append(payload)
      windowCount += 1
      return
    }
    if let i = index(id) {
      window[i] = payload
      windowCount += 1
      if i < head { head = i }
      return
    }
    if window.isEmpty {
      base = id
    } else if id < base || id - base - UInt64(window.count) > UInt64(window.count) + 64 {
      // Below the window, or so far above it that filling the gap would waste memory.
      outside[TimerNumber(id)] = payload
      return
    }
    // At the window's end (or a short gap after it).
    while base + UInt64(window.count) < id { window.append(nil) }
    window.append(payload)
    windowCount += 1
  }

  /// Removes and returns the payload of `id`; `nil` if it is not live.
  @discardableResult
  mutating func remove(_ id: UInt64) -> Payload? {
    guard let i = index(id), let payload = window[i].take() else {
      return outside.isEmpty ? nil : outside.removeValue(forKey: TimerNumber(id))
    }
    windowCount -= 1
    if windowCount == 0 {
      window.removeAll(keepingCapacity: true)
      head = 0
    } else {
      if i == head { while window[head] == nil { head += 1 } }
      let span = window.count - head
      if head > 32 || span > 64 { shrink(span: span) }
    }
    return payload
  }

  /// Removes every payload.
  mutating func removeAll() {
    window.removeAll(keepingCapacity: true)
    head = 0
    windowCount = 0
    outside.removeAll()
  }

  /// Drops the dead entries before `head` once they are half the window; moves the live
  /// payloads out when the rest of the window (`span` entries from `head`, the first one live)
  /// is mostly dead.
  private mutating func shrink(span: Int) {
    if head > 32 && head * 2 > window.count {
      window.removeFirst(head)
      base += UInt64(head)
      head = 0
    }
    if span > 64 && span > 4 * windowCount {
      for i in head..<window.count {
        if let payload = window[i].take() { outside[TimerNumber(base + UInt64(i))] = payload }
      }
      window.removeAll(keepingCapacity: true)
      head = 0
      windowCount = 0
    }
  }
}
