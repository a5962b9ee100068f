import Foundation

/// The query cache's keyed table: an open-addressing hash table (Robin Hood linear probing,
/// backward-shift deletion) whose slot holds the key's mixed hash, the key and the value side by
/// side, 32 bytes for a `QueryKey` or a hash string, two to a 64-byte line.
///
/// Swift's `Dictionary` keeps its keys, its values and an occupancy bitmap in three arrays: a
/// lookup in a table too large for the processor's caches waited for a line of each. Here a
/// lookup reads one slot's line (and the next, for the few keys displaced past it).
///
/// It only finds, inserts and removes: the cache keeps its queries' order itself
/// (`QueryCache.ordered`), so the table is never iterated. A key is inserted only when absent
/// (the caller has just looked it up), and removed only when it holds the expected value.
///
/// - Probing: a key starts at its mixed hash's low bits and moves forward; an entry further from
///   its start than the slot's occupant takes the slot and the occupant moves on (Robin Hood), so
///   a lookup that meets an entry nearer its start than the searched key is, or an empty slot,
///   has missed.
/// - Removal shifts the following displaced entries back by one, up to an empty slot or an entry
///   at its start: no tombstones, so lookups never slow down as queries come and go.
/// - Growth doubles the slots at three quarters full and places every entry again by its kept
///   mixed hash (no key is hashed again).
/// - A slot is empty when its first word (the value's reference) is zero: slots are allocated
///   zeroed (`calloc`, which a fresh block of pages needs no writing for), and an emptied slot has
///   that word cleared; an empty slot's key is never read.
final class QueryTable<Key: StructurallyHashable, Value: AnyObject> {
  /// One entry. The value comes first: its reference is the word that tells an entry from an
  /// empty slot (zero).
  struct Slot {
    var value: Value
    /// The key's hash mixed with the table's seed (``mixedHash(_:seed:)``): its low bits are the
    /// slot the key starts at.
    var mixed: Int
    var key: Key
  }

  // Safe (`@exclusivity(unchecked)`, these four): the table is used under its cache's engine
  // lock, and no method calls out while it accesses them (hashing and comparing keys runs no
  // user code), so no two accesses overlap.
  /// The slots, `mask + 1` of them (a power of two), each an entry or empty (zero first word);
  /// aligned to a 64-byte line so a 32-byte slot never straddles two.
  @exclusivity(unchecked) private var slots: UnsafeMutablePointer<Slot>
  /// The block `slots` lies in (what `free` takes).
  @exclusivity(unchecked) private var block: UnsafeMutableRawPointer
  /// The slot count minus one.
  @exclusivity(unchecked) private var mask: Int
  /// How many slots hold an entry.
  @exclusivity(unchecked) private(set) var count = 0
  /// The per-table seed mixed into every hash (drawn from `Hasher`'s per-process seed), so which
  /// keys share a start differs from table to table and process to process.
  private let seed: Int

  /// The slot count of an empty table.
  static var minimumCapacity: Int { 8 }

  init() {
    let (block, slots) = QueryTable.allocate(QueryTable.minimumCapacity)
    self.block = block
    self.slots = slots
    mask = QueryTable.minimumCapacity - 1
    var hasher = Hasher()
    hasher.combine(UInt(bitPattern: block))
    seed = hasher.finalize()
  }

  deinit {
    QueryTable.release(slots, capacity: mask &+ 1, block: block)
  }

  /// How many slots there are (for tests).
  var capacity: Int { mask &+ 1 }

  /// `capacity` empty slots, zeroed, on a 64-byte boundary of the returned block.
  private static func allocate(_ capacity: Int) -> (block: UnsafeMutableRawPointer, slots: UnsafeMutablePointer<Slot>) {
    precondition(MemoryLayout<Slot>.alignment <= 64)
    guard let block = calloc(capacity * MemoryLayout<Slot>.stride + 64, 1) else { fatalError("QueryTable: out of memory") }
    let aligned = UnsafeMutableRawPointer(bitPattern: (UInt(bitPattern: block) &+ 63) & ~63)!
    return (block, aligned.bindMemory(to: Slot.self, capacity: capacity))
  }

  /// Destroys the entries of `slots` and frees their block.
  private static func release(_ slots: UnsafeMutablePointer<Slot>, capacity: Int, block: UnsafeMutableRawPointer) {
    for i in 0..<capacity where isOccupied(slots + i) { (slots + i).deinitialize(count: 1) }
    free(block)
  }

  /// Whether `slot` holds an entry (its first word, the value's reference, is not zero).
  @inline(__always)
  private static func isOccupied(_ slot: UnsafeMutablePointer<Slot>) -> Bool {
    UnsafeRawPointer(slot).load(as: UInt.self) != 0
  }

  /// Marks `slot`, whose entry was moved out or destroyed, empty.
  @inline(__always)
  private static func clear(_ slot: UnsafeMutablePointer<Slot>) {
    UnsafeMutableRawPointer(slot).storeBytes(of: 0, as: UInt.self)
  }

  /// How far slot `i`'s entry is from the slot it starts at.
  @inline(__always)
  private func distance(ofSlot i: Int) -> Int { (i &- slots[i].mixed) & mask }

  /// The slot holding `key` (whose structural hash is `hash`), or -1. Not inlined: its callers
  /// (the keyed reads and writes) stay small enough for the optimizer to inline them whole.
  @inline(never)
  private func index(of key: Key, hash: Int) -> Int {
    let mixed = mixedHash(hash, seed: seed)
    var i = mixed & mask
    var distance = 0
    while QueryTable.isOccupied(slots + i) {
      if slots[i].mixed == mixed, slots[i].key == key { return i }
      // Robin Hood order: every entry past one nearer its start than `key` would be is further
      // along, so `key` is absent.
      if self.distance(ofSlot: i) < distance { return -1 }
      i = (i &+ 1) & mask
      distance &+= 1
    }
    return -1
  }

  /// The value stored under `key`. (The value is read where it is used: returned from the
  /// probing function it was retained and released once more per read.)
  @inline(__always)
  func find(_ key: Prehashed<Key>) -> Value? {
    let i = index(of: key.key, hash: key.hash)
    return i < 0 ? nil : slots[i].value
  }

  /// Stores `value` under `key`, replacing the value of an equal key (the cache looks a key up
  /// before it inserts one, so it never has one to replace).
  @inline(never)
  func insert(_ key: Prehashed<Key>, _ value: Value) {
    if count &+ 1 > (mask &+ 1) / 4 * 3 { grow() }
    let mixed = mixedHash(key.hash, seed: seed)
    var i = mixed & mask
    var distance = 0
    // Up to the slot where the new entry belongs an equal key would have been met (Robin Hood
    // order); past it there is none.
    while QueryTable.isOccupied(slots + i) {
      if slots[i].mixed == mixed, slots[i].key == key.key {
        slots[i].value = value
        return
      }
      if self.distance(ofSlot: i) < distance { break }
      i = (i &+ 1) & mask
      distance &+= 1
    }
    place(Slot(value: value, mixed: mixed, key: key.key), at: i, distance: distance)
    count &+= 1
  }

  /// Puts `entry` (whose key is not in the table) into slot `i`, `distance` slots from its start,
  /// where it belongs, moving each later entry on to its own Robin Hood place; there is an empty
  /// slot.
  @inline(__always)
  private func place(_ entry: consuming Slot, at start: Int, distance startDistance: Int) {
    var entry = entry
    var i = start
    var distance = startDistance
    while QueryTable.isOccupied(slots + i) {
      let occupant = self.distance(ofSlot: i)
      if occupant < distance {
        swap(&slots[i], &entry)
        distance = occupant
      }
      i = (i &+ 1) & mask
      distance &+= 1
    }
    (slots + i).initialize(to: entry)
  }

  /// Doubles the slots, placing every entry again by its kept mixed hash.
  private func grow() {
    let old = slots
    let oldBlock = block
    let oldCapacity = mask &+ 1
    (block, slots) = QueryTable.allocate(oldCapacity * 2)
    mask = oldCapacity * 2 &- 1
    for j in 0..<oldCapacity where QueryTable.isOccupied(old + j) {
      let entry = (old + j).move()
      place(entry, at: entry.mixed & mask, distance: 0)
    }
    // Every entry was moved out: nothing to destroy.
    free(oldBlock)
  }

  /// Removes the entry of `key` if its value is `value`; returns whether it did.
  @discardableResult
  func remove(_ key: Prehashed<Key>, ifItIs value: Value) -> Bool {
    let found = index(of: key.key, hash: key.hash)
    guard found >= 0, slots[found].value === value else { return false }
    (slots + found).deinitialize(count: 1)
    // Backward shift: each following entry that is not at its start moves back one slot.
    var hole = found
    var next = (hole &+ 1) & mask
    while QueryTable.isOccupied(slots + next), distance(ofSlot: next) != 0 {
      (slots + hole).moveInitialize(from: slots + next, count: 1)
      hole = next
      next = (next &+ 1) & mask
    }
    QueryTable.clear(slots + hole)
    count &-= 1
    return true
  }

  /// Removes every entry and returns to the smallest size.
  func removeAll() {
    let old = slots
    let oldBlock = block
    let oldCapacity = mask &+ 1
    (block, slots) = QueryTable.allocate(QueryTable.minimumCapacity)
    mask = QueryTable.minimumCapacity - 1
    count = 0
    QueryTable.release(old, capacity: oldCapacity, block: oldBlock)
  }

  /// The slot a key of structural hash `hash` starts at (for tests).
  func start(ofHash hash: Int) -> Int { mixedHash(hash, seed: seed) & mask }

  /// Each entry's distance from its start, in slot order (for tests).
  var distances: [Int] { (0...mask).filter { QueryTable.isOccupied(slots + $0) }.map { distance(ofSlot: $0) } }

  /// Whether the table is well formed (for tests): every slot keeps its key's mixed hash, an
  /// entry right after an empty slot is at its start, and along a run of entries each is at most
  /// one slot further from its start than the one before (the Robin Hood order).
  var isConsistent: Bool {
    var entries = 0
    for i in 0...mask where QueryTable.isOccupied(slots + i) {
      entries += 1
      let previous = (i &- 1) & mask
      let d = distance(ofSlot: i)
      if !QueryTable.isOccupied(slots + previous) {
        if d != 0 { return false }
      } else if d > distance(ofSlot: previous) &+ 1 {
        return false
      }
      if slots[i].mixed != mixedHash(slots[i].key.structuralHash, seed: seed) { return false }
    }
    return entries == count
  }
}
