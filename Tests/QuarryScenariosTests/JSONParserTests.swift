import Quarry
import Testing
@testable import QuarryScenarios

@Suite struct JSONParserTests {
  @Test func parsesEveryKindOfValue() throws {
    let value = try JSONParser.parse(#" {"a": [1, -2.5e2, true, false, null, "x"], "b": {}, "c": []} "#)
    #expect(value == ["a": [1, -250, true, false, nil, "x"], "b": [:], "c": []])
  }

  @Test func keepsBooleansAndNumbersApart() throws {
    #expect(try JSONParser.parse("1") == .number(1))
    #expect(try JSONParser.parse("true") == .bool(true))
    #expect(try JSONParser.parse("0") != .bool(false))
  }

  @Test func decodesEscapesAndSurrogatePairs() throws {
    let value = try JSONParser.parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00""#)
    #expect(value == .string("a\"b\\c/d\u{08}\u{0C}\n\r\té😀"))
  }

  @Test func keepsRawUnicode() throws {
    #expect(try JSONParser.parse("\"héllo ✓\"") == .string("héllo ✓"))
  }

  @Test func roundTripsThroughCanonicalEncoding() throws {
    let text = #"{"a":[1,1.5,-0.25,1e+21,"x\n"],"b":null,"c":{"d":false}}"#
    #expect(try JSONParser.parse(text).canonicalJSON == text)
  }

  @Test(arguments: [
    ("", 1, 1, "a JSON value"),
    ("[1,]", 1, 4, "a JSON value"),
    ("{\"a\":1,\"a\":2}", 1, 8, "no duplicate member \"a\""),
    ("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3, "',' or '}'"),
    ("[01]", 1, 3, "no leading zeros"),
    ("[1.]", 1, 4, "a digit after '.'"),
    ("[-]", 1, 3, "a digit"),
    ("1e999", 1, 1, "a number a double can hold"),
    ("\"abc", 1, 5, "'\"' to close the string"),
    ("\"a\nb\"", 1, 3, "no control characters"),
    ("\"\\x\"", 1, 3, "an escape"),
    ("\"\\ud800\"", 1, 2, "a low surrogate"),
    ("\"\\udc00\"", 1, 2, "no lone low surrogate"),
    ("\"\\u12g4\"", 1, 6, "four hex digits"),
    ("tru", 1, 1, "(true?)"),
    ("{} x", 1, 4, "end of text"),
    ("{1:2}", 1, 2, "a member name in double quotes"),
    ("{\"a\" 1}", 1, 6, "':'"),
    ("[\"é\", x]", 1, 7, "a JSON value"),
    ("NaN", 1, 1, "a JSON value"),
  ])
  func reportsErrorsWithPositions(text: String, line: Int, column: Int, message: String) {
    do {
      _ = try JSONParser.parse(text)
      Issue.record("expected a parse error for \(text)")
    } catch {
      #expect(error.line == line, "\(text): \(error)")
      #expect(error.column == column, "\(text): \(error)")
      #expect(error.message.contains(message), "\(text): \(error)")
    }
  }

  @Test func rejectsInvalidUTF8() throws {
    #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes: [0x22, 0xFF, 0x22]) }
    // In a run after an escape, and in a run before one (ASCII runs skip validation).
    #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes: Array(#""a\n"#.utf8) + [0xC3, 0x28, 0x22]) }
    #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes: [0x22, 0x61, 0xE2, 0x82] + Array(#"\n""#.utf8)) }
    #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22]) }
    #expect(try JSONParser.parse(bytes: Array(#""ab\n"#.utf8) + [0xC3, 0xA9, 0x22]) == .string("ab\n\u{E9}"))
    #expect(try JSONParser.parse(bytes: [0x22, 0xE2, 0x82, 0xAC] + Array(#"\t x""#.utf8)) == .string("\u{20AC}\t x"))
  }

  @Test func limitsNesting() {
    let deep = String(repeating: "[", count: 100_000)
    #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
    let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
    #expect((try? JSONParser.parse(fine)) != nil)
    // Fixtures that cross structural sharing's 500-level limit parse.
    let sharingDepth = String(repeating: "[", count: 1_000) + "1" + String(repeating: "]", count: 1_000)
    #expect((try? JSONParser.parse(sharingDepth)) != nil)
    let tooDeep = String(repeating: "[", count: JSONParser.maximumDepth + 1) + String(repeating: "]", count: JSONParser.maximumDepth + 1)
    #expect(throws: JSONParseError.self) { try JSONParser.parse(tooDeep) }
  }

  @Test func keepsExactCodeUnits() throws {
    let precomposed = try JSONParser.parse(#"["caf\u00e9", "\u00c5"]"#)
    let decomposed = try JSONParser.parse(#"["cafe\u0301", "\u212b"]"#)
    #expect(precomposed != decomposed)
    #expect(precomposed == .array([.string("caf\u{E9}"), .string("\u{C5}")]))
    #expect(decomposed == .array([.string("cafe\u{301}"), .string("\u{212B}")]))
    // Raw UTF-8 keeps its code units too.
    #expect(try JSONParser.parse("\"cafe\u{301}\"") == .string("cafe\u{301}"))
  }

  @Test func skipsByteOrderMark() throws {
    #expect(try JSONParser.parse(bytes: [0xEF, 0xBB, 0xBF] + Array("[]".utf8)) == [])
  }
}
