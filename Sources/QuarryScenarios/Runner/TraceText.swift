import Quarry
/// Trace files: lines joined with `\n` and a trailing newline, and where two traces first differ.
public enum TraceText {
  /// The file text of a trace: each line followed by `\n` (empty for an empty trace).
  public static func text(of lines: [String]) -> String {
    lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
  }

  /// The lines of a trace file (a final newline does not start another line).
  public static func lines(of text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  /// Where two traces first differ: a 1-based line and each side's line (`nil` past its end).
  public struct Difference: Sendable, Equatable {
    /// The 1-based line number.
    public var line: Int
    /// The reference trace's line there.
    public var expected: String?
    /// The compared trace's line there.
    public var actual: String?

    /// The virtual time `t` of the differing line (the reference's, else the other's), if readable.
    public var time: String? {
      for text in [expected, actual] {
        if let text, let value = try? JSONParser.parse(text), let t = value["t"] { return t.canonicalJSON }
      }
      return nil
    }

    /// Readable lines: `<what> at line N (t=T):` then both sides, labelled.
    public func describe(_ what: String, expectedLabel: String, actualLabel: String) -> [String] {
      let width = max(expectedLabel.count, actualLabel.count) + 1
      func pad(_ label: String) -> String { label + ":" + String(repeating: " ", count: max(0, width - label.count - 1)) }
      let when = time.map { " (t=\($0))" } ?? ""
      return [
        "\(what) at line \(line)\(when):",
        "  \(pad(expectedLabel)) \(expected ?? "(end of trace)")",
        "  \(pad(actualLabel)) \(actual ?? "(end of trace)")",
      ]
    }
  }

  /// The first difference between `expected` and `actual`, or `nil` when they are equal.
  public static func firstDifference(expected: [String], actual: [String]) -> Difference? {
    let count = max(expected.count, actual.count)
    for index in 0..<count {
      let left = index < expected.count ? expected[index] : nil
      let right = index < actual.count ? actual[index] : nil
      if left != right { return Difference(line: index + 1, expected: left, actual: right) }
    }
    return nil
  }
}
