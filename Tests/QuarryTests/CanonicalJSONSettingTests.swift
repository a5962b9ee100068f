import Testing
@testable import Quarry
import QuarryScenarios

/// `JSONValue.canonicalJSON(of:setting:to:)`, which writes an object with one member added
/// without making the dictionary, against making it: the same text for every member set, name
/// (new, already there, sorting first, last or between) and value (`undefined` too).
@Suite struct CanonicalJSONSettingTests {
  static let names = ["", "a", "ev", "key", "t", "type", "ta", "s", "\u{7F}", "caf\u{E9}", "cafe\u{301}", "\u{E000}", "\u{10000}", "0", "10", "2"]
  static let values: [JSONValue] = [.null, .undefined, .bool(true), .number(1.5), .string("x\"y"), .array([.number(1), .undefined]), .object(["b": .number(2), "a": .null])]

  static func expected(_ members: [String: JSONValue], _ name: String, _ value: JSONValue) -> String {
    var object = members
    object[name] = value
    return JSONValue.object(object).canonicalJSON
  }

  @Test func randomObjectsWriteWhatTheMadeObjectWrites() {
    var g = SplitMix64(seed: 7)
    for _ in 0..<10_000 {
      var members: [String: JSONValue] = [:]
      for _ in 0..<Int(g.next() % 6) {
        members[Self.names[Int(g.next() % UInt64(Self.names.count))]] = Self.values[Int(g.next() % UInt64(Self.values.count))]
      }
      let name = Self.names[Int(g.next() % UInt64(Self.names.count))]
      let value = Self.values[Int(g.next() % UInt64(Self.values.count))]
      #expect(JSONValue.canonicalJSON(of: members, setting: name, to: value) == Self.expected(members, name, value))
    }
  }

  @Test func aTraceEventGetsItsTimeInSortedPlace() {
    let event: [String: JSONValue] = ["ev": "cache", "type": "added", "key": "[\"todo\"]"]
    #expect(JSONValue.canonicalJSON(of: event, setting: "t", to: .number(10)) == #"{"ev":"cache","key":"[\"todo\"]","t":10,"type":"added"}"#)
    #expect(JSONValue.canonicalJSON(of: [:], setting: "t", to: .number(0)) == #"{"t":0}"#)
    #expect(JSONValue.canonicalJSON(of: ["t": .number(1)], setting: "t", to: .number(2)) == #"{"t":2}"#)
  }

  @Test func deepValuesGoThroughTheIterativeWriter() {
    var deep: JSONValue = .number(0)
    for _ in 0..<300 { deep = .array([deep]) }
    let members: [String: JSONValue] = ["data": deep, "ev": "result"]
    #expect(JSONValue.canonicalJSON(of: members, setting: "t", to: .number(3)) == Self.expected(members, "t", .number(3)))
  }
}
