import Quarry
import Testing
@testable import QuarryScenarios

@Suite struct LinterTests {
  @Test func cleanSpecificationHasNoProblems() throws {
    let specs = TemporaryDirectory()
    defer { specs.cleanup() }
    specs.write("dedup/dedup-001.json", SampleFixtures.dedup)
    specs.write("dedup.md", "Fetches share one call [dedup-001].")
    specs.write("README.md", "like [other-001]")
    let report = try Linter.lint(directory: specs.path)
    #expect(report.problems == [])
    #expect(report.closingLine == "1 fixture, 0 problems")
    #expect(report.exitCode == 0)
  }

  @Test func reportsEveryKindOfProblem() throws {
    let specs = TemporaryDirectory()
    defer { specs.cleanup() }
    let p = specs.path
    specs.write("dedup/dedup-001.json", SampleFixtures.dedup.replacingOccurrences(of: "concurrent fetches", with: "fetches should"))
    specs.write("dedup/dedup-002.json", "{}")
    specs.write("retry/dedup-003.json", SampleFixtures.dedup.replacingOccurrences(of: "dedup-001", with: "dedup-003"))
    specs.write("gc/dedup-001.json", "{}")
    specs.write("dedup.md", "[dedup-001] [dedup-009] [not an id] [dedup-002]")
    specs.write("expected-failures.json", #"{"format":1,"swift":{"gone-001":"x"}}"#)
    let report = try Linter.lint(directory: p)
    #expect(report.fixtures == 4)
    let expected = [
      "\(p)/dedup.md: cites [dedup-009], which has no fixture",
      "\(p)/dedup/dedup-001.json: title: no \"should\" in titles (say what happens)",
      "\(p)/dedup/dedup-002.json: format: missing; expected 1",
      "\(p)/expected-failures.json: lists gone-001, which has no fixture",
      "\(p)/gc/dedup-001.json: format: missing; expected 1",
      "\(p)/gc/dedup-001.json: not cited as [dedup-001] in \(p)/gc.md",
      "\(p)/gc/dedup-001.json: the ID's area \"dedup\" differs from its folder \"gc\"",
      "\(p)/retry/dedup-003.json: not cited as [dedup-003] in \(p)/retry.md",
      "\(p)/retry/dedup-003.json: the ID's area \"dedup\" differs from its folder \"retry\"",
      "dedup-001: the ID is used by 2 files: \(p)/dedup/dedup-001.json, \(p)/gc/dedup-001.json",
    ]
    #expect(report.problems == expected)
    #expect(report.exitCode == 1)
  }

  @Test func citations() {
    #expect(Linter.citedIDs(in: "a [dedup-001], [retry-012][gc-003] [x] [dedup-01] [[staleness-004]]") == ["dedup-001", "retry-012", "gc-003", "staleness-004"])
  }

  @Test func shouldIsAWord() {
    #expect(Linter.containsShould("it Should refetch"))
    #expect(Linter.containsShould("should"))
    #expect(!Linter.containsShould("shoulder surfing"))
  }
}
