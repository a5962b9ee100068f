import Quarry
/// The status a query's `added` or `setState` line left, read from a later line that shows it
/// before the next `success` or `error` action decides it anew: a `result` of an observer of
/// that query (not placeholder data) or the query's `final` state. Between those lines the status
/// cannot change (a `fetch` keeps it, or makes a query without data `pending`, which is what the
/// observer then shows), so the hint holds from the `added` or `setState` line on.
enum QueryStatusHints {
  /// Hints by the 1-based line of the `added` or `setState` event they resolve.
  static func of(_ events: [TimelineEvent]) -> [Int: String] {
    var hints: [Int: String] = [:]
    var open: [String: Int] = [:]  // query hash → the line awaiting a hint
    var observed: [String: String] = [:]  // observer name → the query hash it observes
    for event in events {
      switch event.ev {
      case "cache":
        guard let key = event.string("key"), let type = event.string("type") else { continue }
        if let observer = event.string("observer") {
          if type == "observerAdded" { observed[observer] = key }
          if type == "observerRemoved", observed[observer] == key { observed[observer] = nil }
        }
        let action = event.string("action")
        if type == "added" || (type == "updated" && action == "setState") {
          open[key] = event.line
        } else if type == "removed" || (type == "updated" && (action == "success" || action == "error")) {
          open[key] = nil
        }
      case "result":
        guard let observer = event.string("observer"), let key = observed[observer], let line = open[key],
          let result = event.members["result"], result["isPlaceholderData"]?.boolValue != true,
          let status = result["status"]?.stringValue
        else { continue }
        hints[line] = status
        open[key] = nil
      case "final":
        guard let key = event.string("key"), let line = open[key], let status = event.members["state"]?["status"]?.stringValue else { continue }
        hints[line] = status
        open[key] = nil
      default: continue
      }
    }
    return hints
  }
}
