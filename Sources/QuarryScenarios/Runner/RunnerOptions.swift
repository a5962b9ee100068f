import Foundation
import Quarry
/// What a run replays and how it judges the results (the `scenario-runner run` options).
public struct RunnerOptions: Sendable, Equatable {
  /// The specification directory holding `<area>/<id>.json`.
  public var directory: String
  /// `--compare DIR`: golden traces `<id>.jsonl` the Swift traces must equal.
  public var compareDirectory: String?
  /// `--deviations FILE`: IDs whose trace may differ from the golden one.
  public var deviationsFile: String?
  /// `--expected-failures FILE`; `nil` uses `<directory>/expected-failures.json` when present.
  public var expectedFailuresFile: String?
  /// `--repeat N`: replay each scenario N times and require identical traces.
  public var repeatCount: Int
  /// `--filter PATTERN` (repeatable): IDs or globs with `*` and `?`; empty means every ID.
  public var filters: [String]
  /// `--trace-dir DIR`: write each trace to `<DIR>/<id>.jsonl`.
  public var traceDirectory: String?
  /// `--json FILE`: write the JSON report there.
  public var jsonReportFile: String?
  /// `--html FILE`: write the self-contained HTML timeline report there.
  public var htmlReportFile: String?
  /// `--jobs N`: how many fixtures replay at once, each on its own thread (every scenario has its
  /// own client and virtual clock, so their traces do not depend on it). 1 replays them one after
  /// another on the calling thread; the default is the number of active processors.
  public var jobs: Int

  /// Creates options.
  public init(
    directory: String, compareDirectory: String? = nil, deviationsFile: String? = nil,
    expectedFailuresFile: String? = nil, repeatCount: Int = 1, filters: [String] = [],
    traceDirectory: String? = nil, jsonReportFile: String? = nil, htmlReportFile: String? = nil,
    jobs: Int = RunnerOptions.defaultJobs
  ) {
    self.directory = directory
    self.compareDirectory = compareDirectory
    self.deviationsFile = deviationsFile
    self.expectedFailuresFile = expectedFailuresFile
    self.repeatCount = repeatCount
    self.filters = filters
    self.traceDirectory = traceDirectory
    self.jsonReportFile = jsonReportFile
    self.htmlReportFile = htmlReportFile
    self.jobs = jobs
  }

  /// The default `jobs`: the number of active processors.
  public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

  /// Whether `id` passes the filters.
  public func selects(_ id: String) -> Bool {
    filters.isEmpty || filters.contains { GlobPattern($0).matches(id) }
  }
}
