import Quarry
/// One trace line read for the timeline: its members and virtual time.
struct TimelineEvent: Sendable {
  /// The 1-based line number.
  var line: Int
  /// The virtual time `t` (the previous line's when it has none).
  var t: Double
  /// The line as written.
  var text: String
  /// Its members; empty when the line is not a JSON object.
  var members: [String: JSONValue]

  /// The `ev` member, `?` when missing.
  var ev: String { members["ev"]?.stringValue ?? "?" }

  /// A string member, or a number member written as JSON.
  func string(_ name: String) -> String? {
    guard let value = members[name] else { return nil }
    if let text = value.stringValue { return text }
    return value.canonicalJSON
  }

  /// Reads trace lines; an unreadable line keeps the time of the line before it.
  static func read(_ lines: [String]) -> [TimelineEvent] {
    var events: [TimelineEvent] = []
    events.reserveCapacity(lines.count)
    var time = 0.0
    for (index, text) in lines.enumerated() {
      var members: [String: JSONValue] = [:]
      if let value = try? JSONParser.parse(text), let object = value.objectValue {
        members = object
        if let t = object["t"]?.numberValue, t.isFinite { time = t }
      }
      events.append(TimelineEvent(line: index + 1, t: time, text: text, members: members))
    }
    return events
  }
}
