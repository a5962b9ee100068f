import Testing
@testable import Quarry

/// The structural hash of keys and JSON values (`JSONValue+StructuralHash.swift`): consistent with
/// `==`, blind to object member order, bounded in depth, and reading every code unit.
@Suite struct StructuralHashTests {
  @Test func objectMemberOrderDoesNotMatter() {
    let names = (0..<40).map { "member\($0)" }
    var forward: [String: JSONValue] = [:]
    for name in names { forward[name] = .string(name) }
    var backward: [String: JSONValue] = Dictionary(minimumCapacity: 200)
    for name in names.reversed() { backward[name] = .string(name) }
    // Different capacities: the two dictionaries enumerate their members in different orders.
    #expect(Array(forward.keys) != Array(backward.keys))
    let a = QueryKey(["todos", .object(forward)])
    let b = QueryKey(["todos", .object(backward)])
    #expect(a == b)
    #expect(a.structuralHash == b.structuralHash)
    #expect(a.hashValue == b.hashValue)
    #expect(JSONValue.object(forward).hashValue == JSONValue.object(backward).hashValue)
  }

  @Test func negativeZeroHashesAsZero() {
    let a: QueryKey = ["n", .number(-0.0), ["x": .number(-0.0)]]
    let b: QueryKey = ["n", 0, ["x": 0]]
    #expect(a == b)
    #expect(a.structuralHash == b.structuralHash)
    #expect(JSONValue.number(-0.0).hashValue == JSONValue.number(0).hashValue)
    #expect(QueryKey(["n", 1]).structuralHash != QueryKey(["n", 2]).structuralHash)
  }

  @Test func unicodeLookAlikesStayDistinct() {
    let pairs: [(String, String)] = [("caf\u{E9}", "cafe\u{301}"), ("\u{C5}", "\u{212B}"), ("\u{1E9B}\u{323}", "\u{17F}\u{323}\u{307}")]
    for (x, y) in pairs {
      #expect(x == y)  // Swift's canonical equivalence
      let a = QueryKey([.string(x)])
      let b = QueryKey([.string(y)])
      #expect(a != b)
      #expect(a.structuralHash != b.structuralHash)
      let c = QueryKey([.object([x: 1])])
      let d = QueryKey([.object([y: 1])])
      #expect(c != d)
      #expect(c.structuralHash != d.structuralHash)
      #expect(Set([a, b]).count == 2)
    }
  }

  /// Every length up to 40 code units (each of the byte reader's branches), each string built two
  /// ways (small and heap storage where Swift allows both); a change of any one byte changes
  /// the hash.
  @Test func everyCodeUnitIsRead() {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ")
    for length in 0...40 {
      let text = String(alphabet[0..<length])
      var heap = String(repeating: "é", count: 20)
      heap.removeAll(keepingCapacity: true)
      heap += text
      #expect(QueryKey([.string(text)]) == QueryKey([.string(heap)]))
      #expect(QueryKey([.string(text)]).structuralHash == QueryKey([.string(heap)]).structuralHash)
      for position in 0..<length {
        var changed = Array(text)
        changed[position] = "_"
        let other = QueryKey([.string(String(changed))])
        #expect(other.structuralHash != QueryKey([.string(text)]).structuralHash, "length \(length), position \(position)")
      }
    }
    // A count of code units is part of the hash: "ab" and "abb" read the same three bytes.
    #expect(QueryKey(["ab"]).structuralHash != QueryKey(["abb"]).structuralHash)
  }

  @Test func partsAndTagsAreToldApart() {
    let keys: [QueryKey] = [
      [], [nil], [.undefined], [false], [true], [0], [""], [[]], [[:]], ["a", "b"], ["ab"], [["a", "b"]],
      [["a": "b"]], [["a": nil]], [["a": .undefined]], [1, 2], [2, 1],
    ]
    #expect(Set(keys.map(\.structuralHash)).count == keys.count)
  }

  @Test func deepKeysHashEquallyAndStopAtTheHashedDepth() {
    let a = QueryKey([DeepValueTests.deep(10_000)])
    let b = QueryKey([DeepValueTests.deep(10_000)])
    let c = QueryKey([DeepValueTests.deep(10_000, leaf: 2)])
    #expect(a == b)
    #expect(a.structuralHash == b.structuralHash)
    // Below `hashedDepth` levels only sizes are hashed: equal hashes, equality tells them apart.
    #expect(a.structuralHash == c.structuralHash)
    #expect(a != c)
    // Above it a difference shows.
    let d = QueryKey([[[1]]])
    let e = QueryKey([[[2]]])
    #expect(d.structuralHash != e.structuralHash)
  }

  @Test func theKeyTableKeepsTheStructuralHash() {
    let key: QueryKey = ["todos", 1, ["page": 2]]
    #expect(Prehashed(key).hash == key.structuralHash)
  }
}

/// The hash a `QueryKey` keeps from when its parts were set.
@Suite struct QueryKeyKeptHashTests {
  @Test func theKeptHashFollowsEveryChangeOfTheParts() {
    var key: QueryKey = ["todos", 1, ["page": 2]]
    #expect(key.structuralHash == JSONValue.structuralHash(of: key.parts))
    let before = key.structuralHash
    key.parts.append("more")
    #expect(key.structuralHash == JSONValue.structuralHash(of: key.parts))
    #expect(key.structuralHash != before)
    key.parts[2] = ["page": 3]
    #expect(key.structuralHash == JSONValue.structuralHash(of: key.parts))
    key.parts = ["todos", 1, ["page": 2]]
    #expect(key.structuralHash == before)
    #expect(key == ["todos", 1, ["page": 2]])
    key.parts = [DeepValueTests.deep(1_000)]
    #expect(key.structuralHash == JSONValue.structuralHash(of: [DeepValueTests.deep(1_000)]))
    #expect(key == QueryKey([DeepValueTests.deep(1_000)]))
    QueryKey.dismantle(&key)
    #expect(key.structuralHash == QueryKey([]).structuralHash)
  }

  @Test func aChangedKeyFindsItsNewQuery() {
    let client = QueryClient(scheduler: VirtualScheduler())
    var key: QueryKey = ["todos", 1]
    client.setQueryData(key, value: "one")
    key.parts[1] = 2
    client.setQueryData(key, value: "two")
    #expect(client.getQueryData(key) as? String == "two")
    key.parts[1] = 1
    #expect(client.getQueryData(key) as? String == "one")
    #expect(client.getQueryData(["todos", 2]) as? String == "two")
    #expect(client.queryCache.getAll().count == 2)
  }
}

/// Small objects compared by scanning (`JSONValue.equalSmallObjects`) and the object literal.
@Suite struct SmallObjectTests {
  @Test func smallObjectsCompareByExactNamesInAnyOrder() {
    for count in 1...10 {
      let names = (0..<count).map { "n\($0)" }
      var forward: [String: JSONValue] = [:]
      for name in names { forward[name] = .string(name) }
      var backward: [String: JSONValue] = Dictionary(minimumCapacity: 64)
      for name in names.reversed() { backward[name] = .string(name) }
      #expect(JSONValue.object(forward) == .object(backward))
      var renamed = backward
      renamed["n0"] = nil
      renamed["m0"] = "n0"
      #expect(JSONValue.object(forward) != .object(renamed))
      var changed = backward
      changed["n\(count - 1)"] = "other"
      #expect(JSONValue.object(forward) != .object(changed))
    }
    // Canonically equivalent names are different members.
    #expect(JSONValue.object(["caf\u{E9}": 1, "x": 2]) != .object(["cafe\u{301}": 1, "x": 2]))
    #expect(QueryKey([["\u{C5}": 1]]) != QueryKey([["\u{212B}": 1]]))
  }

  @Test func anObjectLiteralKeepsTheLastValueOfARepeatedName() {
    let value = JSONValue(dictionaryLiteral: ("a", 1), ("b", 2), ("a", 3))
    #expect(value == .object(["a": 3, "b": 2]))
    let empty: JSONValue = [:]
    #expect(empty == .object([:]))
  }
}

/// The hash table's strings (`CodeUnitString`) hash their code units structurally.
@Suite struct CodeUnitStringHashTests {
  @Test func hashStringsHashByCodeUnits() {
    let text = #"["todos",1,{"page":2}]"#
    var heap = String(repeating: "é", count: 30)
    heap.removeAll(keepingCapacity: true)
    heap += text
    #expect(CodeUnitString(text) == CodeUnitString(heap))
    #expect(CodeUnitString(text).structuralHash == CodeUnitString(heap).structuralHash)
    #expect(Prehashed(CodeUnitString(text)).hash == CodeUnitString(text).structuralHash)
    #expect(CodeUnitString("caf\u{E9}").structuralHash != CodeUnitString("cafe\u{301}").structuralHash)
    #expect(Set([CodeUnitString("caf\u{E9}"), CodeUnitString("cafe\u{301}")]).count == 2)
  }
}
