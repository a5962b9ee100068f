import Testing
@testable import Quarry
import QuarryScenarios

/// The byte writer (`jsonText`) against the `String` writer it replaces on the hot path: the same
/// text, byte for byte, for both member orders.
@Suite struct JSONByteEncodingTests {

  static let strings = [
    "", "todos", "caf\u{E9}", "cafe\u{301}", "\u{1F600}", "a\"b", "back\\slash", "\n\r\t\u{08}\u{0C}",
    "\u{00}\u{01}\u{1F}\u{7F}", "\u{2028}\u{2029}", "0", "9", "10", "01", "4294967294", "4294967295", "-1", "1.5",
    "\u{FEFF}x", "日本語", "page",
  ]
  static let numbers: [Double] = [
    0, -0.0, 1, -3, 1.5, 1e21, 1e-7, 0.000001, 123456789012345, 9_007_199_254_740_991, 9_007_199_254_740_992,
    -9_007_199_254_740_993, .nan, .infinity, -.infinity, 5e-324, 1.7976931348623157e308, 0.1, 100, 4294967295,
  ]

  static func value(_ g: inout SplitMix64, depth: Int) -> JSONValue {
    switch Int(g.next() % (depth > 3 ? 5 : 7)) {
    case 0: return g.next() % 2 == 0 ? .null : .undefined
    case 1: return .bool(g.next() % 2 == 0)
    case 2: return .number(numbers[Int(g.next() % UInt64(numbers.count))])
    case 3, 4: return .string(strings[Int(g.next() % UInt64(strings.count))])
    case 5: return .array((0..<Int(g.next() % 4)).map { _ in value(&g, depth: depth + 1) })
    default:
      var members: [String: JSONValue] = [:]
      for _ in 0..<Int(g.next() % 5) { members[strings[Int(g.next() % UInt64(strings.count))]] = value(&g, depth: depth + 1) }
      return .object(members)
    }
  }

  @Test func randomValuesWriteTheSameTextAsTheStringWriter() {
    var g = SplitMix64(seed: 14)
    for _ in 0..<20_000 {
      let v = Self.value(&g, depth: 0)
      for order in [JSONValue.MemberOrder.sorted, .javaScriptProperty] {
        var expected = ""
        v.write(to: &expected, order: order)
        let actual = v.jsonText(order: order)
        #expect(Array(actual.utf8) == Array(expected.utf8), "\(expected)")
      }
    }
  }

  /// Whole numbers take the byte writer's digit path: every length of 1-16 digits, both signs,
  /// `-0`, the edges of 2^53, and near-whole numbers that must not take it.
  @Test func wholeNumbersWriteTheSameTextAsTheStringWriter() {
    var g = SplitMix64(seed: 53)
    var values: [Double] = [0, -0.0, 9, 10, 99, 100, 999_999_999_999_999, 1_000_000_000_000_000, 9_007_199_254_740_991,
      -9_007_199_254_740_991, 9_007_199_254_740_992, 9_007_199_254_740_994, 1e16, 1e20, 1e21, 0.5, -0.5, 1.0000000000000002,
      9_007_199_254_740_991.5.nextDown, -1e-300, .leastNonzeroMagnitude, .nan, .infinity, -.infinity]
    var magnitude: UInt64 = 1
    for _ in 0..<16 {
      for _ in 0..<200 {
        let whole = Double(g.next() % (magnitude * 10))
        values.append(whole)
        values.append(-whole)
        values.append(whole + 0.25)
      }
      magnitude *= 10
    }
    for n in values {
      var expected = ""
      JSONValue.number(n).write(to: &expected, order: .sorted)
      #expect(JSONValue.number(n).jsonText(order: .sorted) == expected, "\(n)")
      #expect(QueryKey([.number(n)]).queryHash == "[\(expected)]", "\(n)")
    }
  }

  @Test func knownHashes() {
    #expect(QueryKey(["todos", 1, ["page": 2]]).queryHash == #"["todos",1,{"page":2}]"#)
    #expect(QueryKey([["b": 1, "10": 2, "9": 3, "01": 4]]).queryHash == #"[{"9":3,"10":2,"01":4,"b":1}]"#)
    #expect(QueryKey([.number(-0.0), .number(1e21), .number(.nan), .undefined, ["u": .undefined]]).queryHash == #"[0,1e+21,null,null,{}]"#)
    #expect(QueryKey(["\u{01}\"é"]).queryHash == "[\"\\u0001\\\"é\"]")
  }

  @Test func longTextOutgrowsTheFirstBufferAndDeepValuesFallBack() {
    let long = String(repeating: "x", count: 5_000)
    #expect(QueryKey([.string(long)]).queryHash == "[\"\(long)\"]")
    var deep: JSONValue = 1
    for _ in 0..<300 { deep = [deep] }
    var expected = ""
    deep.write(to: &expected, order: .javaScriptProperty)
    #expect(deep.jsonText(order: .javaScriptProperty) == expected)
    #expect(expected.utf8.count == 601)
  }
}
