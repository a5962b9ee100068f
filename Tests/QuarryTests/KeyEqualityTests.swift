import Testing
@testable import Quarry

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

  /// Random keys from a small alphabet (so that many pairs are equal), the second of each pair
  /// built independently with heap strings: equality agrees with canonical JSON text (which,
  /// without `undefined` or non-finite numbers, writes equal values alike and unequal ones
  /// differently), and equal keys hash equally.
  @Test func randomKeysAgreeWithCanonicalJSON() {
    var rng = SplitMix(seed: 0x5175_6172_7279)
    var equalPairs = 0
    for _ in 0..<3_000 {
      let seedA = rng.next(), seedB = rng.next() % 4 == 0 ? seedA : rng.next()
      var ga = SplitMix(seed: seedA), gb = SplitMix(seed: seedB)
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

  private func value(_ g: inout SplitMix, depth: Int, heap: Bool) -> JSONValue {
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

/// A small seeded generator (SplitMix64), so the random keys are the same on every run.
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
