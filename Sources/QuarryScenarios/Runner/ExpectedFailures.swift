import Quarry
import Foundation

/// `Specs/expected-failures.json`: IDs the Swift engine is known to fail, each with a reason.
public struct ExpectedFailures: Sendable, Equatable {
  /// The reason for each expected failure, by ID.
  public var reasons: [String: String]

  /// Creates a list.
  public init(reasons: [String: String] = [:]) { self.reasons = reasons }

  /// Parses `{"format":1,"swift":{"<id>":"reason"}}` (a `tanstack` member is allowed and ignored).
  public static func parse(_ text: String, file: String) throws(RunnerError) -> ExpectedFailures {
    let value: JSONValue
    do { value = try JSONParser.parse(text) } catch { throw RunnerError("\(file): \(error)") }
    guard case .object(let root) = value, root["format"] == .number(1) else {
      throw RunnerError(#"\#(file): expected {"format":1,"swift":{"<id>":"reason"}}"#)
    }
    for key in root.keys.sorted() where !["format", "swift", "tanstack"].contains(key) {
      throw RunnerError("\(file): unknown member \"\(key)\"; allowed: format, swift, tanstack")
    }
    var reasons: [String: String] = [:]
    if let swift = root["swift"] {
      guard case .object(let entries) = swift else { throw RunnerError("\(file): swift: expected an object of ID to reason") }
      for (id, reason) in entries {
        guard case .string(let text) = reason, !text.isEmpty else {
          throw RunnerError("\(file): swift.\(id): expected a non-empty reason string")
        }
        reasons[id] = text
      }
    }
    return ExpectedFailures(reasons: reasons)
  }

  /// Loads the file at `path`.
  public static func load(_ path: String) throws(RunnerError) -> ExpectedFailures {
    guard let data = FileManager.default.contents(atPath: path) else { throw RunnerError("cannot read \(path)") }
    return try parse(String(decoding: data, as: UTF8.self), file: path)
  }
}
