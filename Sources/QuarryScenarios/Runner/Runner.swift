import Quarry
import Foundation

/// Replays the fixtures of a specification directory and judges them: checks, repeated replays,
/// golden traces, deviations and expected failures. The library behind `scenario-runner`.
///
/// ```swift
/// let report = try Runner(options: RunnerOptions(directory: "Specs")).run()
/// print(report.text, terminator: "")
/// ```
public struct Runner: Sendable {
  /// What to replay and how to judge it.
  public var options: RunnerOptions
  /// Replays one scenario; `Interpreter.run` unless a test supplies another.
  public var interpret: @Sendable (Scenario) -> ScenarioRun

  /// Creates a runner.
  public init(options: RunnerOptions, interpret: @escaping @Sendable (Scenario) -> ScenarioRun = Interpreter.run) {
    self.options = options
    self.interpret = interpret
  }

  /// Replays every selected fixture (`options.jobs` at once), calling `onResult` for each in the
  /// fixtures' order, and writes the `--json` report and `--trace-dir` traces.
  ///
  /// With one job each result is delivered as its fixture finishes; with more, every result is
  /// delivered once every fixture has been replayed. An error stops the run at its fixture, as it
  /// would one after another (fixtures after it may have been replayed, and their traces written).
  public func run(onResult: (ScenarioResult) -> Void = { _ in }) throws(RunnerError) -> RunReport {
    guard options.repeatCount >= 1 else { throw RunnerError("--repeat needs a whole number ≥ 1") }
    guard options.jobs >= 1 else { throw RunnerError("--jobs needs a whole number ≥ 1") }
    let context = try loadContext()
    let fixtures = try FixtureFile.discover(in: options.directory).filter { options.selects($0.id) }
    if !options.filters.isEmpty, fixtures.isEmpty {
      throw RunnerError("no fixture matches --filter \(options.filters.joined(separator: " "))")
    }
    if let traceDirectory = options.traceDirectory {
      do {
        try FileManager.default.createDirectory(atPath: traceDirectory, withIntermediateDirectories: true)
      } catch {
        throw RunnerError("cannot create \(traceDirectory)")
      }
    }
    // A fixture whose ID an earlier one already has is an error, not replayed.
    var seen: [String: String] = [:]
    let duplicates: [String?] = fixtures.map { fixture in
      if let other = seen[fixture.id] { return "\(fixture.path): the ID \(fixture.id) is also used by \(other)" }
      seen[fixture.id] = fixture.path
      return nil
    }
    var results: [ScenarioResult] = []
    var evaluations: [ScenarioEvaluation] = []
    try replay(fixtures, duplicates: duplicates, context: context) { evaluation in
      results.append(evaluation.result)
      if options.htmlReportFile != nil { evaluations.append(evaluation) }
      onResult(evaluation.result)
    }
    let report = RunReport(results: results)
    if let jsonFile = options.jsonReportFile {
      try write(report.json(), to: jsonFile)
    }
    if let htmlFile = options.htmlReportFile {
      let page = HTMLReport(evaluations: evaluations, specification: options.directory, compareDirectory: options.compareDirectory)
      try write(page.html, to: htmlFile)
    }
    return report
  }

  /// The lists a run consults besides the fixtures.
  public struct Context: Sendable {
    /// Known Swift failures.
    public var expectedFailures: ExpectedFailures
    /// Accepted trace differences.
    public var deviations: Deviations
  }

  /// Loads the expected failures and deviations named by the options.
  public func loadContext() throws(RunnerError) -> Context {
    var expected = ExpectedFailures()
    if let file = options.expectedFailuresFile {
      expected = try ExpectedFailures.load(file)
    } else {
      let defaultFile = (options.directory.hasSuffix("/") ? options.directory : options.directory + "/") + "expected-failures.json"
      if FileManager.default.fileExists(atPath: defaultFile) { expected = try ExpectedFailures.load(defaultFile) }
    }
    let deviations = try options.deviationsFile.map { (file) throws(RunnerError) in try Deviations.load(file) } ?? Deviations()
    return Context(expectedFailures: expected, deviations: deviations)
  }

  /// Decodes, replays and judges one fixture (writing its trace when `--trace-dir` is set).
  public func evaluate(_ fixture: FixtureFile, context: Context) throws(RunnerError) -> ScenarioResult {
    try evaluateWithTraces(fixture, context: context).result
  }

  /// Decodes, replays and judges one fixture, keeping its steps and traces for the HTML report.
  public func evaluateWithTraces(_ fixture: FixtureFile, context: Context) throws(RunnerError) -> ScenarioEvaluation {
    let scenario: Scenario
    do {
      scenario = try FixtureDecoder.decode(contentsOf: fixture.path)
    } catch {
      let result = ScenarioResult(id: fixture.id, title: Runner.bestEffortTitle(fixture.path), status: .error, details: [error.description])
      return ScenarioEvaluation(result: result, area: fixture.area)
    }
    let first = interpret(scenario)
    if let error = first.error {
      let result = ScenarioResult(id: scenario.id, title: scenario.title, status: .error, details: [error.description])
      return ScenarioEvaluation(result: result, area: fixture.area, scenario: scenario, trace: first.trace, failures: first.failures)
    }
    if let traceDirectory = options.traceDirectory {
      try write(TraceText.text(of: first.trace), to: traceDirectory + "/" + scenario.id + ".jsonl")
    }
    var details = first.failures
    if options.repeatCount > 1 {
      for replay in 2...options.repeatCount {
        let again = interpret(scenario)
        if let difference = TraceText.firstDifference(expected: first.trace, actual: again.trace) {
          details += difference.describe("replay \(replay) differs from replay 1", expectedLabel: "replay 1", actualLabel: "replay \(replay)")
          break
        }
        if again.failures != first.failures || again.error != first.error {
          details.append("replay \(replay) judged differently from replay 1: \((again.failures + [again.error?.description].compactMap { $0 }).joined(separator: "; "))")
          break
        }
      }
    }
    var note: String?
    var goldenTrace: [String]?
    if let compareDirectory = options.compareDirectory {
      let goldenPath = (compareDirectory.hasSuffix("/") ? compareDirectory : compareDirectory + "/") + scenario.id + ".jsonl"
      if let data = FileManager.default.contents(atPath: goldenPath) {
        let golden = TraceText.lines(of: String(decoding: data, as: UTF8.self))
        goldenTrace = golden
        if let difference = TraceText.firstDifference(expected: golden, actual: first.trace) {
          let lines = difference.describe("trace differs from \(goldenPath)", expectedLabel: "tanstack", actualLabel: "swift")
          if let deviation = context.deviations.entries[scenario.id], details.isEmpty {
            note = "deviation: \(deviation.why)"
          } else {
            details += lines
          }
        }
      } else {
        details.append("no TanStack trace: \(goldenPath)")
      }
    }
    var result = ScenarioResult(id: scenario.id, title: scenario.title, status: details.isEmpty ? .pass : .fail, note: note, details: details)
    if let reason = context.expectedFailures.reasons[scenario.id] {
      if result.status == .fail {
        result.status = .xfail
        result.note = "expected failure: \(reason)"
      } else {
        result.status = .xpass
        result.details = ["listed in expected-failures.json (\(reason)) but passed; remove it from the list"]
      }
    }
    return ScenarioEvaluation(result: result, area: fixture.area, scenario: scenario, trace: first.trace, golden: goldenTrace, failures: first.failures)
  }

  /// The fixture's title if its JSON is readable, for ERROR lines.
  static func bestEffortTitle(_ path: String) -> String {
    guard let data = FileManager.default.contents(atPath: path),
      let value = try? JSONParser.parse(bytes: [UInt8](data)), case .string(let title)? = value["title"]
    else { return "" }
    return String(title.prefix(FixtureDecoder.maximumTitleLength))
  }

  private func write(_ text: String, to path: String) throws(RunnerError) {
    guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
      throw RunnerError("cannot write \(path)")
    }
  }
}
