import Quarry
import Foundation
import Testing
@testable import QuarryScenarios

/// Runner behaviour with a stand-in interpreter, over fixtures in a temporary directory.
@Suite struct RunnerTests {
  static let trace = [#"{"ev":"call","fn":"todos","key":"[\"todos\"]","n":1,"t":0}"#, #"{"ev":"settle","handle":"a","t":100,"value":["buy milk"]}"#]

  /// A specification directory holding dedup-001 (the README example) and retry-001.
  static func specs() -> TemporaryDirectory {
    let directory = TemporaryDirectory()
    directory.write("dedup/dedup-001.json", SampleFixtures.dedup)
    directory.write("retry/retry-001.json", SampleFixtures.dedup.replacingOccurrences(of: "dedup-001", with: "retry-001"))
    directory.write("README.md", "top-level files are ignored")
    directory.write("expected-failures.json", #"{"format":1,"swift":{}}"#)
    return directory
  }

  static func passing(_ scenario: Scenario) -> ScenarioRun { ScenarioRun(trace: trace) }

  @Test func passesWhenChecksHold() throws {
    let specs = Self.specs()
    defer { specs.cleanup() }
    let report = try Runner(options: RunnerOptions(directory: specs.path), interpret: Self.passing).run()
    #expect(report.results.map(\.line) == [
      "PASS dedup-001 concurrent fetches of one key share a single call",
      "PASS retry-001 concurrent fetches of one key share a single call",
    ])
    #expect(report.exitCode == 0)
  }

  @Test func failedChecksFail() throws {
    let specs = Self.specs()
    defer { specs.cleanup() }
    let runner = Runner(options: RunnerOptions(directory: specs.path)) { _ in
      ScenarioRun(trace: [], failures: ["steps[2] (t=100): calls.todos: expected 1, got 2"])
    }
    let report = try runner.run()
    #expect(report.results.allSatisfy { $0.status == .fail })
    #expect(report.results[0].lines == [
      "FAIL dedup-001 concurrent fetches of one key share a single call",
      "  steps[2] (t=100): calls.todos: expected 1, got 2",
    ])
    #expect(report.closingLine == "0 passed, 2 failed")
  }

  @Test func malformedFixturesAreErrors() throws {
    let specs = Self.specs()
    defer { specs.cleanup() }
    specs.write("dedup/dedup-002.json", #"{"format":1,"id":"dedup-002","title":"broken","steps":[{"clear":{"x":1}}]}"#)
    let report = try Runner(options: RunnerOptions(directory: specs.path, filters: ["dedup-002"]), interpret: Self.passing).run()
    #expect(report.results.count == 1)
    #expect(report.results[0].status == .error)
    #expect(report.results[0].line == "ERROR dedup-002 broken")
    #expect(report.results[0].details == [specs.path + "/dedup/dedup-002.json: steps[0].clear.x: unknown argument \"x\"; clear takes no arguments ({})"])
  }

  @Test func interpreterFixtureErrorsAreErrors() throws {
    let specs = Self.specs()
    defer { specs.cleanup() }
    let runner = Runner(options: RunnerOptions(directory: specs.path, filters: ["dedup-001"])) { scenario in
      ScenarioRun(error: FixtureError(file: scenario.file, path: "steps[0].fetchQuery", expected: "a known handle"))
    }
    #expect(try runner.run().results[0].status == .error)
  }

  @Test func comparesWithGoldenTraces() throws {
    let specs = Self.specs()
    let golden = TemporaryDirectory()
    defer { specs.cleanup(); golden.cleanup() }
    golden.write("dedup-001.jsonl", TraceText.text(of: Self.trace))
    golden.write("retry-001.jsonl", Self.trace[0] + "\n" + #"{"ev":"settle","handle":"a","t":100,"value":["buy eggs"]}"# + "\n")
    let report = try Runner(options: RunnerOptions(directory: specs.path, compareDirectory: golden.path), interpret: Self.passing).run()
    #expect(report.results[0].status == .pass)
    #expect(report.results[1].status == .fail)
    #expect(report.results[1].details == [
      "trace differs from \(golden.path)/retry-001.jsonl at line 2 (t=100):",
      #"  tanstack: {"ev":"settle","handle":"a","t":100,"value":["buy eggs"]}"#,
      #"  swift:    {"ev":"settle","handle":"a","t":100,"value":["buy milk"]}"#,
    ])
  }

  @Test func missingGoldenTraceFails() throws {
    let specs = Self.specs()
    let golden = TemporaryDirectory()
    defer { specs.cleanup(); golden.cleanup() }
    let report = try Runner(options: RunnerOptions(directory: specs.path, compareDirectory: golden.path), interpret: Self.passing).run()
    #expect(report.results.allSatisfy { $0.status == .fail })
    #expect(report.results[0].details == ["no TanStack trace: \(golden.path)/dedup-001.jsonl"])
  }

  @Test func shorterTraceShowsEndOfTrace() {
    let difference = TraceText.firstDifference(expected: Self.trace, actual: [Self.trace[0]])
    #expect(difference == TraceText.Difference(line: 2, expected: Self.trace[1], actual: nil))
    #expect(difference?.describe("x", expectedLabel: "a", actualLabel: "bb").last == "  bb: (end of trace)")
    #expect(TraceText.firstDifference(expected: Self.trace, actual: Self.trace) == nil)
  }

  @Test func deviationsPassWithANote() throws {
    let specs = Self.specs()
    let golden = TemporaryDirectory()
    defer { specs.cleanup(); golden.cleanup() }
    golden.write("dedup-001.jsonl", "{}\n")
    golden.write("retry-001.jsonl", "{}\n")
    golden.write("deviations.json", #"{"format":1,"deviations":[{"id":"dedup-001","part":"trace","why":"Swift orders timers by creation"}]}"#)
    let options = RunnerOptions(directory: specs.path, compareDirectory: golden.path, deviationsFile: golden.path + "/deviations.json")
    let report = try Runner(options: options, interpret: Self.passing).run()
    #expect(report.results[0].line == "PASS dedup-001 concurrent fetches of one key share a single call (deviation: Swift orders timers by creation)")
    #expect(report.results[1].status == .fail)
  }

  @Test func deviationsDoNotExcuseFailedChecks() throws {
    let specs = Self.specs()
    let golden = TemporaryDirectory()
    defer { specs.cleanup(); golden.cleanup() }
    golden.write("dedup-001.jsonl", "{}\n")
    golden.write("deviations.json", #"{"format":1,"deviations":[{"id":"dedup-001","part":"trace","why":"w"}]}"#)
    let options = RunnerOptions(directory: specs.path, compareDirectory: golden.path, deviationsFile: golden.path + "/deviations.json", filters: ["dedup-001"])
    let report = try Runner(options: options) { _ in ScenarioRun(trace: [], failures: ["bad"]) }.run()
    #expect(report.results[0].status == .fail)
    #expect(report.results[0].details.first == "bad")
  }

  @Test func expectedFailuresReportXfailAndXpass() throws {
    let specs = Self.specs()
    defer { specs.cleanup() }
    specs.write("expected-failures.json", #"{"format":1,"swift":{"dedup-001":"timers not ported","retry-001":"retries not ported"}}"#)
    let runner = Runner(options: RunnerOptions(directory: specs.path)) { scenario in
      scenario.id == "dedup-001" ? ScenarioRun(failures: ["nope"]) : ScenarioRun()
    }
    let report = try runner.run()
    #expect(report.results.map(\.status) == [.xfail, .xpass])
    #expect(report.results[0].line.hasSuffix("(expected failure: timers not ported)"))
    #expect(report.closingLine == "1 passed, 1 failed")
    #expect(report.exitCode == 1)
  }

  @Test func repeatedReplaysMustAgree() throws {
    let specs = Self.specs()
    defer { specs.cleanup() }
    let counter = Counter()
    let runner = Runner(options: RunnerOptions(directory: specs.path, repeatCount: 3, filters: ["dedup-001"])) { _ in
      let n = counter.next()
      return ScenarioRun(trace: n == 3 ? [Self.trace[0], #"{"ev":"x","t":7}"#] : Self.trace)
    }
    let result = try runner.run().results[0]
    #expect(result.status == .fail)
    #expect(result.details[0] == "replay 3 differs from replay 1 at line 2 (t=100):")
    #expect(result.details[2] == #"  replay 3: {"ev":"x","t":7}"#)
  }

  @Test func filtersByGlobAndRejectsUnmatchedFilters() throws {
    let specs = Self.specs()
    defer { specs.cleanup() }
    let report = try Runner(options: RunnerOptions(directory: specs.path, filters: ["re*-00?"]), interpret: Self.passing).run()
    #expect(report.results.map(\.id) == ["retry-001"])
    #expect(throws: RunnerError.self) {
      try Runner(options: RunnerOptions(directory: specs.path, filters: ["nothing-*"]), interpret: Self.passing).run()
    }
  }

  @Test func writesByteStableTracesAndJSONReport() throws {
    let specs = Self.specs()
    let out = TemporaryDirectory()
    defer { specs.cleanup(); out.cleanup() }
    let options = RunnerOptions(directory: specs.path, traceDirectory: out.path + "/traces", jsonReportFile: out.path + "/report.json")
    _ = try Runner(options: options, interpret: Self.passing).run()
    let first = out.read("traces/dedup-001.jsonl")
    #expect(first == Self.trace.joined(separator: "\n") + "\n")
    _ = try Runner(options: options, interpret: Self.passing).run()
    #expect(out.read("traces/dedup-001.jsonl") == first)
    #expect(out.read("report.json") == #"{"format":1,"implementation":"swift","results":[{"id":"dedup-001","status":"pass"},{"id":"retry-001","status":"pass"}]}"# + "\n")
  }

  @Test func discoveryIgnoresTopLevelFilesAndSortsByID() throws {
    let specs = Self.specs()
    defer { specs.cleanup() }
    specs.write("alpha/zeta-001.json", "{}")
    specs.write("alpha/notes.txt", "")
    let files = try FixtureFile.discover(in: specs.path)
    #expect(files.map(\.id) == ["dedup-001", "retry-001", "zeta-001"])
    #expect(files.map(\.area) == ["dedup", "retry", "alpha"])
    #expect(throws: RunnerError.self) { try FixtureFile.discover(in: specs.path + "/missing") }
  }

  @Test func malformedListsStopTheRun() throws {
    let specs = Self.specs()
    defer { specs.cleanup() }
    specs.write("expected-failures.json", #"{"format":1,"swift":{"dedup-001":1}}"#)
    #expect(throws: RunnerError.self) { try Runner(options: RunnerOptions(directory: specs.path), interpret: Self.passing).run() }
    #expect(throws: RunnerError.self) { try Deviations.parse(#"{"format":1,"deviations":[{"id":"a-001"}]}"#, file: "d.json") }
    #expect(try Deviations.parse(#"{"format":1,"deviations":[]}"#, file: "d.json") == Deviations())
  }
}

/// A thread-safe call counter for stand-in interpreters.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  func next() -> Int {
    lock.lock()
    defer { lock.unlock() }
    value += 1
    return value
  }
}
