import Quarry
import Foundation
import Testing
@testable import QuarryScenarios

/// Every fixture in `Specs/` replayed through the Runner against the Quarry engine.
@Suite struct SpecificationTests {
  /// The repository's `Specs/` directory, found from this file's path.
  static let specsDirectory: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.appendingPathComponent("Specs").path
  }()

  /// TanStack's recorded traces.
  static let tracesDirectory: String = {
    var url = URL(fileURLWithPath: specsDirectory)
    url.deleteLastPathComponent()
    return url.appendingPathComponent("Conformance/tanstack/traces").path
  }()

  /// The fixture IDs under `Specs/`.
  static let fixtureIDs: [String] = ((try? FixtureFile.discover(in: specsDirectory)) ?? []).map(\.id)

  /// Each scenario passes its checks and its trace equals TanStack's, replayed twice.
  @Test(arguments: fixtureIDs)
  func replays(id: String) throws {
    let options = RunnerOptions(
      directory: Self.specsDirectory, compareDirectory: Self.tracesDirectory,
      deviationsFile: Self.tracesDirectory + "/../deviations.json", repeatCount: 2, filters: [id])
    let report = try Runner(options: options).run()
    let result = try #require(report.results.first)
    #expect(result.status == .pass || result.status == .xfail, "\(result.lines.joined(separator: "\n"))")
  }
}
