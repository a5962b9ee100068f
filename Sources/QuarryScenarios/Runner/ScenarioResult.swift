import Quarry
/// The outcome of one scenario in a run: its report line and the detail below it.
public struct ScenarioResult: Sendable, Equatable {
  /// The scenario ID.
  public var id: String
  /// The scenario title (empty when the fixture could not be read).
  public var title: String
  /// How it ended.
  public var status: ScenarioStatus
  /// A short note shown on the report line in parentheses, e.g. `deviation: why`.
  public var note: String?
  /// Detail lines shown indented below the report line.
  public var details: [String]

  /// Creates a result.
  public init(id: String, title: String, status: ScenarioStatus, note: String? = nil, details: [String] = []) {
    self.id = id
    self.title = title
    self.status = status
    self.note = note
    self.details = details
  }

  /// The report line, e.g. `PASS dedup-001 concurrent fetches of one key share a single call`.
  public var line: String {
    var text = "\(status.label) \(id)"
    if !title.isEmpty { text += " \(title)" }
    if let note { text += " (\(note))" }
    return text
  }

  /// The report line followed by the details, each indented by two spaces.
  public var lines: [String] { [line] + details.map { "  " + $0 } }

  /// The `message` of the JSON report: the note and details, or `nil` for a plain pass.
  public var message: String? {
    let parts = (note.map { [$0] } ?? []) + details
    return parts.isEmpty ? nil : parts.joined(separator: "\n")
  }
}
