import Testing
@testable import Quarry
import QuarryScenarios

/// `JSONValue.canonicalJSON(ofMembers:)`, which writes an object from a list of members without
/// making the dictionary (the scenario runner's trace events), against making it: the same text
/// for every member list, name order and value (`undefined` too), with and without a member's
/// sorted positions.
@Suite struct CanonicalJSONMembersTests {
  static let names = ["", "a", "ev", "key", "t", "type", "ta", "s", "\u{7F}", "caf\u{E9}", "\u{E000}", "\u{10000}", "0", "10", "2",
    "isFetched", "isFetchedAfterMount", "isFetching", "errorUpdatedAt", "errorUpdateCount", "\u{E000}b", "\u{10000}a"]
  static let values: [JSONValue] = [.null, .undefined, .bool(true), .number(1.5), .string("x\"y"), .array([.number(1), .undefined]), .object(["b": .number(2), "a": .null])]

  static func expected(_ members: [(name: String, value: JSONValue, order: [Dictionary<String, JSONValue>.Index]?)]) -> String {
    JSONValue.object(Dictionary(members.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })).canonicalJSON
  }

  @Test func randomMemberListsWriteWhatTheMadeObjectWrites() {
    var g = SplitMix64(seed: 7)
    for _ in 0..<10_000 {
      var members: [(name: String, value: JSONValue, order: [Dictionary<String, JSONValue>.Index]?)] = []
      for _ in 0..<Int(g.next() % 8) {
        let name = Self.names[Int(g.next() % UInt64(Self.names.count))]
        if members.contains(where: { $0.name == name }) { continue }
        members.append((name, Self.values[Int(g.next() % UInt64(Self.values.count))], nil))
      }
      #expect(JSONValue.canonicalJSON(ofMembers: members) == Self.expected(members))
    }
  }

  @Test func aMembersSortedPositionsWriteItsCanonicalText() {
    // A copy of a dictionary keeps its layout: the positions sorted once serve every copy.
    let template = Dictionary(uniqueKeysWithValues: Self.names.map { ($0, JSONValue.null) })
    let sorted = Self.names.sorted(by: JSONValue.jsKeyOrder).map { template.index(forKey: $0)! }
    var g = SplitMix64(seed: 11)
    for _ in 0..<500 {
      var copy = template
      for position in template.indices { copy.values[position] = Self.values[Int(g.next() % UInt64(Self.values.count))] }
      let members: [(name: String, value: JSONValue, order: [Dictionary<String, JSONValue>.Index]?)] = [("ev", "result", nil), ("result", .object(copy), sorted)]
      #expect(JSONValue.canonicalJSON(ofMembers: members) == Self.expected(members))
    }
    // Positions that do not fit the object are not used.
    let other: [String: JSONValue] = ["b": 1, "a": 2]
    #expect(JSONValue.canonicalJSON(ofMembers: [("x", .object(other), sorted)]) == #"{"x":{"a":2,"b":1}}"#)
  }

  @Test func deepValuesGoThroughTheIterativeWriter() {
    var deep: JSONValue = .number(0)
    for _ in 0..<300 { deep = .array([deep]) }
    let members: [(name: String, value: JSONValue, order: [Dictionary<String, JSONValue>.Index]?)] = [("data", deep, nil), ("ev", "result", nil)]
    #expect(JSONValue.canonicalJSON(ofMembers: members) == Self.expected(members))
  }
}
