import Foundation
import Quarry
import Testing
@testable import QuarryScenarios

/// The spec replay's fast paths (Benchmarks/README.md, fifteenth pass, specs19), each against the
/// general path it stands in for.
@Suite struct SpecReplayFastPathTests {
  // MARK: Parser

  /// Integers of up to 15 digits are read from their bytes; everything else through `Double(text)`.
  @Test func wholeNumbersReadAsDoubleReadsTheirText() throws {
    var g = SplitMix64(seed: 3)
    var texts = ["0", "-0", "1", "-1", "9", "10", "999999999999999", "-999999999999999", "1000000000000000",
      "9007199254740993", "-9007199254740993", "123456789012345678901234567890", "1.5", "-0.0", "1e3", "2E-2", "0.1"]
    for _ in 0..<2_000 {
      let digits = 1 + Int(g.next() % 17)
      var text = g.next() % 2 == 0 ? "-" : ""
      text += String(1 + g.next() % 9)
      for _ in 1..<digits { text += String(g.next() % 10) }
      texts.append(text)
    }
    for text in texts {
      guard case .number(let n) = try JSONParser.parse(text) else { Issue.record("\(text) is not a number"); continue }
      #expect(n.bitPattern == Double(text)!.bitPattern, "\(text)")
    }
  }

  /// A string with escapes, put together as UTF-8 bytes, is the string the escapes stand for.
  @Test func escapedStringsAreTheirScalars() throws {
    var g = SplitMix64(seed: 5)
    let pieces = ["a", "\"", "\\", "/", "\n", "\u{08}", "\u{0C}", "\r", "\t", "\u{01}", "\u{1F}", "é", "✓", "😀", "\u{E000}", "caf\u{E9}", " "]
    for _ in 0..<2_000 {
      var string = ""
      for _ in 0..<Int(g.next() % 8) { string += pieces[Int(g.next() % UInt64(pieces.count))] }
      // canonicalJSON escapes quotes, backslashes and control characters; \u forms and \/ besides.
      let written = JSONValue.string(string).canonicalJSON
      #expect(try JSONParser.parse(written) == .string(string))
      var escapedEverywhere = "\""
      for scalar in string.unicodeScalars {
        if scalar.value < 0x10000 {
          escapedEverywhere += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
        } else {
          for unit in String(scalar).utf16 { escapedEverywhere += "\\u" + String(unit, radix: 16) }
        }
      }
      escapedEverywhere += "\""
      #expect(try JSONParser.parse(escapedEverywhere) == .string(string))
    }
    #expect(try JSONParser.parse(#""x\/y\u00e9z""#) == .string("x/yéz"))
  }

  /// An invalid run after an escape is reported where it was before.
  @Test func invalidUTF8AfterAnEscapeIsStillAnError() {
    let bytes: [UInt8] = Array(#""a\n"#.utf8) + [0xC3, 0x28] + Array(#"""#.utf8)
    #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes: bytes) }
  }

  /// Duplicate members are found among the first 16 names by comparison and past them by a set,
  /// by `String`'s equality both ways (a dictionary merges canonically equivalent names).
  @Test func duplicateMembersAreFoundAtEverySize() {
    for count in [1, 2, 15, 16, 17, 40] {
      for duplicate in ["m0", "m\(count - 1)"] {
        let members = (0..<count).map { "\"m\($0)\": \($0)" } + ["\"\(duplicate)\": true"]
        let text = "{" + members.joined(separator: ", ") + "}"
        #expect(throws: JSONParseError.self, "\(count) members, \(duplicate) again") { try JSONParser.parse(text) }
      }
      let names = (0..<count).map { "\"m\($0)\": \($0)" } + [#""caf\u00e9": 1"#, "\"cafe\u{301}\": 2"]
      #expect(throws: JSONParseError.self) { try JSONParser.parse("{" + names.joined(separator: ",") + "}") }
      let distinct = (0..<count).map { "\"m\($0)\": \($0)" }
      let parsed = try? JSONParser.parse("{" + distinct.joined(separator: ",") + "}")
      #expect(parsed?.objectValue?.count == count)
    }
    do {
      _ = try JSONParser.parse("{\n  \"a\": 1,\n  \"a\": 2\n}")
      Issue.record("a duplicate was accepted")
    } catch {
      #expect(error == JSONParseError(line: 3, column: 3, message: "expected no duplicate member \"a\""))
    }
  }

  /// White space skipped eight spaces at a time parses as the same value as compact text.
  @Test func indentationOfEveryWidthParsesAsCompactText() throws {
    let tokens = ["{", #""a""#, ":", "[", "1", ",", "{", #""b""#, ":", "[", "true", ",", "null", ",", #""x""#, "]", "}", "]", ",", #""c""#, ":", "{", "}", "}"]
    let compact = tokens.joined()
    for width in 0..<20 {
      for filler in [" ", "\t", "\r\n", " \n\t "] {
        let pad = String(repeating: filler, count: width)
        let text = pad + tokens.joined(separator: pad + String(repeating: " ", count: width)) + pad
        #expect(try JSONParser.parse(text) == JSONParser.parse(compact), "width \(width)")
      }
    }
  }

  // MARK: Validator

  /// `sortedNames` is `sorted()`: by bytes for ASCII names, `sorted()` itself otherwise.
  @Test func sortedNamesIsStringOrder() {
    var g = SplitMix64(seed: 9)
    let alphabet: [String] = ["a", "b", "A", "Z", "0", "9", "_", "$", "-", " ", "\u{0}", "\u{7F}", "é", "e\u{301}"]
    for _ in 0..<3_000 {
      var names = Set<String>()
      let asciiOnly = g.next() % 2 == 0
      for _ in 0..<Int(g.next() % 12) {
        var name = ""
        for _ in 0..<Int(g.next() % 12) { name += alphabet[Int(g.next() % UInt64(asciiOnly ? 12 : alphabet.count))] }
        names.insert(name)
      }
      #expect(FixtureValidator.sortedNames(names) == names.sorted())
    }
  }

  /// `isPlainData` answers true only where `checkData`'s walk accepts.
  @Test func plainDataIsDataTheWalkAccepts() {
    let validator = FixtureValidator(file: "x.json")
    let values: [JSONValue] = [
      1, "s", [1, [2, ["a": 3]]], ["a": ["b": ["c": nil]]], ["$undefined": true], ["a": ["$undefined": true]],
      ["a": ["$fn": "x"]], [["$fn": "x"]], ["$other": 1], ["a": ["$undefined": false]], ["a$": 1],
    ]
    for value in values {
      let accepted = (try? validator.checkData(value, "data")) != nil
      if FixtureValidator.isPlainData(value) { #expect(accepted, "\(value)") }
    }
    #expect(FixtureValidator.isPlainData(["a": [1, ["b": "c"]]]))
    #expect(!FixtureValidator.isPlainData(["a": ["$undefined": true]]))
  }

  /// `JSONPath.joined` is `path + "." + key`, at every length (small and large strings).
  @Test func joinedPathsArePathDotKey() {
    for path in ["", "a", "steps[0]", "steps[12].fetchQuery", String(repeating: "p", count: 40), "caf\u{E9}"] {
      for key in ["", "b", "queryKey", String(repeating: "k", count: 30), "\u{65E5}"] {
        #expect(JSONPath.joined(path, key) == path + "." + key)
      }
    }
  }

  /// A fixture is read as FileManager reads it; what cannot be read is `nil`.
  @Test func readFileReadsWhatFileManagerReads() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("specs19-\(UInt64.random(in: 0...UInt64.max))").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for size in [0, 1, 4_095, 4_096, 100_000] {
      let path = directory + "/f\(size).json"
      let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
      #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
      #expect(FixtureDecoder.readFile(path) == bytes)
    }
    #expect(FixtureDecoder.readFile(directory + "/missing.json") == nil)
    #expect(FixtureDecoder.readFile(directory) == FileManager.default.contents(atPath: directory).map { [UInt8]($0) })
  }

  // MARK: Trace

  /// An object template's copy is the dictionary its literal makes, and written in its sorted
  /// positions gives the same text.
  @Test func templatesMakeTheLiteralsObjects() {
    var g = SplitMix64(seed: 13)
    let templates = [TraceValues.resultTemplate, TraceValues.resultWithDataTemplate, TraceValues.infiniteResultTemplate,
      TraceValues.infiniteResultWithDataTemplate, TraceValues.stateTemplate, TraceValues.stateWithDataTemplate]
    let names = [TraceValues.resultFields, TraceValues.resultFields + ["data"], TraceValues.resultFields + TraceValues.infiniteFlagNames,
      TraceValues.resultFields + ["data"] + TraceValues.infiniteFlagNames, TraceValues.stateFields, TraceValues.stateFields + ["data"]]
    let values: [JSONValue] = [.null, .undefined, true, 0, -1.5, "idle", [1, 2], ["x": 1]]
    for (template, names) in zip(templates, names) {
      for _ in 0..<200 {
        let chosen = names.map { _ in values[Int(g.next() % UInt64(values.count))] }
        let made = template.object(chosen)
        #expect(made == Dictionary(uniqueKeysWithValues: zip(names, chosen)))
        var event: TraceEvent = ["ev": "result", "observer": "o"]
        event.set("result", .object(made), madeBy: template)
        event["t"] = 5
        let expected = JSONValue.object(["ev": "result", "observer": "o", "result": .object(made), "t": 5]).canonicalJSON
        #expect(event.canonicalJSON == expected)
      }
    }
  }

  /// A trace event's subscript keeps a dictionary's meaning: set replaces, `nil` removes.
  @Test func traceEventsBehaveAsDictionaries() {
    var event: TraceEvent = ["ev": "cache", "type": "added"]
    event["key"] = "[1]"
    event["type"] = "removed"
    event["gone"] = 1
    event["gone"] = nil
    #expect(event["type"] == "removed")
    #expect(event["gone"] == nil)
    #expect(event.canonicalJSON == #"{"ev":"cache","key":"[1]","type":"removed"}"#)
  }
}
