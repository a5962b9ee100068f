import Quarry
import Testing
@testable import QuarryScenarios

@Suite struct GlobPatternTests {
  @Test(arguments: [
    ("dedup-001", "dedup-001", true),
    ("dedup-001", "dedup-002", false),
    ("dedup-*", "dedup-001", true),
    ("dedup-*", "retry-001", false),
    ("*-001", "dedup-001", true),
    ("dedup-00?", "dedup-007", true),
    ("dedup-00?", "dedup-010", false),
    ("*", "anything-123", true),
    ("*", "", true),
    ("", "", true),
    ("", "a", false),
    ("d*p-*1", "dedup-001", true),
    ("d*p-*2", "dedup-001", false),
    ("**dup**", "dedup-001", true),
    ("?", "", false),
    ("dedup", "dedup-001", false),
  ])
  func matches(pattern: String, text: String, expected: Bool) {
    #expect(GlobPattern(pattern).matches(text) == expected)
  }

  @Test func optionsSelectByAnyFilter() {
    var options = RunnerOptions(directory: "Specs")
    #expect(options.selects("dedup-001"))
    options.filters = ["retry-*", "dedup-002"]
    #expect(options.selects("retry-004"))
    #expect(options.selects("dedup-002"))
    #expect(!options.selects("dedup-001"))
  }
}
