import Quarry
import Testing
@testable import QuarryScenarios

/// A fixture message's path: which member names are written plainly (`a.b`) and which quoted
/// (`a["b c"]`). The ASCII fast path must answer as the Unicode `Alphabetic` property does.
@Suite struct JSONPathTests {
  /// The definition before the ASCII fast path: every scalar through its Unicode properties.
  static func isPlain(_ key: String) -> Bool {
    !key.isEmpty && key.unicodeScalars.allSatisfy { scalar in
      scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "$" || scalar == "-"
    }
  }

  @Test func everyASCIIScalarIsPlainExactlyWhenItsPropertiesSaySo() {
    for value in UInt32(0)..<0x80 {
      let key = "k" + String(Unicode.Scalar(value)!)
      let expected = Self.isPlain(key) ? "steps.\(key)" : "steps[\(JSONValue.string(key).canonicalJSON)]"
      #expect(JSONPath.member("steps", key) == expected, "scalar \(value)")
    }
  }

  @Test func nonASCIIMembersKeepTheUnicodeAnswer() {
    for key in ["caf\u{E9}", "\u{65E5}\u{672C}", "\u{AA}", "\u{1F600}", "a\u{2028}b", "\u{661}", "\u{300}"] {
      let expected = Self.isPlain(key) ? "steps.\(key)" : "steps[\(JSONValue.string(key).canonicalJSON)]"
      #expect(JSONPath.member("steps", key) == expected, "\(Array(key.unicodeScalars))")
    }
    #expect(JSONPath.member("$", "a b") == "$[\"a b\"]")
    #expect(JSONPath.member("$", "queryKey") == "queryKey")
    #expect(JSONPath.member("steps[0]", "") == "steps[0][\"\"]")
  }
}
