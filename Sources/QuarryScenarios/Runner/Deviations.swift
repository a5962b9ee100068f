import Quarry
import Foundation

/// `Conformance/tanstack/deviations.json`: IDs whose trace may differ from TanStack's, and why.
public struct Deviations: Sendable, Equatable {
  /// One allowed difference.
  public struct Entry: Sendable, Equatable {
    /// The scenario ID.
    public var id: String
    /// Which part of the trace differs.
    public var part: String
    /// Why the difference is accepted.
    public var why: String

    /// Creates an entry.
    public init(id: String, part: String, why: String) {
      self.id = id
      self.part = part
      self.why = why
    }
  }

  /// The entries by ID.
  public var entries: [String: Entry]

  /// Creates a list.
  public init(entries: [String: Entry] = [:]) { self.entries = entries }

  /// Parses `{"format":1,"deviations":[{"id","part","why"}]}`.
  public static func parse(_ text: String, file: String) throws(RunnerError) -> Deviations {
    let value: JSONValue
    do { value = try JSONParser.parse(text) } catch { throw RunnerError("\(file): \(error)") }
    guard case .object(let root) = value, root["format"] == .number(1), case .array(let items)? = root["deviations"],
      root.count == 2
    else {
      throw RunnerError(#"\#(file): expected {"format":1,"deviations":[{"id":..,"part":..,"why":..}]}"#)
    }
    var entries: [String: Entry] = [:]
    for (index, item) in items.enumerated() {
      guard case .object(let members) = item, members.count == 3,
        case .string(let id)? = members["id"], case .string(let part)? = members["part"],
        case .string(let why)? = members["why"], !why.isEmpty
      else {
        throw RunnerError(#"\#(file): deviations[\#(index)]: expected {"id":..,"part":..,"why":..} with strings"#)
      }
      guard entries[id] == nil else { throw RunnerError("\(file): deviations[\(index)]: \(id) is listed twice") }
      entries[id] = Entry(id: id, part: part, why: why)
    }
    return Deviations(entries: entries)
  }

  /// Loads the file at `path`.
  public static func load(_ path: String) throws(RunnerError) -> Deviations {
    guard let data = FileManager.default.contents(atPath: path) else { throw RunnerError("cannot read \(path)") }
    return try parse(String(decoding: data, as: UTF8.self), file: path)
  }
}
