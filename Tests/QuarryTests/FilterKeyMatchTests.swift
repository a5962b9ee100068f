import Testing
@testable import Quarry

/// `partialMatchKey` compares string and number parts in place and hands the rest to
/// `partialDeepEqual`; it must answer what `partialDeepEqual` of the two whole keys (TanStack's
/// definition) answers for every pair.
@Suite struct FilterKeyMatchTests {
  @Test func itAnswersWhatPartialDeepEqualOfTheKeysAnswers() {
    let parts: [JSONValue] = [
      "todos", "todo", "caf\u{E9}", "cafe\u{301}", "", 1, 0, .number(-0.0), .number(.nan), 1.5, true, false, nil,
      .undefined, [], ["todos"], [1, 2], [:], ["page": 1], ["page": 1, "size": 2], ["0": "todos"],
    ]
    var keys: [QueryKey] = [[]]
    for a in parts {
      keys.append([a])
      keys.append(["todos", a])
      keys.append([a, ["page": 1]])
    }
    var compared = 0
    for key in keys {
      for filter in keys {
        let expected = partialDeepEqual(.array(key.parts), .array(filter.parts))
        #expect(partialMatchKey(key, filter) == expected, "\(key) / \(filter)")
        compared += 1
      }
    }
    #expect(compared > 4000)
    // Some pairs of each answer, so that neither answer is the only one checked.
    #expect(partialMatchKey(["todos", 1, ["page": 1]], ["todos"]))
    #expect(partialMatchKey(["todos", .number(-0.0)], ["todos", 0]))
    #expect(!partialMatchKey(["cafe\u{301}"], ["caf\u{E9}"]))
    #expect(!partialMatchKey(["todos", .number(.nan)], ["todos", .number(.nan)]))
    #expect(!partialMatchKey(["todos"], ["todos", 1]))
    #expect(partialMatchKey(["todos"], ["todos", .undefined]))
  }

  /// Keys nested deeper than `JSONValue.recursionLimit` keep their parts in a box
  /// (`QueryKey.Storage.deep`); they are read in place as inline ones are.
  @Test func deepKeysMatchAsPartialDeepEqualOfTheKeysAnswers() {
    func wrap(_ value: JSONValue, _ depth: Int) -> JSONValue {
      var value = value
      for _ in 0..<depth { value = [value] }
      return value
    }
    let depth = JSONValue.recursionLimit + 5
    let deep = QueryKey(["todos", wrap(1, depth)])
    let deepOther = QueryKey(["todos", wrap(2, depth)])
    guard case .deep = deep.storage else {
      Issue.record("the key is not held deep")
      return
    }
    let keys: [QueryKey] = [deep, deepOther, ["todos"], ["todos", 1], [], ["other"]]
    for key in keys {
      for filter in keys {
        #expect(partialMatchKey(key, filter) == partialDeepEqual(.array(key.parts), .array(filter.parts)))
      }
    }
    #expect(partialMatchKey(deep, ["todos"]))
    #expect(partialMatchKey(deep, deep))
    #expect(!partialMatchKey(deep, deepOther))
    #expect(!partialMatchKey(["todos"], deep))
  }
}
