import Testing
@testable import Quarry

/// `QueryFilters.partialMatchParts` compares string and number parts in place and hands the
/// rest to `partialDeepEqual`; it must answer what `partialMatchKey` answers for every pair.
@Suite struct FilterKeyMatchTests {
  @Test func itAnswersWhatPartialMatchKeyAnswers() {
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
        let expected = partialMatchKey(key, filter)
        #expect(QueryFilters.partialMatchParts(key.parts, filter.parts) == expected, "\(key) / \(filter)")
        compared += 1
      }
    }
    #expect(compared > 4000)
    // Some pairs of each answer, so that neither answer is the only one checked.
    #expect(QueryFilters.partialMatchParts(["todos", 1, ["page": 1]], ["todos"]))
    #expect(QueryFilters.partialMatchParts(["todos", .number(-0.0)], ["todos", 0]))
    #expect(!QueryFilters.partialMatchParts(["cafe\u{301}"], ["caf\u{E9}"]))
    #expect(!QueryFilters.partialMatchParts(["todos", .number(.nan)], ["todos", .number(.nan)]))
    #expect(!QueryFilters.partialMatchParts(["todos"], ["todos", 1]))
    #expect(QueryFilters.partialMatchParts(["todos"], ["todos", .undefined]))
  }
}
