import Testing
@testable import Quarry

/// The cache's open-addressing table (`QueryTable.swift`): finding, inserting, replacing,
/// removing with backward shift, growing, keys of equal hashes, and a long random run checked
/// against `Dictionary` after every operation.
@Suite struct QueryTableTests {
  /// A key whose structural hash is chosen by the test, so keys can share a hash (and a start).
  struct Key: StructurallyHashable, CustomStringConvertible {
    let name: Int
    let structuralHash: Int
    init(_ name: Int, hash: Int? = nil) {
      self.name = name
      self.structuralHash = hash ?? name &* 0x9E37_79B9
    }
    static func == (a: Key, b: Key) -> Bool { a.name == b.name && a.structuralHash == b.structuralHash }
    func hash(into hasher: inout Hasher) { hasher.combine(structuralHash) }
    var description: String { "\(name)#\(structuralHash)" }
  }

  final class Value {
    let id: Int
    init(_ id: Int) { self.id = id }
  }

  typealias Table = QueryTable<Key, Value>

  @Test func findsWhatWasInsertedAndNothingElse() {
    let table = Table()
    let one = Value(1), two = Value(2)
    table.insert(Prehashed(Key(1)), one)
    table.insert(Prehashed(Key(2)), two)
    #expect(table.find(Prehashed(Key(1))) === one)
    #expect(table.find(Prehashed(Key(2))) === two)
    #expect(table.find(Prehashed(Key(3))) == nil)
    // Same hash, another key: not found.
    #expect(table.find(Prehashed(Key(3, hash: Key(1).structuralHash))) == nil)
    #expect(table.count == 2)
    #expect(table.isConsistent)
  }

  @Test func insertingAnEqualKeyReplacesItsValue() {
    let table = Table()
    let old = Value(1), new = Value(2)
    table.insert(Prehashed(Key(7)), old)
    table.insert(Prehashed(Key(7)), new)
    #expect(table.count == 1)
    #expect(table.find(Prehashed(Key(7))) === new)
  }

  @Test func removesOnlyTheGivenValue() {
    let table = Table()
    let value = Value(1)
    table.insert(Prehashed(Key(1)), value)
    #expect(!table.remove(Prehashed(Key(1)), ifItIs: Value(1)))
    #expect(table.find(Prehashed(Key(1))) === value)
    #expect(!table.remove(Prehashed(Key(2)), ifItIs: value))
    #expect(table.remove(Prehashed(Key(1)), ifItIs: value))
    #expect(table.find(Prehashed(Key(1))) == nil)
    #expect(table.count == 0)
    #expect(!table.remove(Prehashed(Key(1)), ifItIs: value))
  }

  @Test func growsKeepingEveryEntry() {
    let table = Table()
    let values = (0..<10_000).map(Value.init)
    for v in values { table.insert(Prehashed(Key(v.id)), v) }
    #expect(table.count == 10_000)
    // At most three quarters full, a power of two.
    #expect(table.capacity >= 10_000 * 4 / 3)
    #expect(table.capacity & (table.capacity - 1) == 0)
    #expect(table.isConsistent)
    for v in values { #expect(table.find(Prehashed(Key(v.id))) === v) }
    #expect(table.find(Prehashed(Key(10_000))) == nil)
  }

  @Test func keysOfOneHashAreToldApartAndSurviveRemovals() {
    let table = Table()
    // Forty keys in one cluster, growing the table twice on the way.
    let values = (0..<40).map(Value.init)
    for v in values { table.insert(Prehashed(Key(v.id, hash: 42)), v) }
    #expect(table.isConsistent)
    for v in values { #expect(table.find(Prehashed(Key(v.id, hash: 42))) === v) }
    #expect(table.find(Prehashed(Key(40, hash: 42))) == nil)
    // Removing from the front, the middle and the end of the cluster shifts the rest back.
    for id in [0, 20, 39, 1, 19] {
      #expect(table.remove(Prehashed(Key(id, hash: 42)), ifItIs: values[id]))
      #expect(table.isConsistent)
    }
    for v in values {
      let found = table.find(Prehashed(Key(v.id, hash: 42)))
      if [0, 20, 39, 1, 19].contains(v.id) { #expect(found == nil) } else { #expect(found === v) }
    }
    #expect(table.count == 35)
  }

  @Test func removalShiftsTheFollowingEntriesBack() {
    // Two clusters of four keys, the second's start just past the first's, so the second is
    // displaced by the first; removing the first cluster's keys must bring the second back to its
    // start (an empty slot is never followed by a displaced entry: `isConsistent`).
    let table = Table()
    let capacity = table.capacity
    // Find two hashes whose starts are adjacent in this table (its seed is random).
    let a = 1
    var b = 2
    func start(_ hash: Int) -> Int { table.start(ofHash: hash) }
    while start(b) != (start(a) + 1) & (capacity - 1) { b += 1 }
    let first = (0..<2).map { Value($0) }
    let second = (2..<4).map { Value($0) }
    for v in first { table.insert(Prehashed(Key(v.id, hash: a)), v) }
    for v in second { table.insert(Prehashed(Key(v.id, hash: b)), v) }
    #expect(table.capacity == capacity)
    #expect(table.isConsistent)
    #expect(table.distances.sorted() == [0, 1, 1, 2])
    #expect(table.remove(Prehashed(Key(0, hash: a)), ifItIs: first[0]))
    #expect(table.isConsistent)
    #expect(table.distances.sorted() == [0, 0, 1])
    #expect(table.remove(Prehashed(Key(1, hash: a)), ifItIs: first[1]))
    #expect(table.isConsistent)
    #expect(table.distances.sorted() == [0, 1])
    for v in second { #expect(table.find(Prehashed(Key(v.id, hash: b))) === v) }
  }

  @Test func removeAllEmptiesAndShrinks() {
    let table = Table()
    weak var weakValue: Value?
    do {
      let values = (0..<100).map(Value.init)
      weakValue = values[0]
      for v in values { table.insert(Prehashed(Key(v.id)), v) }
    }
    #expect(weakValue != nil)
    table.removeAll()
    // The table held the last references.
    #expect(weakValue == nil)
    #expect(table.count == 0)
    #expect(table.capacity == Table.minimumCapacity)
    #expect(table.find(Prehashed(Key(0))) == nil)
    let value = Value(5)
    table.insert(Prehashed(Key(5)), value)
    #expect(table.find(Prehashed(Key(5))) === value)
  }

  @Test func releasesItsEntriesWhenFreed() {
    weak var weakValue: Value?
    do {
      let table = Table()
      let value = Value(1)
      weakValue = value
      table.insert(Prehashed(Key(1)), value)
    }
    #expect(weakValue == nil)
  }

  @Test func agreesWithDictionaryOverARandomRun() {
    var generator = SplitMix(seed: 0x5175_6172_7279)
    let table = Table()
    var reference: [Key: Value] = [:]
    // Few hashes for many keys: long clusters; keys come and go so the table grows and empties.
    func randomKey() -> Key {
      let name = Int(generator.next() % 600)
      return Key(name, hash: name % 97 == 0 ? 7 : Int(truncatingIfNeeded: generator.next() % 3) &+ name / 3)
    }
    var nextValue = 0
    for step in 0..<60_000 {
      let key = randomKey()
      switch generator.next() % 8 {
      case 0, 1, 2:
        nextValue += 1
        let value = Value(nextValue)
        table.insert(Prehashed(key), value)
        reference[key] = value
      case 3, 4, 5:
        // Remove what is there (or a stranger, which must not remove anything).
        let stranger = generator.next() % 4 == 0
        let value = stranger ? Value(-1) : (reference[key] ?? Value(-1))
        let removed = table.remove(Prehashed(key), ifItIs: value)
        let expected = reference[key] === value
        #expect(removed == expected)
        if expected { reference[key] = nil }
      case 6:
        if generator.next() % 500 == 0 {
          table.removeAll()
          reference.removeAll()
        }
      default:
        #expect(table.find(Prehashed(key)) === reference[key])
      }
      #expect(table.count == reference.count)
      if step % 1_000 == 0 {
        #expect(table.isConsistent)
        for (k, v) in reference { #expect(table.find(Prehashed(k)) === v) }
      }
    }
    #expect(table.isConsistent)
    for (k, v) in reference { #expect(table.find(Prehashed(k)) === v) }
    for name in 600..<700 { #expect(table.find(Prehashed(Key(name, hash: 7))) == nil) }
  }
}

/// A small deterministic generator (SplitMix64) for the random run.
private struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
