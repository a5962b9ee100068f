import Quarry
import Testing
@testable import QuarryScenarios

@Suite struct RunReportTests {
  static func result(_ id: String, _ status: ScenarioStatus) -> ScenarioResult {
    ScenarioResult(id: id, title: "title of \(id)", status: status)
  }

  @Test func emptyRunPasses() {
    let report = RunReport(results: [])
    #expect(report.closingLine == "0 passed, 0 failed")
    #expect(report.exitCode == 0)
    #expect(report.text == "0 passed, 0 failed\n")
  }

  @Test func xfailCountsAsPassedAndXpassAsFailed() {
    let report = RunReport(results: [
      Self.result("a-001", .pass), Self.result("a-002", .xfail), Self.result("a-003", .fail),
      Self.result("a-004", .error), Self.result("a-005", .xpass),
    ])
    #expect(report.passed == 2)
    #expect(report.failed == 3)
    #expect(report.closingLine == "2 passed, 3 failed")
    #expect(report.exitCode == 1)
  }

  @Test func skippedAppearOnlyWhenPresent() {
    let report = RunReport(results: [Self.result("a-001", .pass), Self.result("a-002", .skip)])
    #expect(report.closingLine == "1 passed, 0 failed, 1 skipped")
    #expect(report.exitCode == 0)
  }

  @Test func onlyXfailStillExitsZero() {
    #expect(RunReport(results: [Self.result("a-001", .xfail)]).exitCode == 0)
    #expect(RunReport(results: [Self.result("a-001", .xpass)]).exitCode == 1)
  }

  @Test func linesIndentDetailsAndCloseAlone() {
    let report = RunReport(results: [
      ScenarioResult(id: "a-001", title: "one", status: .pass, note: "deviation: timers"),
      ScenarioResult(id: "a-002", title: "two", status: .fail, details: ["step 3 (t=100): calls.todos: expected 1, got 2"]),
      ScenarioResult(id: "a-003", title: "", status: .error, details: ["x.json: id: missing"]),
    ])
    #expect(report.text == """
      PASS a-001 one (deviation: timers)
      FAIL a-002 two
        step 3 (t=100): calls.todos: expected 1, got 2
      ERROR a-003
        x.json: id: missing
      1 passed, 2 failed

      """)
  }

  @Test func jsonReportIsSortedAndCanonical() throws {
    let report = RunReport(results: [
      ScenarioResult(id: "b-001", title: "b", status: .fail, details: ["d1", "d2"]),
      ScenarioResult(id: "a-001", title: "a", status: .pass),
    ])
    let json = report.json()
    #expect(json == #"{"format":1,"implementation":"swift","results":[{"id":"a-001","status":"pass"},{"id":"b-001","message":"d1\nd2","status":"fail"}]}"# + "\n")
    #expect(try JSONParser.parse(json)["implementation"] == "swift")
  }

  @Test func statusLabels() {
    #expect(ScenarioStatus.allCases.map(\.label) == ["PASS", "FAIL", "ERROR", "XFAIL", "XPASS", "SKIP"])
  }
}
