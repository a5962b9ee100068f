import Quarry
import Testing
@testable import QuarryScenarios

@Suite struct GenerateTests {
  @Test func sameSeedWritesSameFixtures() {
    let a = ScenarioGenerator(seed: 42), b = ScenarioGenerator(seed: 42), c = ScenarioGenerator(seed: 43)
    #expect(a.fixture(7) == b.fixture(7))
    #expect(a.fixture(7) != c.fixture(7))
    #expect(a.fixture(7) != a.fixture(8))
    #expect(a.fixture(7).contains("\"id\": \"gen-007\""))
  }

  @Test func parsesGenerateCommand() throws {
    #expect(try RunnerCommand.parse(["generate", "--seed", "5", "--count", "3", "--out", "d"]) == .generate(GenerateOptions(seed: 5, count: 3, output: "d")))
    #expect(throws: RunnerError.self) { try RunnerCommand.parse(["generate", "--out", "d"]) }
    #expect(throws: RunnerError.self) { try RunnerCommand.parse(["generate", "--seed", "1", "--count", "0", "--out", "d"]) }
  }

  @Test func generatedFixturesLintAndReplayIdentically() throws {
    let directory = TemporaryDirectory()
    defer { directory.cleanup() }
    let written = try GenerateCommand.run(GenerateOptions(seed: 7, count: 40, output: directory.path))
    #expect(written.count == 40)
    let lint = try Linter.lint(directory: directory.path)
    #expect(lint.problems == [])
    #expect(lint.fixtures == 40)
    var options = RunnerOptions(directory: directory.path)
    options.repeatCount = 2
    let report = try Runner(options: options).run()
    #expect(report.passed == 40)
    #expect(report.failed == 0)
  }
}
