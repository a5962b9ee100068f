import Testing
@testable import Quarry
import QuarryScenarios

/// Key equality's fast paths (`JSONValue+Equality.swift`): strings of the same bits are equal at
/// once, and one-member objects are compared without a scan. Equality must stay canonical-JSON
/// equality (code units, members in any order, `-0 == 0`).
@Suite struct KeyEqualityTests {
  /// The same text as a small string and as a heap string (different bits, same code units).
  private func heapString(_ text: String) -> String {
    var heap = String(repeating: "é", count: 20)
    heap.removeAll(keepingCapacity: true)
    heap += text
    return heap
  }

  @Test func stringsCompareByCodeUnitsWhateverTheirStorage() {
    for text in ["", "a", "page", "todos", "fifteen chars!!", "sixteen chars!!!", String(repeating: "x", count: 40), "caf\u{E9}"] {
      let heap = heapString(text)
      #expect(text.hasSameCodeUnits(as: heap))
      #expect(heap.hasSameCodeUnits(as: text))
      #expect(text.hasSameCodeUnits(as: text))
      #expect(heap.hasSameCodeUnits(as: heapString(text)))
      #expect(!text.hasSameCodeUnits(as: text + "_"))
      #expect(!heap.hasSameCodeUnits(as: heapString(text + "_")))
    }
    // Canonically equivalent strings of different code units stay unequal, small or not.
    for (x, y) in [("caf\u{E9}", "cafe\u{301}"), ("\u{C5}", "\u{212B}")] {
      #expect(x == y)
      #expect(!x.hasSameCodeUnits(as: y))
      #expect(!heapString(x).hasSameCodeUnits(as: heapString(y)))
    }
  }

  @Test func oneMemberObjectsCompareByNameAndValue() {
    let key: QueryKey = ["todos", 1, ["page": 2]]
    #expect(key == ["todos", 1, ["page": 2]])
    #expect(key == QueryKey(["todos", 1, .object([heapString("page"): .number(2)])]))
    #expect(key == ["todos", 1, ["page": .number(2.0)]])
    #expect(QueryKey([["n": .number(-0.0)]]) == [["n": 0]])
    #expect(key != ["todos", 1, ["page": 3]])
    #expect(key != ["todos", 1, ["pagE": 2]])
    #expect(key != ["todos", 1, ["page": "2"]])
    #expect(key != ["todos", 1, ["page": 2, "size": 1]])
    #expect(QueryKey([["caf\u{E9}": 1]]) != [["cafe\u{301}": 1]])
    #expect(QueryKey([["a": ["b": [1, ["c": nil]]]]]) == [["a": ["b": [1, ["c": nil]]]]])
    #expect(QueryKey([["a": ["b": [1, ["c": nil]]]]]) != [["a": ["b": [1, ["c": .undefined]]]]])
    // Compared directly too (not only behind equal structural hashes).
    #expect(JSONValue.object(["page": 2]) != .object(["page": 3]))
    #expect(JSONValue.object(["page": 2]) != .object(["size": 2]))
  }

  /// Objects copied from one table (the same seed and layout, as typed keys built alike are)
  /// enumerate in step and are compared in step: a value apart at any place, or another name
  /// at a place, is unequal; names apart only by normalization stay apart; objects of the same
  /// members built in another order (out of step) are still equal.
  @Test func objectsInStepCompareInStep() {
    var table = [String: JSONValue](minimumCapacity: 8)
    for name in ["id", "page", "sort", "q"] { table[name] = .null }
    let names = table.map(\.key)
    func filled(_ values: [JSONValue], _ names: [String] = names) -> [String: JSONValue] {
      var copy = table
      for (name, value) in zip(names, values) { copy[name] = value }
      return copy
    }
    let base: [JSONValue] = [1, "x", true, ["n": [2]]]
    #expect(Array(filled(base).keys) == names)  // in step
    #expect(JSONValue.object(filled(base)) == .object(filled(base)))
    #expect(QueryKey(["t", .object(filled(base))]) == QueryKey(["t", .object(filled(base))]))
    for place in 0..<4 {
      var other = base
      other[place] = place == 3 ? ["n": [3]] : "y"
      #expect(JSONValue.object(filled(base)) != .object(filled(other)), "value apart at \(place)")
      #expect(JSONValue.object(filled(other)) != .object(filled(base)), "value apart at \(place)")
    }
    // Another name at a place (the same count): unequal, in step or not.
    var renamed = filled(base)
    renamed.removeValue(forKey: names[2])
    renamed["other"] = base[2]
    #expect(JSONValue.object(filled(base)) != .object(renamed))
    #expect(JSONValue.object(renamed) != .object(filled(base)))
    // The same members inserted in another order into a fresh table: out of step, still equal.
    var reversed: [String: JSONValue] = [:]
    for (name, value) in zip(names, base).reversed() { reversed[name] = value }
    #expect(JSONValue.object(filled(base)) == .object(reversed))
    #expect(JSONValue.object(reversed) == .object(filled(base)))
    // Names equal to Swift but spelled apart, at the same place of copies of one table.
    var composed = [String: JSONValue](minimumCapacity: 4)
    composed["caf\u{E9}"] = 1
    composed["b"] = 2
    var decomposed = composed
    let index = decomposed.index(forKey: "caf\u{E9}")!
    decomposed.remove(at: index)
    decomposed["cafe\u{301}"] = 1
    #expect(JSONValue.object(composed) != .object(decomposed))
    #expect(JSONValue.object(decomposed) != .object(composed))
  }

  /// Random keys from a small alphabet (so that many pairs are equal), the second of each pair
  /// built independently with heap strings: equality agrees with canonical JSON text (which,
  /// without `undefined` or non-finite numbers, writes equal values alike and unequal ones
  /// differently), and equal keys hash equally.
  @Test func randomKeysAgreeWithCanonicalJSON() {
    var rng = SplitMix64(seed: 0x5175_6172_7279)
    var equalPairs = 0
    for _ in 0..<3_000 {
      let seedA = rng.next(), seedB = rng.next() % 4 == 0 ? seedA : rng.next()
      var ga = SplitMix64(seed: seedA), gb = SplitMix64(seed: seedB)
      let a = QueryKey((0..<Int(ga.next() % 4)).map { _ in value(&ga, depth: 0, heap: false) })
      let b = QueryKey((0..<Int(gb.next() % 4)).map { _ in value(&gb, depth: 0, heap: true) })
      let sameText = a.jsonValue.canonicalJSON.utf8.elementsEqual(b.jsonValue.canonicalJSON.utf8)
      #expect((a == b) == sameText, "\(a) vs \(b)")
      #expect((b == a) == sameText)
      #expect((a.jsonValue == b.jsonValue) == sameText)
      if sameText {
        equalPairs += 1
        #expect(a.structuralHash == b.structuralHash)
      }
    }
    #expect(equalPairs > 500)
  }

  private func value(_ g: inout SplitMix64, depth: Int, heap: Bool) -> JSONValue {
    let names = ["page", "p", "size", "caf\u{E9}", "cafe\u{301}", "a long member name"]
    switch g.next() % (depth < 3 ? 7 : 4) {
    case 0: return .number([0, -0.0, 1, 2.5][Int(g.next() % 4)])
    case 1: let s = names[Int(g.next() % 6)]; return .string(heap ? heapString(s) : s)
    case 2: return g.next() % 2 == 0 ? .null : .bool(g.next() % 2 == 0)
    case 3: return .number(Double(g.next() % 3))
    case 4: return .array((0..<Int(g.next() % 3)).map { _ in value(&g, depth: depth + 1, heap: heap) })
    default:
      var members: [String: JSONValue] = [:]
      for _ in 0..<Int(g.next() % 3) + (g.next() % 2 == 0 ? 1 : 0) {
        let name = names[Int(g.next() % 6)]
        members[heap ? heapString(name) : name] = value(&g, depth: depth + 1, heap: heap)
      }
      return .object(members)
    }
  }
}

/// The structural hash's walk folds scalars in place and containers out of line; the hash it
/// computes must stay what the single recursive walk computed (it decides table buckets and
/// holds the faithful bit), so it is checked here against that walk, kept as a reference.
@Suite struct StructuralHashReferenceTests {
  private static func reference(_ parts: [JSONValue]) -> Int {
    var hasher = StructuralHasher()
    var faithful = true
    hasher.combine(tag: 5, count: parts.count)
    for part in parts { combine(part, into: &hasher, depth: 0, faithful: &faithful) }
    return hasher.value & ~JSONValue.unfaithfulHashBit | (faithful ? 0 : JSONValue.unfaithfulHashBit)
  }

  private static func reference(_ value: JSONValue) -> Int {
    var hasher = StructuralHasher()
    var faithful = true
    combine(value, into: &hasher, depth: 0, faithful: &faithful)
    return hasher.value
  }

  /// The walk as it was before the tenth pass's keys11 (one recursive function).
  private static func combine(_ value: JSONValue, into hasher: inout StructuralHasher, depth: Int, faithful: inout Bool) {
    switch value {
    case .null: hasher.combine(tag: 0, count: 0)
    case .undefined:
      hasher.combine(tag: 1, count: 0)
      faithful = false
    case .bool(let b): hasher.combine(tag: 2, count: b ? 1 : 0)
    case .number(let n):
      if !n.isFinite { faithful = false }
      hasher.combine(tag: 3, count: 0)
      hasher.combine(n == 0 ? 0 : n.bitPattern)
    case .string(let s):
      hasher.combine(codeUnitsOf: s)
    case .array(let items):
      hasher.combine(tag: 5, count: items.count)
      guard depth < JSONValue.hashedDepth else {
        if !items.isEmpty { faithful = false }
        return
      }
      for item in items { combine(item, into: &hasher, depth: depth + 1, faithful: &faithful) }
    case .object(let members):
      hasher.combine(tag: 6, count: members.count)
      guard depth < JSONValue.hashedDepth else {
        if !members.isEmpty { faithful = false }
        return
      }
      var sum: UInt64 = 0
      for (name, value) in members {
        var member = hasher.fresh()
        member.combine(codeUnitsOf: name)
        combine(value, into: &member, depth: depth + 1, faithful: &faithful)
        sum &+= member.state
      }
      hasher.combine(sum)
    }
  }

  private static func value(_ g: inout SplitMix64, depth: Int) -> JSONValue {
    switch g.next() % (depth < 7 ? 9 : 6) {
    case 0: return .null
    case 1: return .undefined
    case 2: return .bool(g.next() % 2 == 0)
    case 3: return .number([0, -0.0, 1, -2.5, 1e21, .nan, .infinity, Double(g.next() % 1000)][Int(g.next() % 8)])
    case 4, 5:
      let length = Int(g.next() % 24)
      return .string(String((0..<length).map { _ in Character(Unicode.Scalar(UInt8(97 + g.next() % 26))) }) + (g.next() % 5 == 0 ? "\u{E9}" : ""))
    case 6: return .array((0..<Int(g.next() % 4)).map { _ in value(&g, depth: depth + 1) })
    default:
      var members: [String: JSONValue] = [:]
      for i in 0..<Int(g.next() % 12) { members["m\(i)\(g.next() % 3)"] = value(&g, depth: depth + 1) }
      return .object(members)
    }
  }

  @Test func randomKeysHashAsTheReferenceWalk() {
    var g = SplitMix64(seed: 0x6B65_7973_3131)
    var unfaithful = 0
    for _ in 0..<4_000 {
      let parts = (0..<Int(g.next() % 5)).map { _ in Self.value(&g, depth: 0) }
      let key = QueryKey(parts)
      #expect(key.structuralHash == Self.reference(parts), "\(key)")
      if !key.isHashedFaithfully { unfaithful += 1 }
      var copy = key
      copy.parts = parts
      #expect(copy.structuralHash == key.structuralHash)
      for part in parts { #expect(part.structuralHash == Self.reference(part)) }
    }
    // Both kinds of key were generated.
    #expect(unfaithful > 400 && unfaithful < 3_600)
    // The benchmark's key shape, and deep values past the hashed depth.
    for i in 0..<200 {
      let parts: [JSONValue] = ["todos", .number(Double(i)), ["page": .number(Double(i % 10))]]
      #expect(QueryKey(parts).structuralHash == Self.reference(parts))
    }
    let deep = [DeepValueTests.deep(40), DeepValueTests.deep(3)]
    #expect(QueryKey(deep).structuralHash == Self.reference(deep))
  }
}
