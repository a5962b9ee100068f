import Testing
import QuarryApp
import QuarryScenarios

// The typed keys' encoding (`JSONValueEncoder`, `variablesKeyParts`, the cached type
// identifier) checked against the former encoding, kept in OracleKeyEncoder.swift: every engine
// key must stay the same to the bit (numbers by bit pattern, strings by code units, object
// names by code units), so that no cached, persisted or invalidated key changes.

/// A query function per variables type (a generic type: each specialization its own prefix).
struct EchoFunc<V: Hashable & Sendable & Encodable>: QueryFunc {
  func run(_ variables: V) async throws -> Int { 0 }
}

/// An infinite query function per variables type.
struct EchoPages<V: Hashable & Sendable & Encodable>: InfiniteQueryFunc {
  let initialPageParam = 0
  func run(variables: V, pageParam: Int) async throws -> [Int] { [] }
  func nextPageParam(lastPage: [Int], allPages: [[Int]], lastPageParam: Int, allPageParams: [Int]) -> Int? { nil }
}

struct RefPair: Codable, Hashable, Sendable {
  var id: Int
  var page: Int
}

struct RefEmpty: Codable, Hashable, Sendable {}

enum RefKind: String, Codable, Hashable, Sendable { case a, b, accented = "é" }

enum RefShape: Codable, Hashable, Sendable {
  case none
  case circle(Double)
  case rect(w: Int, h: Int)
  case tagged(String, RefPair?)
}

struct RefMixed: Codable, Hashable, Sendable {
  var name: String
  var score: Double
  var ratio: Float
  var flag: Bool
  var note: String?
  var maybe: Int??
  var tags: [String]
  var counts: [String: Int]
  var byID: [Int: String]
  var inner: RefPair?
  var grid: [[Int]]
  var holes: [Int?]
  var kind: RefKind
  var shape: RefShape
  var empty: RefEmpty
  var json: JSONValue
}

/// Variables whose `encode(to:)` uses the encoder in the unusual ways `Encoder` allows: the
/// same key twice, a container asked for twice, nested and super encoders, a single value after
/// a keyed container, nothing at all, `codingPath` and `count` read.
struct RefOdd: Encodable, Hashable, Sendable {
  enum Key: String, CodingKey { case a, b, c, d }
  var mode: Int
  var number: Int
  var text: String

  func encode(to encoder: any Encoder) throws {
    switch mode {
    case 0:
      var first = encoder.container(keyedBy: Key.self)
      try first.encode(number, forKey: .a)
      var second = encoder.container(keyedBy: Key.self)
      try second.encode(text, forKey: .b)
      try first.encode(true, forKey: .c)
    case 1:
      var keyed = encoder.container(keyedBy: Key.self)
      try keyed.encode(number, forKey: .a)
      try keyed.encode(text, forKey: .a)
      try keyed.encodeNil(forKey: .b)
      try keyed.encode(RefPair(id: number, page: 1), forKey: .b)
    case 2:
      var keyed = encoder.container(keyedBy: Key.self)
      try keyed.encode(number, forKey: .a)
      var single = encoder.singleValueContainer()
      try single.encode(text)
      try keyed.encode(1.5, forKey: .b)
    case 3:
      var keyed = encoder.container(keyedBy: Key.self)
      var nested = keyed.nestedContainer(keyedBy: Key.self, forKey: .a)
      var list = keyed.nestedUnkeyedContainer(forKey: .b)
      try keyed.encode(number, forKey: .d)
      try nested.encode(text, forKey: .c)
      try list.encode(number)
      try list.encodeNil()
      try RefPair(id: number, page: 2).encode(to: keyed.superEncoder())
      try [text].encode(to: keyed.superEncoder(forKey: .c))
      try nested.encode(Double(number) / 3, forKey: .d)
    case 4:
      var list = encoder.unkeyedContainer()
      try list.encode(text)
      var inner = list.nestedContainer(keyedBy: Key.self)
      var innerList = list.nestedUnkeyedContainer()
      try list.encodeNil()
      try inner.encode(number, forKey: .a)
      try innerList.encode(Float(number))
      try RefKind.accented.encode(to: list.superEncoder())
      try list.encode(Int?.none)
      try list.encode(Int??.some(nil))
    case 5:
      break
    case 6:
      var single = encoder.singleValueContainer()
      try single.encodeNil()
    case 7:
      var keyed = encoder.container(keyedBy: Key.self)
      try keyed.encode(number, forKey: .a)
      var list = encoder.unkeyedContainer()
      try list.encode(text)
      try keyed.encode(number, forKey: .b)
    case 8:
      var keyed = encoder.container(keyedBy: Key.self)
      try keyed.encode(Path(), forKey: .a)
      var list = keyed.nestedUnkeyedContainer(forKey: .b)
      try list.encode(Path())
      try list.encode([Path(), Path()])
      try keyed.encode(["x": [Path()]], forKey: .c)
      try Path().encode(to: keyed.superEncoder(forKey: .d))
    case 9:
      var single = encoder.singleValueContainer()
      try single.encode([RefPair(id: number, page: 3)])
    case 10:
      var list = encoder.unkeyedContainer()
      for _ in 0..<Int(number.magnitude % 4) { try list.encode(list.count) }
      try list.encode(list.count)
    case 12, 13:
      // Names equal to Swift (canonically equivalent) but spelled apart: one member, whose
      // name keeps its first spelling, whether a leaf or a nested value replaces it.
      let composed = NameKey(stringValue: "\u{E9}"), decomposed = NameKey(stringValue: "e\u{301}")
      var keyed = encoder.container(keyedBy: NameKey.self)
      if mode == 12 {
        try keyed.encode(number, forKey: composed)
        var nested = keyed.nestedContainer(keyedBy: NameKey.self, forKey: decomposed)
        try nested.encode(text, forKey: decomposed)
        try keyed.encode(RefPair(id: number, page: 4), forKey: composed)
      } else {
        var list = keyed.nestedUnkeyedContainer(forKey: decomposed)
        try list.encode(text)
        try keyed.encode(text, forKey: composed)
        try keyed.encode([number], forKey: decomposed)
        try keyed.encode(number, forKey: composed)
      }
    default:
      var keyed = encoder.container(keyedBy: Key.self)
      var nested = keyed.nestedContainer(keyedBy: Key.self, forKey: .a)
      try keyed.encode(text, forKey: .a)  // replaces the nested object; later writes to it are lost
      try nested.encode(number, forKey: .b)
      var again = keyed.nestedContainer(keyedBy: Key.self, forKey: .b)
      try again.encode(number, forKey: .c)
      try again.encode(text, forKey: .c)
    }
  }

  /// Any name.
  struct NameKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// Encodes the coding path it is encoded at, as names and integer values.
  struct Path: Encodable {
    func encode(to encoder: any Encoder) throws {
      var list = encoder.unkeyedContainer()
      for key in encoder.codingPath {
        try list.encode(key.stringValue)
        try list.encode(key.intValue)
      }
      try list.encode(list.codingPath.count)
    }
  }
}

/// Variables whose encoding throws: the key falls back to their description.
struct RefThrowing: Encodable, Hashable, Sendable {
  struct Refused: Error {}
  var id: Int
  var throwAfterWriting: Bool
  func encode(to encoder: any Encoder) throws {
    if throwAfterWriting {
      var keyed = encoder.container(keyedBy: RefOdd.Key.self)
      try keyed.encode(id, forKey: .a)
    }
    throw Refused()
  }
}


/// Random values with the edge cases over-represented.
struct ValueSource {
  var rng = SplitMix64(seed: 12)

  mutating func chance(_ n: Int) -> Bool { Int.random(in: 0..<n, using: &rng) == 0 }
  mutating func pick<T>(_ list: [T]) -> T { list[Int.random(in: 0..<list.count, using: &rng)] }

  mutating func int() -> Int {
    if chance(3) { return pick([0, 1, -1, Int.max, Int.min, Int.max - 1, 1 << 53, (1 << 53) + 1, -(1 << 53) - 1, 10, 1_000_000]) }
    return chance(2) ? Int.random(in: -1000...1000, using: &rng) : Int(bitPattern: UInt(rng.next()))
  }

  mutating func double() -> Double {
    if chance(2) {
      return pick([0.0, -0.0, .nan, -.nan, .signalingNaN, .infinity, -.infinity, .greatestFiniteMagnitude,
                   -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastNormalMagnitude, 0.1, 1e21, 1e-7, 5e-324,
                   Double(Int.max), 123456789.125, Double(bitPattern: 0x7FF8_0000_0000_0001)])
    }
    return chance(2) ? Double(bitPattern: rng.next()) : Double(Int.random(in: -1000...1000, using: &rng)) / 8
  }

  mutating func float() -> Float {
    if chance(2) { return pick([0, -0.0, .nan, .infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 0.1, 16_777_217]) }
    return Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
  }

  mutating func string() -> String {
    let pieces = ["a", "Z", "0", " ", "\u{0}", "\u{1F}", "\"", "\\", "\n", "é", "e\u{301}", "\u{301}", "😀", "👩‍👩‍👧",
                  "\u{FEFF}", "\u{FFFF}", "\u{10FFFF}", "中文", "\u{D7FF}", "\u{E000}", "page", "id", "__proto__", "1", "-0"]
    var s = ""
    for _ in 0..<Int.random(in: 0...8, using: &rng) { s += pick(pieces) }
    return s
  }

  mutating func optional<T>(_ make: (inout ValueSource) -> T) -> T? { chance(3) ? nil : make(&self) }

  mutating func pair() -> RefPair { RefPair(id: int(), page: int() % 10) }

  mutating func shape() -> RefShape {
    switch Int.random(in: 0..<4, using: &rng) {
    case 0: return .none
    case 1: return .circle(double())
    case 2: return .rect(w: int(), h: int())
    default: return .tagged(string(), optional { $0.pair() })
    }
  }

  mutating func json(depth: Int = 0) -> JSONValue {
    switch Int.random(in: 0..<(depth > 2 ? 5 : 7), using: &rng) {
    case 0: return .null
    case 1: return .undefined
    case 2: return .bool(chance(2))
    case 3: return .number(double())
    case 4: return .string(string())
    case 5: return .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in json(depth: depth + 1) })
    default:
      var members: [String: JSONValue] = [:]
      for _ in 0..<Int.random(in: 0...3, using: &rng) { members[string()] = json(depth: depth + 1) }
      return .object(members)
    }
  }

  mutating func mixed() -> RefMixed {
    var counts: [String: Int] = [:]
    for _ in 0..<Int.random(in: 0...3, using: &rng) { counts[string()] = int() }
    var byID: [Int: String] = [:]
    for _ in 0..<Int.random(in: 0...3, using: &rng) { byID[int()] = string() }
    let maybe: Int?? = chance(3) ? .none : (chance(2) ? .some(.none) : .some(int()))
    return RefMixed(
      name: string(), score: double(), ratio: float(), flag: chance(2), note: optional { $0.string() }, maybe: maybe,
      tags: (0..<Int.random(in: 0...3, using: &rng)).map { _ in string() }, counts: counts, byID: byID,
      inner: optional { $0.pair() }, grid: (0..<Int.random(in: 0...2, using: &rng)).map { _ in [int(), int()] },
      holes: [optional { $0.int() }, optional { $0.int() }], kind: pick([.a, .b, .accented]), shape: shape(),
      empty: RefEmpty(), json: json())
  }
}

/// Whether two values are the same to the bit: numbers by bit pattern, strings and object
/// names by code units (Swift's `==` equates `-0` with `0`, and canonically equivalent strings).
func identical(_ a: JSONValue, _ b: JSONValue) -> Bool {
  switch (a, b) {
  case (.null, .null), (.undefined, .undefined): return true
  case (.bool(let x), .bool(let y)): return x == y
  case (.number(let x), .number(let y)): return x.bitPattern == y.bitPattern
  case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
  case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { identical($0, $1) }
  case (.object(let x), .object(let y)):
    guard x.count == y.count else { return false }
    return x.allSatisfy { name, value in
      guard let index = y.index(forKey: name), y[index].key.utf8.elementsEqual(name.utf8) else { return false }
      return identical(value, y[index].value)
    }
  default: return false
  }
}

func identical(_ a: QueryKey, _ b: QueryKey) -> Bool {
  a.parts.count == b.parts.count && zip(a.parts, b.parts).allSatisfy { identical($0, $1) } && a.queryHash == b.queryHash
}

/// Checks `value`'s encoding, typed key and infinite key against the oracle's.
func expectSameKeys<V: Hashable & Sendable & Encodable>(_ value: V, sourceLocation: SourceLocation = #_sourceLocation) {
  let new = Result { try JSONValueEncoder.encode(value) }
  let old = Result { try OracleJSONValueEncoder.encode(value) }
  switch (new, old) {
  case (.success(let n), .success(let o)):
    #expect(identical(n, o), "\(value): \(n) != \(o)", sourceLocation: sourceLocation)
  case (.failure, .failure): break
  default: Issue.record("\(value): \(new) against \(old)", sourceLocation: sourceLocation)
  }
  let key = QueryCacheKey<EchoFunc<V>>(variables: value).queryKey
  let oracle = oracleQueryKey(EchoFunc<V>.self, value)
  #expect(identical(key, oracle), "\(value): \(key) != \(oracle)", sourceLocation: sourceLocation)
  // Hashed as a key built from the same parts is (NaN parts make `==` false, so not `==`).
  #expect(key.hashValue == oracle.hashValue && key.hashValue == QueryKey(key.parts).hashValue, "\(value): \(key)", sourceLocation: sourceLocation)
  let pages = InfiniteQueryCacheKey<EchoPages<V>>(variables: value).queryKey
  let oraclePages = oracleInfiniteQueryKey(EchoPages<V>.self, value)
  #expect(identical(pages, oraclePages), "\(value): \(pages) != \(oraclePages)", sourceLocation: sourceLocation)
}

@Suite struct KeyEncodingReferenceTests {
  @Test func scalarsEncodeAsBefore() {
    var source = ValueSource()
    for _ in 0..<2_000 {
      expectSameKeys(source.int())
      expectSameKeys(source.double())
      expectSameKeys(source.float())
      expectSameKeys(source.string())
      expectSameKeys(source.chance(2))
      expectSameKeys(source.optional { $0.int() })
      expectSameKeys(source.optional { $0.string() })
    }
    expectSameKeys(Int??.some(nil))
    expectSameKeys(Int??.none)
    expectSameKeys(Int??.some(3))
    expectSameKeys(Double???.some(.some(.some(-0.0))))
  }

  @Test func structsEnumsAndCollectionsEncodeAsBefore() {
    var source = ValueSource()
    for _ in 0..<1_500 {
      expectSameKeys(source.pair())
      expectSameKeys(source.mixed())
      expectSameKeys(source.shape())
      expectSameKeys([source.int(), source.int()])
      expectSameKeys([source.string(): source.double()])
      expectSameKeys([source.optional { $0.pair() }])
      expectSameKeys(source.json())
    }
    expectSameKeys(RefEmpty())
    expectSameKeys([RefEmpty()])
    expectSameKeys(RefKind.accented)
    expectSameKeys([Int]())
    expectSameKeys([String: Int]())
    expectSameKeys(QueryVoid.value)
    expectSameKeys([QueryVoid.value])
    expectSameKeys(JSONValue.undefined)
    expectSameKeys(JSONValue.number(.nan))
    expectSameKeys(JSONValue.array([.undefined, .number(.nan), .number(-0.0), .object(["u": .undefined])]))
  }

  @Test func unusualEncodersEncodeAsBefore() {
    var source = ValueSource()
    for mode in 0...14 {
      for _ in 0..<50 { expectSameKeys(RefOdd(mode: mode, number: source.int(), text: source.string())) }
      expectSameKeys([RefOdd(mode: mode, number: 2, text: "x")])
      expectSameKeys(["k": RefOdd(mode: mode, number: 3, text: "y")])
    }
    expectSameKeys(RefThrowing(id: 4, throwAfterWriting: false))
    expectSameKeys(RefThrowing(id: 5, throwAfterWriting: true))
  }

  @Test func theTypeIdentifierIsTheTypesFullName() {
    struct Local: QueryFunc { func run(_ id: Int) async throws -> Int { id } }
    func check<F: QueryFunc>(_ type: F.Type) {
      for _ in 0..<3 {  // computed once, then read back
        #expect(identical(QueryCacheKey<F>.all, QueryKey([.string(String(reflecting: F.self))])))
        #expect(F.keyPrefix == [.string(String(reflecting: F.self))])
      }
    }
    check(Local.self)
    check(EchoFunc<Int>.self)
    check(EchoFunc<String>.self)
    check(EchoFunc<RefPair>.self)
    check(EchoFunc<[RefPair?]>.self)
    check(FetchTodos.self)
    #expect(QueryCacheKey<EchoFunc<Int>>.all != QueryCacheKey<EchoFunc<Int?>>.all)
    #expect(identical(InfiniteQueryCacheKey<EchoPages<Int>>.all, QueryKey([.string(String(reflecting: EchoPages<Int>.self)), "infinite"])))
  }

  @Test func prefixesAreTheSameFromManyThreads() async {
    await withTaskGroup(of: Bool.self) { group in
      for i in 0..<16 {
        group.addTask {
          (0..<200).allSatisfy { j in
            switch (i + j) % 3 {
            case 0: return EchoFunc<UInt16>.keyPrefix == [.string(String(reflecting: EchoFunc<UInt16>.self))]
            case 1: return EchoFunc<Int8>.keyPrefix == [.string(String(reflecting: EchoFunc<Int8>.self))]
            default: return EchoPages<Int16>.keyPrefix == [.string(String(reflecting: EchoPages<Int16>.self))]
            }
          }
        }
      }
      for await ok in group { #expect(ok) }
    }
  }

  /// Integers other than `Int` made the former encoder recurse until the stack overflowed (their
  /// `encode(to:)` asks the single-value container for themselves); they are numbers now.
  @Test func otherIntegerTypesAreNumbers() throws {
    #expect(identical(try JSONValueEncoder.encode(UInt8(200)), .number(200)))
    #expect(identical(try JSONValueEncoder.encode(Int8(-5)), .number(-5)))
    #expect(identical(try JSONValueEncoder.encode(Int16(-300)), .number(-300)))
    #expect(identical(try JSONValueEncoder.encode(Int32.min), .number(Double(Int32.min))))
    #expect(identical(try JSONValueEncoder.encode(Int64.max), .number(Double(Int64.max))))
    #expect(identical(try JSONValueEncoder.encode(UInt.max), .number(Double(UInt.max))))
    #expect(identical(try JSONValueEncoder.encode([UInt16(1), 2]), .array([.number(1), .number(2)])))
    struct Sizes: Encodable { var small: UInt8; var big: UInt64? }
    #expect(identical(try JSONValueEncoder.encode(Sizes(small: 7, big: 9)), .object(["small": .number(7), "big": .number(9)])))
    #expect(identical(QueryCacheKey<EchoFunc<UInt32>>(variables: 12).queryKey,
                      QueryKey([.string(String(reflecting: EchoFunc<UInt32>.self)), .number(12)])))
  }
}
