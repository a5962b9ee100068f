import Quarry
/// How one scenario ended in a run, as the report names it.
public enum ScenarioStatus: String, Sendable, CaseIterable {
  /// The checks held (and the trace matched, when compared).
  case pass
  /// A check failed, the trace differed, or a replay differed.
  case fail
  /// The fixture is malformed.
  case error
  /// Failed, as `Specs/expected-failures.json` says it does.
  case xfail
  /// Listed as an expected failure but passed: fails the run.
  case xpass
  /// Not replayed.
  case skip

  /// The upper-case label of a report line, e.g. `PASS`.
  public var label: String { rawValue.uppercased() }

  /// Whether the status counts as failed in the closing line (FAIL, ERROR and XPASS).
  public var countsAsFailed: Bool { self == .fail || self == .error || self == .xpass }

  /// Whether the status counts as passed in the closing line (PASS and XFAIL).
  public var countsAsPassed: Bool { self == .pass || self == .xfail }
}
