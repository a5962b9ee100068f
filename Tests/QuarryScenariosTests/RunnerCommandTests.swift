import Quarry
import Testing
@testable import QuarryScenarios

@Suite struct RunnerCommandTests {
  @Test func runIsTheDefault() throws {
    #expect(try RunnerCommand.parse(["Specs/"]) == .run(RunnerOptions(directory: "Specs/")))
    #expect(try RunnerCommand.parse(["run", "Specs/"]) == .run(RunnerOptions(directory: "Specs/")))
  }

  @Test func parsesEveryOption() throws {
    let command = try RunnerCommand.parse([
      "Specs/", "--compare", "golden", "--deviations=dev.json", "--expected-failures", "xf.json", "--repeat", "3",
      "--filter", "dedup-*", "--filter=retry-001", "--trace-dir", "out", "--json", "report.json",
    ])
    #expect(command == .run(RunnerOptions(
      directory: "Specs/", compareDirectory: "golden", deviationsFile: "dev.json", expectedFailuresFile: "xf.json",
      repeatCount: 3, filters: ["dedup-*", "retry-001"], traceDirectory: "out", jsonReportFile: "report.json")))
  }

  @Test func parsesHTML() throws {
    #expect(try RunnerCommand.parse(["Specs/", "--html", "report.html"]) == .run(RunnerOptions(directory: "Specs/", htmlReportFile: "report.html")))
    #expect(try RunnerCommand.parse(["Specs/", "--html=r.html"]) == .run(RunnerOptions(directory: "Specs/", htmlReportFile: "r.html")))
  }

  @Test func parsesJobs() throws {
    #expect(try RunnerCommand.parse(["Specs/", "--jobs", "1"]) == .run(RunnerOptions(directory: "Specs/", jobs: 1)))
    #expect(try RunnerCommand.parse(["Specs/", "--jobs=8"]) == .run(RunnerOptions(directory: "Specs/", jobs: 8)))
    #expect(RunnerOptions(directory: "Specs/").jobs == RunnerOptions.defaultJobs)
    #expect(RunnerOptions.defaultJobs >= 1)
  }

  @Test func lintTakesADirectory() throws {
    #expect(try RunnerCommand.parse(["lint", "Specs"]) == .lint(directory: "Specs"))
    #expect(throws: RunnerError.self) { try RunnerCommand.parse(["lint", "Specs", "--json", "x"]) }
  }

  @Test func help() throws {
    #expect(try RunnerCommand.parse(["--help"]) == .help)
  }

  @Test(arguments: [
    (["Specs", "--bogus"], "unknown option --bogus"),
    (["Specs", "-x"], "unknown option -x"),
    ([], "missing DIR"),
    (["Specs", "--repeat", "0"], "--repeat needs a whole number ≥ 1"),
    (["Specs", "--repeat"], "--repeat needs a value"),
    (["Specs", "--jobs", "0"], "--jobs needs a whole number ≥ 1"),
    (["Specs", "--jobs", "two"], "--jobs needs a whole number ≥ 1, found two"),
    (["Specs", "Other"], "only one DIR"),
  ])
  func rejectsBadArguments(arguments: [String], message: String) {
    do {
      _ = try RunnerCommand.parse(arguments)
      Issue.record("accepted \(arguments)")
    } catch {
      #expect(error.message.contains(message), "\(error)")
    }
  }
}
