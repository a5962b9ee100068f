import Testing
@testable import Quarry

@Suite struct QueryKeyTests {
  @Test func hashSortsObjectKeys() {
    let key: QueryKey = ["todos", 1, ["page": 2, "a": [true, nil]], 1.5]
    #expect(key.queryHash == #"["todos",1,{"a":[true,null],"page":2},1.5]"#)
  }

  @Test func hashEscapesLikeJavaScript() {
    let key: QueryKey = ["a\"b\\c\n\u{01}é"]
    #expect(key.queryHash == "[\"a\\\"b\\\\c\\n\\u0001é\"]")
  }

  @Test func partialMatchIsPrefixAndSubset() {
    #expect(partialMatchKey(["todos", ["page": 1, "x": 2]], ["todos"]))
    #expect(partialMatchKey(["todos", ["page": 1, "x": 2]], ["todos", ["page": 1]]))
    #expect(!partialMatchKey(["todos"], ["todos", 1]))
    #expect(!partialMatchKey(["todos", ["page": 1]], ["todos", ["page": 2]]))
  }

  @Test func stringsCompareByExactCodeUnits() {
    let precomposed: QueryKey = ["caf\u{E9}"]
    let decomposed: QueryKey = ["cafe\u{301}"]
    #expect("caf\u{E9}" == "cafe\u{301}")  // Swift's String: canonical equivalence
    #expect(precomposed != decomposed)
    #expect(precomposed.queryHash == decomposed.queryHash)  // String ==, canonical again
    #expect(!precomposed.queryHash.utf8.elementsEqual(decomposed.queryHash.utf8))
    #expect(!partialMatchKey(precomposed, decomposed))
    #expect(Set([precomposed, decomposed]).count == 2)
    #expect(JSONValue.object(["\u{C5}": 1]) != JSONValue.object(["\u{212B}": 1]))
    #expect(CodeUnitString("\u{C5}") != CodeUnitString("\u{212B}"))
  }

  @Test func theCacheKeepsCanonicallyEquivalentKeysApart() {
    let client = QueryClient(scheduler: VirtualScheduler())
    _ = client.setQueryData(["caf\u{E9}"], value: 1)
    _ = client.setQueryData(["cafe\u{301}"], value: 2)
    #expect(client.queryCache.getAll().count == 2)
    #expect(client.getQueryData(["caf\u{E9}"]) as? Int == 1)
    #expect(client.getQueryData(["cafe\u{301}"]) as? Int == 2)
  }

  @Test func hashUsesJavaScriptPropertyOrder() {
    let key: QueryKey = [["b": 1, "10": 2, "9": 3, "01": 4, "4294967294": 5, "4294967295": 6]]
    #expect(key.queryHash == #"[{"9":3,"10":2,"4294967294":5,"01":4,"4294967295":6,"b":1}]"#)
    // The trace's canonical form sorts every name by UTF-16 code units.
    #expect(key.jsonValue.canonicalJSON == #"[{"01":4,"10":2,"4294967294":5,"4294967295":6,"9":3,"b":1}]"#)
  }

  @Test func numbersAreWrittenAsECMAScriptNumberToString() {
    let cases: [(Double, String)] = [
      (0, "0"), (-0.0, "0"), (1, "1"), (-1.5, "-1.5"), (0.1, "0.1"), (100, "100"),
      (0.000001, "0.000001"), (0.0000015, "0.0000015"), (1e-7, "1e-7"), (1.5e-7, "1.5e-7"),
      (0.00001, "0.00001"), (1e16, "10000000000000000"), (1.2345e16, "12345000000000000"),
      (123456789012345680000, "123456789012345680000"), (1e21, "1e+21"), (1.5e22, "1.5e+22"),
      (9007199254740993, "9007199254740992"), (5e-324, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"),
      (123.456, "123.456"), (-0.000123, "-0.000123"),
    ]
    for (value, text) in cases {
      #expect(JSONValue.ecmaScriptString(value) == text, "\(value)")
      #expect(JSONValue.number(value).canonicalJSON == text)
    }
    #expect(JSONValue.number(.infinity).canonicalJSON == "null")
  }

  @Test func partialMatchComparesMixedPairsByMemberNames() {
    #expect(partialMatchKey(["m", ["x", "y"]], ["m", ["0": "x"]]))
    #expect(partialMatchKey(["m", ["0": "x", "k": 1]], ["m", ["x"]]))
    #expect(partialMatchKey(["m", ["x", "y"]], ["m", ["length": 2]]))
    #expect(!partialMatchKey(["m", ["x", "y"]], ["m", ["00": "x"]]))
    #expect(partialMatchKey(["m", ["k": 1]], ["m", []]))
    #expect(partialMatchKey(["m", []], ["m", [:]]))
    #expect(!partialMatchKey(["m", nil], ["m", [:]]))
    #expect(!partialMatchKey(["m", 5], ["m", []]))
  }

  @Test func undefinedIsNeitherNullNorAbsentInFilters() {
    #expect(QueryKey(["u", .undefined]).queryHash == QueryKey(["u", nil]).queryHash)
    #expect(!partialMatchKey(["u", nil], ["u", .undefined]))
    #expect(partialMatchKey(["u"], ["u", .undefined]))
    #expect(partialMatchKey([["a": 1]], [["b": .undefined]]))
    #expect(!partialMatchKey([["b": nil]], [["b": .undefined]]))
    #expect(QueryKey([["a": 1, "b": .undefined]]).queryHash == #"[{"a":1}]"#)
  }

  @Test func structuralSharingFollowsReplaceEqualDeep() {
    func keeps(_ a: JSONValue, _ b: JSONValue) -> Bool { JSONValue.replaceEqualDeepKeepsPrevious(a, b) }
    #expect(keeps([1, ["a": "x"]], [1, ["a": "x"]]))
    #expect(!keeps([1, nil], [1, .undefined]))
    #expect(keeps([1, .undefined], [1, .undefined]))
    #expect(!keeps(["a": 1], ["a": 1, "b": .undefined]))
    #expect(!keeps(["a": 1, "b": .undefined], ["a": 1, "c": .undefined]))
    #expect(keeps(["a": 1, "b": .undefined], ["a": 1, "b": .undefined]))
    #expect(!keeps([["a": 1]], [[1]]))
    func nest(_ n: Int) -> JSONValue {
      var v: JSONValue = 1
      for _ in 0..<n { v = [v] }
      return v
    }
    #expect(keeps(nest(501), nest(501)))
    #expect(!keeps(nest(502), nest(502)))
    let shared = nest(600)
    #expect(keeps([shared], [shared]))  // one storage: the same object past 500 levels
  }

  @Test func pastTheRecursionLimitTheSameRulesApply() {
    let tricky: JSONValue = ["b": 1, "10": [nil, .undefined, 1e21], "9": "caf\u{E9}", "u": .undefined]
    func wrap(_ v: JSONValue, _ n: Int) -> JSONValue {
      var out = v
      for _ in 0..<n { out = [out] }
      return out
    }
    let depth = JSONValue.recursionLimit + 50
    let deep = QueryKey([wrap(tricky, depth)])
    let brackets = (String(repeating: "[", count: depth + 1), String(repeating: "]", count: depth + 1))
    #expect(deep.queryHash == brackets.0 + #"{"9":"café","10":[null,null,1e+21],"b":1}"# + brackets.1)
    #expect(deep.jsonValue.canonicalJSON == brackets.0 + #"{"10":[null,null,1e+21],"9":"café","b":1}"# + brackets.1)
    #expect(deep == QueryKey([wrap(tricky, depth)]))
    #expect(deep != QueryKey([wrap(["b": 1, "10": [nil, nil, 1e21], "9": "caf\u{E9}", "u": .undefined], depth)]))
    #expect(deep != QueryKey([wrap(["b": 1, "10": [nil, .undefined, 1e21], "9": "cafe\u{301}", "u": .undefined], depth)]))
    #expect(partialMatchKey(deep, [wrap(["10": [nil, .undefined]], depth)]))
    #expect(!partialMatchKey(deep, [wrap(["10": [.undefined]], depth)]))
    #expect(partialMatchKey(deep, [wrap(["x": .undefined, "10": ["length": 3]], depth)]))
  }
}
