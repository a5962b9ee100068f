/// The cache's table of queries by key (`QueryCache`'s `byKey`): an open-addressing table whose
/// slot is a query and its key's kept hash, 16 bytes, in one array.
///
/// A `Dictionary<Prehashed<QueryKey>, Query>` kept its keys and its values in two arrays, so
/// every insertion, and every entry moved as the table grew, wrote a line of each at random
/// (a new key's write is bound by such misses as the cache outgrows the processor's caches). Here
/// the slot holds the query alone: its key is the query's own (`Query.queryKey`), read only when
/// the hashes are equal, and growing reads no key.
///
/// Linear probing from the hash mixed with the table's seed (``mixedHash(_:seed:)``), at most
/// three slots in four used, removal by shifting the following slots back (no tombstones). The
/// table holds a strong reference to each query it holds. Not thread-safe: the engine lock guards it.
struct KeyTable: ~Copyable {
  /// One slot: empty when `query` is `nil`.
  private struct Slot {
    var hash: Int
    var query: Unmanaged<Query>?
  }

  /// `capacity` slots, or `nil` before the first insertion.
  private var slots: UnsafeMutablePointer<Slot>?
  /// The number of slots minus one (slots are a power of two); -1 while there are none.
  private var mask = -1
  /// How many queries the table holds.
  private(set) var count = 0
  /// Mixed into every hash, so that where keys land changes from process to process (it comes
  /// from the process's `Hasher` seed, fixed under `SWIFT_DETERMINISTIC_HASHING`). Every table
  /// of a process has the same seed, unlike `Dictionary`'s per-table seeds: those keep a table
  /// filled in another's slot order from clustering, and a `KeyTable` is only ever filled in its
  /// own order (growing places its slots, in order, into twice as many).
  private let seed: Int

  /// An empty table.
  init() {
    var hasher = Hasher()
    hasher.combine(0x5155_4152_5259 as Int)
    seed = hasher.finalize()
  }

  deinit {
    releaseAll()
  }

  /// Where `key`'s query is (`found`), or the empty slot that ends its run (where it would go).
  /// The table has slots.
  @inline(__always)
  private func find(_ key: Prehashed<QueryKey>) -> (index: Int, found: Bool) {
    let slots = slots.unsafelyUnwrapped
    let hash = key.hash
    var i = mixedHash(hash, seed: seed) & mask
    while let held = slots[i].query {
      if slots[i].hash == hash, held._withUnsafeGuaranteedRef({ $0.hasKey(key.key) }) { return (i, true) }
      i = (i &+ 1) & mask
    }
    return (i, false)
  }

  /// The query under `key`, or `nil`.
  @inline(__always)
  func lookup(_ key: Prehashed<QueryKey>) -> Query? {
    guard let slots else { return nil }
    let (i, found) = find(key)
    return found ? slots[i].query.unsafelyUnwrapped.takeUnretainedValue() : nil
  }

  /// Puts `query` under `key`, replacing the query there, if any.
  mutating func set(_ query: Query, for key: Prehashed<QueryKey>) {
    if (count &+ 1) &* 4 > (mask &+ 1) &* 3 { grow() }
    let slots = slots.unsafelyUnwrapped
    let (i, found) = find(key)
    let held = slots[i].query
    slots[i] = Slot(hash: key.hash, query: Unmanaged.passRetained(query))
    if found { held.unsafelyUnwrapped.release() } else { count &+= 1 }
  }

  /// Removes `query` from under its key, if it is the query there.
  mutating func remove(_ query: Query) {
    guard let slots else { return }
    let (i, found) = find(Prehashed(query.queryKey))
    guard found, let held = slots[i].query, held.toOpaque() == Unmanaged.passUnretained(query).toOpaque() else { return }
    shiftBack(into: i)
    count &-= 1
    held.release()
  }

  /// Empties the table and gives its memory back.
  mutating func removeAll() {
    releaseAll()
    slots = nil
    mask = -1
    count = 0
  }

  /// Releases every query held and frees the slots (`removeAll` and `deinit`).
  private func releaseAll() {
    guard let slots else { return }
    for i in 0...mask { slots[i].query?.release() }
    slots.deallocate()
  }

  /// Empties slot `hole` (its query already taken out) by moving back each following slot of
  /// its run whose place is not between the hole and itself, so that every lookup still finds
  /// its query before an empty slot.
  private mutating func shiftBack(into hole: Int) {
    let slots = slots.unsafelyUnwrapped
    var hole = hole
    var j = hole
    while true {
      j = (j &+ 1) & mask
      guard slots[j].query != nil else { break }
      let home = mixedHash(slots[j].hash, seed: seed) & mask
      // The slot stays if its home is cyclically in (hole, j]: a lookup from there reaches it
      // without passing the hole.
      let stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j)
      if stays { continue }
      slots[hole] = slots[j]
      hole = j
    }
    slots[hole].query = nil
  }

  /// Doubles the slots (16 at first) and places every query again by its kept hash.
  private mutating func grow() {
    let capacity = Swift.max(16, (mask &+ 1) &* 2)
    let grown = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
    grown.initialize(repeating: Slot(hash: 0, query: nil), count: capacity)
    let newMask = capacity &- 1
    if let slots {
      for old in 0...mask {
        guard slots[old].query != nil else { continue }
        var i = mixedHash(slots[old].hash, seed: seed) & newMask
        while grown[i].query != nil { i = (i &+ 1) & newMask }
        grown[i] = slots[old]
      }
      slots.deallocate()
    }
    slots = grown
    mask = newMask
  }
}
