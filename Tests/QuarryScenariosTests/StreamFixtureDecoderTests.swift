import Quarry
import Testing
@testable import QuarryScenarios

/// The decoder reads `streams` and rejects malformed ones at the right JSON path.
@Suite struct StreamFixtureDecoderTests {
  static func fixture(streams: String, queryFn: String = "s") -> String {
    """
    {"format": 1, "id": "stream-900", "title": "t", "streams": \(streams),
     "steps": [{"observe": {"observer": "o", "options": {"queryKey": ["k"], "queryFn": "\(queryFn)"}}}]}
    """
  }

  static func error(_ streams: String) -> FixtureError? {
    do {
      _ = try FixtureDecoder.decode(text: fixture(streams: streams), file: "stream-900.json")
      return nil
    } catch {
      return error
    }
  }

  @Test func decodesAStream() throws {
    let text = Self.fixture(streams: """
      {"s": {"refetchMode": "append", "reducer": {"$fn": "sum"}, "initialValue": 0,
             "outcomes": [{"chunks": [{"after": 5, "value": 1}, {"throw": "boom"}], "readSignal": true, "times": "forever"}]}}
      """)
    let scenario = try FixtureDecoder.decode(text: text, file: "stream-900.json")
    let stream = try #require(scenario.streams["s"])
    #expect(stream.refetchMode == "append")
    #expect(stream.reducer == "sum")
    #expect(stream.initialValue == .number(0))
    #expect(stream.outcomes == [
      StreamOutcome(chunks: [StreamChunk(after: 5, result: .value(.number(1))), StreamChunk(after: nil, result: .error("boom"))],
                    readSignal: true, times: nil)
    ])
  }

  @Test func rejectsMalformedStreams() {
    #expect(Self.error(#"{"s": {"outcomes": [{"chunks": [{"throw": "x"}, {"value": 1}]}]}}"#)?.path == "streams.s.outcomes[0].chunks[0]")
    #expect(Self.error(#"{"s": {"reducer": {"$fn": "sum"}, "outcomes": [{"chunks": []}]}}"#)?.path == "streams.s")
    #expect(Self.error(#"{"s": {"reducer": {"$fn": "max"}, "initialValue": 0, "outcomes": [{"chunks": []}]}}"#)?.path == "streams.s.reducer.$fn")
    #expect(Self.error(#"{"s": {"refetchMode": "merge", "outcomes": [{"chunks": []}]}}"#)?.path == "streams.s.refetchMode")
    #expect(Self.error(#"{"s": {"outcomes": []}}"#)?.path == "streams.s.outcomes")
    #expect(Self.error(#"{"s": {"outcomes": [{"chunks": [{"value": 1, "throw": "x"}]}]}}"#)?.path == "streams.s.outcomes[0].chunks[0]")
    #expect(Self.error(#"{"s": {"outcomes": [{"chunks": [], "times": "forever"}, {"chunks": []}]}}"#)?.path == "streams.s.outcomes[1]")
    #expect(Self.error(#"{"s": {"outcomes": [{"chunks": [{"after": -1, "value": 1}]}]}}"#)?.path == "streams.s.outcomes[0].chunks[0].after")
  }

  @Test func aStreamNameCannotRepeatAFunctionName() {
    let text = """
      {"format": 1, "id": "stream-900", "title": "t", "functions": {"s": [{"return": 1}]},
       "streams": {"s": {"outcomes": [{"chunks": []}]}}, "steps": [{"expect": {"calls": {"s": 0}}}]}
      """
    #expect(throws: FixtureError.self) { try FixtureDecoder.decode(text: text, file: "stream-900.json") }
  }
}
