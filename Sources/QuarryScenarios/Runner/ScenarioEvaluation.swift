import Quarry
/// Everything one scenario's evaluation produced: its result and, for the HTML report, the
/// fixture's steps, the Swift trace and the golden trace it was compared with.
public struct ScenarioEvaluation: Sendable {
  /// The judged result (the report line).
  public var result: ScenarioResult
  /// The fixture's area folder, e.g. `dedup`.
  public var area: String
  /// The decoded scenario, `nil` when the fixture could not be decoded.
  public var scenario: Scenario?
  /// The Swift trace of the first replay (partial when the replay stopped on an error).
  public var trace: [String]
  /// The golden (TanStack) trace, when `--compare` gave one.
  public var golden: [String]?
  /// The failed checks of the first replay, each naming its step and virtual time.
  public var failures: [String]

  /// Creates an evaluation.
  public init(result: ScenarioResult, area: String, scenario: Scenario? = nil, trace: [String] = [], golden: [String]? = nil, failures: [String] = []) {
    self.result = result
    self.area = area
    self.scenario = scenario
    self.trace = trace
    self.golden = golden
    self.failures = failures
  }
}
