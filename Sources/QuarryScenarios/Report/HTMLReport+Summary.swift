import Quarry
extension HTMLReport {
  /// The legend: band and tick colours, drawn as inline SVG swatches.
  var legend: String {
    func swatch(_ cls: String, _ label: String) -> String {
      "<span class=\"key\"><svg width=\"14\" height=\"10\" aria-hidden=\"true\"><rect class=\"\(cls)\" width=\"14\" height=\"10\"></rect></svg>\(label)</span>"
    }
    func tick(_ kind: String, _ label: String) -> String {
      "<span class=\"key\"><svg width=\"6\" height=\"12\" aria-hidden=\"true\"><line class=\"tk tk-\(kind)\" x1=\"3\" x2=\"3\" y1=\"0\" y2=\"12\"></line></svg>\(label)</span>"
    }
    let statuses = ["pending", "success", "error", "idle", "unknown"].map { swatch("st st-\($0)", $0) }
    let activities = ["fetching", "paused", "running"].map { swatch("ac ac-\($0)", $0) }
    let ticks = [("step", "step"), ("call", "call"), ("cache", "cache event"), ("result", "listener call"),
      ("settle", "settle / return"), ("callback", "callback"), ("abort", "abort"), ("final", "final state"), ("storage", "storage")]
      .map { tick($0.0, $0.1) }
    return """
      <details class="legend" open><summary>Legend</summary>
      <p>Status (upper stripe): \(statuses.joined(separator: " "))</p>
      <p>Activity (lower stripe: fetchStatus, or a mutation running or paused): \(activities.joined(separator: " "))</p>
      <p>Ticks: \(ticks.joined(separator: " ")) <span class="key"><svg width="12" height="12" aria-hidden="true"><path class="check" d="M6 0 L12 6 L6 12 L0 6 Z"></path></svg>check</span>
      <span class="key"><svg width="12" height="12" aria-hidden="true"><path class="check failed" d="M6 0 L12 6 L6 12 L0 6 Z"></path></svg>failed check</span>
      <span class="key"><svg width="6" height="12" aria-hidden="true"><line class="diffline" x1="3" x2="3" y1="0" y2="12"></line></svg>first difference</span></p>
      <p>Time runs left to right; the events of one millisecond are drawn in trace order, and gaps grow with the logarithm of the time between them.
      Observer bands are the results their listeners received. Query bands replay the cache events' actions with TanStack's reducer, which the trace
      names without their payload: the status an <code>added</code> or <code>setState</code> leaves is read from the query's next observer result or
      <code>final</code> line before a <code>success</code> or <code>error</code>; without one, <code>added</code> is drawn pending, a <code>setState</code>
      during a fetch is its revert, any other unknown; <code>fetch</code> is drawn fetching (never paused offline); the <code>final</code> line's state is exact.</p>
      </details>

      """
  }

  /// The summary table: one row per scenario, with the area and status the filters read.
  var summary: String {
    let areas = Set(evaluations.map(\.area)).sorted()
    var html = """
      <section id="summary">
      <div class="filters">
      <label>Area <select id="filter-area"><option value="">all</option>\(areas.map { "<option>\(HTMLEscaping.text($0))</option>" }.joined())</select></label>
      <label>Status <select id="filter-status"><option value="">all</option><option>pass</option><option>differs</option><option>fail</option><option>error</option></select></label>
      <label>Search <input id="filter-text" type="search" placeholder="ID or title"></label>
      <span id="filter-count">\(evaluations.count) of \(evaluations.count) shown</span>
      </div>
      <div class="table"><table>
      <thead><tr><th>ID</th><th>Area</th><th>Status</th><th>Result</th><th>Title</th><th>Events</th><th>First difference</th></tr></thead>
      <tbody>

      """
    for evaluation in evaluations {
      let result = evaluation.result
      let category = HTMLReport.category(of: evaluation)
      var difference = ""
      if let golden = evaluation.golden, let first = TraceText.firstDifference(expected: golden, actual: evaluation.trace) {
        difference = "line \(first.line)" + (first.time.map { " (t=\($0))" } ?? "")
      }
      let id = HTMLEscaping.text(result.id)
      html += "<tr data-id=\"\(id)\" data-area=\"\(HTMLEscaping.text(evaluation.area))\" data-status=\"\(category)\">"
      html += "<td><a href=\"#\(id)\">\(id)</a></td><td>\(HTMLEscaping.text(evaluation.area))</td>"
      html += "<td><span class=\"badge c-\(category)\">\(category)</span></td><td>\(result.status.label)</td>"
      html += "<td>\(HTMLEscaping.text(result.title))</td><td class=\"num\">\(evaluation.trace.count)</td><td>\(difference)</td></tr>\n"
    }
    html += "</tbody></table></div>\n</section>\n"
    return html
  }
}
