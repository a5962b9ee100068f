import Testing
import QuarryApp
import QuarryScenarios

// The encoder's object shapes (typed13): the first object of a `CodingKey` type learns the
// member names it was written with, in order, and later objects of that type set their values
// in a copy of the learned table. Every way an object can leave its type's shape (other names,
// another order, fewer or more members, a name twice, a nested value, a container asked for
// again, a super encoder) must still encode as the former encoder did (`expectSameKeys`,
// against OracleKeyEncoder.swift), whichever object of the type came first.

/// The members `VaryingKey<Tag>` objects may have.
struct VaryingKey<Tag>: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
  static var a: Self { Self(stringValue: "a") }
  static var b: Self { Self(stringValue: "b") }
  static var c: Self { Self(stringValue: "c") }
  static var d: Self { Self(stringValue: "d") }
}

/// An object whose members depend on `mode`, keyed by `VaryingKey<Tag>` (each `Tag` a `CodingKey`
/// type of its own, so each test starts with no shape learned). Mode 0 is the usual shape.
struct ShapeVarying<Tag>: Encodable, Hashable, Sendable {
  var mode: Int
  var number: Int
  var text: String

  func encode(to encoder: any Encoder) throws {
    var keyed = encoder.container(keyedBy: VaryingKey<Tag>.self)
    switch mode {
    case 0:  // the usual shape: a, b, c
      try keyed.encode(number, forKey: .a)
      try keyed.encode(text, forKey: .b)
      try keyed.encode(number % 2 == 0, forKey: .c)
    case 1:  // another order
      try keyed.encode(text, forKey: .b)
      try keyed.encode(number, forKey: .a)
      try keyed.encode(true, forKey: .c)
    case 2:  // fewer (an optional left out last)
      try keyed.encode(number, forKey: .a)
      try keyed.encode(text, forKey: .b)
    case 3:  // fewer (left out in the middle)
      try keyed.encode(number, forKey: .a)
      try keyed.encode(false, forKey: .c)
    case 4:  // more
      try keyed.encode(number, forKey: .a)
      try keyed.encode(text, forKey: .b)
      try keyed.encode(number % 2 == 0, forKey: .c)
      try keyed.encodeNil(forKey: .d)
    case 5:  // a name twice, replacing its value
      try keyed.encode(number, forKey: .a)
      try keyed.encode(text, forKey: .a)
      try keyed.encode(number % 2 == 0, forKey: .c)
    case 6:  // a nested value where a leaf was
      try keyed.encode(number, forKey: .a)
      var nested = keyed.nestedContainer(keyedBy: VaryingKey<Tag>.self, forKey: .b)
      try nested.encode(text, forKey: .a)
      try keyed.encode(true, forKey: .c)
    case 7:  // a nested value, then a leaf over it
      try keyed.encode(number, forKey: .a)
      var list = keyed.nestedUnkeyedContainer(forKey: .b)
      try list.encode(number)
      try keyed.encode(text, forKey: .b)
      try keyed.encode(false, forKey: .c)
    case 8:  // the same names through a second container and a super encoder
      try keyed.encode(number, forKey: .a)
      var again = encoder.container(keyedBy: VaryingKey<Tag>.self)
      try again.encode(text, forKey: .b)
      var superKeyed = keyed.superEncoder().container(keyedBy: VaryingKey<Tag>.self)
      try superKeyed.encode(number % 2 == 0, forKey: .c)
    case 9:  // a single value replaces the object, whose later writes are lost
      try keyed.encode(number, forKey: .a)
      var single = encoder.singleValueContainer()
      try single.encode(text)
      try keyed.encode(true, forKey: .c)
    case 10:  // names equal to Swift but spelled apart: one member, its first spelling
      try keyed.encode(number, forKey: VaryingKey(stringValue: "\u{E9}"))
      try keyed.encode(text, forKey: VaryingKey(stringValue: "e\u{301}"))
      try keyed.encode(true, forKey: .c)
    case 11:  // the usual names, spelled as heap strings (other bits, the same code units)
      try keyed.encode(number, forKey: VaryingKey(stringValue: heap("a")))
      try keyed.encode(text, forKey: VaryingKey(stringValue: heap("b")))
      try keyed.encode(number % 2 == 0, forKey: VaryingKey(stringValue: heap("c")))
    case 12:  // nothing
      break
    case 13:  // a leaf that is itself an object or an array (a `JSONValue`)
      try keyed.encode(JSONValue.object(["x": .number(Double(number))]), forKey: .a)
      try keyed.encode(JSONValue.array([.string(text)]), forKey: .b)
      try keyed.encode(JSONValue.undefined, forKey: .c)
    default:  // non-finite numbers (written null), an optional leaf
      try keyed.encode(Double.nan, forKey: .a)
      try keyed.encode(Int?.none, forKey: .b)
      try keyed.encode(Float.infinity, forKey: .c)
    }
  }

  /// `text` in heap storage.
  private func heap(_ text: String) -> String {
    var heap = String(repeating: "x", count: 32)
    heap.removeAll(keepingCapacity: true)
    heap += text
    return heap
  }
}

/// Phantom tags: one `CodingKey` type per test sequence.
enum ShapeTag0 {}
enum ShapeTag1 {}
enum ShapeTag2 {}
enum ShapeTag3 {}

/// The usual shape as a synthesized `Codable` struct writes it, and one with optionals
/// (`encodeIfPresent` leaves nil members out, so its shape varies).
struct ShapeFlat: Codable, Hashable, Sendable {
  var id: Int
  var name: String
  var ratio: Double
  var done: Bool
}

struct ShapeOptionals: Codable, Hashable, Sendable {
  var id: Int
  var search: String?
  var page: Int?
  var done: Bool
}

struct ShapeOuter: Codable, Hashable, Sendable {
  var flat: ShapeFlat
  var list: [ShapeFlat]
  var tag: String
}

/// A flat object whose scalar members may be ones JSON text does not write as they are
/// (`undefined`, NaN, infinities as `JSONValue`s): its typed key's hash, summed from the
/// shape's member hashers, must carry the same "unfaithful" bit as the whole walk's.
struct ShapeScalars: Encodable, Hashable, Sendable {
  var first: JSONValue
  var second: JSONValue
  var third: Int
}

@Suite struct ObjectShapeTests {
  /// Typed keys of shaped objects hash as keys built from the same parts (checked by
  /// `expectSameKeys`; debug builds also assert it for every key built this way).
  @Test func shapedKeysHashAsTheWholeWalk() {
    var source = ValueSource()
    let scalars: [JSONValue] = [.undefined, .null, .bool(true), .number(.nan), .number(.infinity), .number(-0.0), .number(0), .string(""), .string("e\u{301}")]
    for _ in 0..<300 {
      expectSameKeys(ShapeScalars(first: source.pick(scalars), second: source.chance(4) ? source.json() : source.pick(scalars), third: source.int()))
    }
  }

  /// For each mode that leaves the shape: the usual shape learned and used, then that mode,
  /// then the usual shape again (on the general path from then on), each checked against the
  /// former encoder. Each mode gets a fresh `CodingKey` type (the tags below), and each mode is
  /// also the first object of its type once (learning from an odd object).
  @Test func everyWayOutOfTheShapeEncodesAsBefore() {
    func sequence<Tag>(_ tag: Tag.Type, leaving mode: Int, first: Int) {
      var source = ValueSource()
      let order = [first, 0, 0, 0, mode, 0, mode, 0, 0]
      for m in order {
        expectSameKeys(ShapeVarying<Tag>(mode: m, number: source.int(), text: source.string()))
      }
    }
    // Generic tags make a `CodingKey` type per (mode, first) pair.
    for mode in 1...14 {
      sequence(ModeTag<ShapeTag0>.self, leaving: mode, first: 0)
    }
    func perMode<T>(_: T.Type, _ mode: Int) {
      sequence(ModeTag<(T, ShapeTag1)>.self, leaving: mode, first: 0)
      sequence(ModeTag<(T, ShapeTag2)>.self, leaving: 0, first: mode)
      sequence(ModeTag<(T, ShapeTag3)>.self, leaving: mode, first: mode)
    }
    perMode(Int.self, 1); perMode(Int8.self, 2); perMode(Int16.self, 3); perMode(Int32.self, 4)
    perMode(Int64.self, 5); perMode(UInt.self, 6); perMode(UInt8.self, 7); perMode(UInt16.self, 8)
    perMode(UInt32.self, 9); perMode(UInt64.self, 10); perMode(Float.self, 11); perMode(Double.self, 12)
    perMode(Bool.self, 13); perMode(String.self, 14)
  }

  /// Synthesized `Codable` structs: a flat one keeps its shape; one with optionals leaves it
  /// whenever another member is nil; nested flat objects (a member, array elements) use their
  /// own type's shape inside an object that has none.
  @Test func synthesizedStructsEncodeAsBefore() {
    var source = ValueSource()
    for _ in 0..<500 {
      let flat = ShapeFlat(id: source.int(), name: source.string(), ratio: source.double(), done: source.chance(2))
      expectSameKeys(flat)
      expectSameKeys(ShapeOptionals(id: source.int(), search: source.optional { $0.string() }, page: source.optional { $0.int() }, done: source.chance(2)))
      expectSameKeys(ShapeOuter(flat: flat, list: [flat, flat], tag: source.string()))
      expectSameKeys([flat])
      expectSameKeys(["k": flat])
    }
  }

  /// Objects of many members (no shape is learned past 32) and dictionaries (whose keys come
  /// in no fixed order) encode as before, the same value again too.
  @Test func largeObjectsAndDictionariesEncodeAsBefore() {
    var source = ValueSource()
    for count in [31, 32, 33, 40] {
      var members: [String: Int] = [:]
      while members.count < count { members[source.string() + "\(members.count)"] = source.int() }
      for _ in 0..<3 { expectSameKeys(members) }
      expectSameKeys(members.mapValues { _ in source.int() })
    }
  }

  /// Objects of one type encoded from many tasks at once, the type's shape learned, used and
  /// left meanwhile: each encodes as the former encoder did.
  @Test func shapesAreSafeFromManyThreads() async {
    await withTaskGroup(of: Bool.self) { group in
      for task in 0..<8 {
        group.addTask {
          var source = ValueSource()
          source.rng = SplitMix64(seed: UInt64(task))
          return (0..<300).allSatisfy { i in
            let mode = i < 100 ? 0 : (source.chance(3) ? Int.random(in: 1...14, using: &source.rng) : 0)
            let a = ShapeVarying<ModeTag<Character>>(mode: mode, number: source.int(), text: source.string())
            let b = ShapeFlat(id: source.int(), name: source.string(), ratio: source.double(), done: source.chance(2))
            return sameKeys(a) && sameKeys(b)
          }
        }
      }
      for await ok in group { #expect(ok) }
    }
  }
}

/// A `CodingKey` tag type per `T`.
enum ModeTag<T> {}

/// Whether `value`'s encoding and typed key are the oracle's (for tasks, without `#expect`).
func sameKeys<V: Hashable & Sendable & Encodable>(_ value: V) -> Bool {
  guard let new = try? JSONValueEncoder.encode(value), let old = try? OracleJSONValueEncoder.encode(value) else { return false }
  return identical(new, old) && identical(QueryCacheKey<EchoFunc<V>>(variables: value).queryKey, oracleQueryKey(EchoFunc<V>.self, value))
}

/// A container kept by a value's `encode(to:)` (test only: written by one test, in order).
nonisolated(unsafe) private var keptContainer: KeyedEncodingContainer<VaryingKey<KeptTag>>?
enum KeptTag {}

/// Keeps its container when `keep`, else writes into the kept one while encoding itself.
struct KeepingContainer: Encodable, Hashable, Sendable {
  var keep: Bool
  func encode(to encoder: any Encoder) throws {
    var keyed = encoder.container(keyedBy: VaryingKey<KeptTag>.self)
    try keyed.encode(1, forKey: .a)
    if keep {
      keptContainer = keyed
    } else {
      try keptContainer?.encode("stale", forKey: .d)
      try keyed.encode(2, forKey: .b)
    }
  }
}

@Suite struct SpareNodeTests {
  /// The encoder reuses a key's root node for the next key only when nothing else references
  /// it: a container a value kept and writes into later never reaches another key.
  @Test func aKeptContainerNeverWritesIntoAnotherKey() {
    let name = String(reflecting: EchoFunc<KeepingContainer>.self)
    for _ in 0..<20 {
      _ = QueryCacheKey<EchoFunc<KeepingContainer>>(variables: KeepingContainer(keep: true)).queryKey
      let key = QueryCacheKey<EchoFunc<KeepingContainer>>(variables: KeepingContainer(keep: false)).queryKey
      #expect(identical(key, QueryKey([.string(name), ["a": 1, "b": 2]])), "\(key)")
    }
    keptContainer = nil
  }
}
