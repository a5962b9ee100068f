import Quarry
/// The `--html FILE` report: one self-contained page (inline CSS, script and SVG; no external
/// assets) with a summary table of every scenario, filterable by area and status, and per
/// scenario a timeline with virtual time across: a lane for the steps and checks, one per query,
/// observer and mutation, state as coloured bands, trace events as ticks. With `--compare`,
/// Swift's and TanStack's timelines are drawn one above the other on one time axis, the first
/// differing trace line highlighted in both.
///
/// ```swift
/// let page = HTMLReport(evaluations: [], specification: "Specs", compareDirectory: nil)
/// print(page.html.hasPrefix("<!DOCTYPE html>"))  // true
/// ```
public struct HTMLReport: Sendable {
  /// What each scenario's evaluation produced, in report order.
  public var evaluations: [ScenarioEvaluation]
  /// The specification directory, shown in the heading.
  public var specification: String
  /// The golden trace directory when the run compared (`--compare`).
  public var compareDirectory: String?

  /// Creates a report.
  public init(evaluations: [ScenarioEvaluation], specification: String, compareDirectory: String?) {
    self.evaluations = evaluations
    self.specification = specification
    self.compareDirectory = compareDirectory
  }

  /// How a scenario is filed in the summary: `pass`, `differs` (its trace differs from the
  /// golden one, even when a deviation or expected failure accepts it), `fail` (a check or
  /// replay failed, or no golden trace), or `error` (the fixture could not be replayed).
  public static func category(of evaluation: ScenarioEvaluation) -> String {
    if evaluation.result.status == .error { return "error" }
    if let golden = evaluation.golden, golden != evaluation.trace { return "differs" }
    if evaluation.result.status == .pass { return "pass" }
    return "fail"
  }

  /// The whole page.
  public var html: String {
    var page = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>Quarry scenarios: \(HTMLEscaping.text(specification))</title>
      <style>
      \(HTMLReport.style)
      </style>
      </head>
      <body data-scenarios="\(evaluations.count)" data-rendered="0">

      """
    page += heading
    page += legend
    page += summary
    page += "<section id=\"detail\" aria-live=\"polite\"><p class=\"hint\">Choose a scenario in the table to see its timeline.</p></section>\n"
    page += "<script type=\"application/json\" id=\"quarry-data\">" + HTMLEscaping.scriptJSON(data.canonicalJSON) + "</script>\n"
    page += "<script>\n" + HTMLReport.script + "\n</script>\n</body>\n</html>\n"
    return page
  }

  /// The title and the totals.
  var heading: String {
    var counts: [String: Int] = [:]
    for evaluation in evaluations { counts[HTMLReport.category(of: evaluation), default: 0] += 1 }
    let against = compareDirectory.map { "compared with <code>\(HTMLEscaping.text($0))</code>" } ?? "not compared (no <code>--compare</code>)"
    let totals = ["pass", "differs", "fail", "error"].map { "<span class=\"badge c-\($0)\">\(counts[$0] ?? 0) \($0)</span>" }.joined(separator: " ")
    return """
      <header><h1>Quarry scenarios <small><code>\(HTMLEscaping.text(specification))</code></small></h1>
      <p>\(evaluations.count) scenarios, \(against). \(totals)</p></header>

      """
  }
}
