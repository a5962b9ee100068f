import Quarry
/// The results of a run, its closing line, exit status and JSON report.
public struct RunReport: Sendable, Equatable {
  /// The results, sorted by ID.
  public var results: [ScenarioResult]

  /// Creates a report.
  public init(results: [ScenarioResult]) { self.results = results }

  /// PASS and XFAIL results.
  public var passed: Int { results.filter(\.status.countsAsPassed).count }
  /// FAIL, ERROR and XPASS results.
  public var failed: Int { results.filter(\.status.countsAsFailed).count }
  /// SKIP results.
  public var skipped: Int { results.filter { $0.status == .skip }.count }

  /// `N passed, N failed`, with `, N skipped` when any were skipped.
  public var closingLine: String {
    var line = "\(passed) passed, \(failed) failed"
    if skipped > 0 { line += ", \(skipped) skipped" }
    return line
  }

  /// 0 when nothing failed, otherwise 1.
  public var exitCode: Int32 { failed == 0 ? 0 : 1 }

  /// The whole text report: every result's lines, then the closing line, with a trailing newline.
  public var text: String { (results.flatMap(\.lines) + [closingLine]).joined(separator: "\n") + "\n" }

  /// The `--json` report: `{"format":1,"implementation":"swift","results":[...]}`, results sorted by ID.
  public func json(implementation: String = "swift") -> String {
    let entries: [JSONValue] = results.sorted { $0.id < $1.id }.map { result in
      var entry: [String: JSONValue] = ["id": .string(result.id), "status": .string(result.status.rawValue)]
      if let message = result.message { entry["message"] = .string(message) }
      return .object(entry)
    }
    let report: JSONValue = ["format": 1, "implementation": .string(implementation), "results": .array(entries)]
    return report.canonicalJSON + "\n"
  }
}
