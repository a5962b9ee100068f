import Quarry
import Foundation
import Testing
@testable import QuarryScenarios

/// The `--html` report: timelines built from real fixtures and their TanStack traces, the first
/// difference of a tampered trace, escaping, and a page that loads nothing from elsewhere.
@Suite struct HTMLReportTests {
  static let specs = SpecificationTests.specsDirectory
  static let traces = SpecificationTests.tracesDirectory
  static let generated: String = {
    var url = URL(fileURLWithPath: specs)
    url.deleteLastPathComponent()
    return url.appendingPathComponent("Conformance/generated").path
  }()

  /// Replays one fixture of `specs` and compares it with `traces`, keeping what the report needs.
  static func evaluate(_ id: String, specs: String = specs, traces: String = traces) throws -> ScenarioEvaluation {
    let runner = Runner(options: RunnerOptions(directory: specs, compareDirectory: traces, filters: [id]))
    let fixture = try #require(try FixtureFile.discover(in: specs).first { $0.id == id })
    return try runner.evaluateWithTraces(fixture, context: runner.loadContext())
  }

  static func states(_ lane: TimelineLane?) -> [String] {
    (lane?.bands ?? []).map { "\($0.status)/\($0.activity)" }
  }

  @Test func aFetchQueryHasAQueryLaneWithItsBandsCallAndEvents() throws {
    let evaluation = try Self.evaluate("dedup-001")
    #expect(HTMLReport.category(of: evaluation) == "pass")
    let (axis, sides) = HTMLReport.timelines(of: evaluation)
    #expect(sides.map(\.name) == ["Swift = TanStack"])
    let timeline = try #require(sides.first?.timeline)
    #expect(timeline.lanes.map { "\($0.kind.rawValue) \($0.name)" } == ["steps steps", #"query ["todos"]"#])
    let query = try #require(timeline.lane(.query, #"["todos"]"#))
    #expect(Self.states(query) == ["pending/idle", "pending/fetching", "success/idle"])
    #expect(query.ticks.map(\.label) == ["added", "updated fetch", "call todos #1", "updated success", "final"])
    #expect(query.ticks.map(\.line) == [1, 2, 3, 4, 7])
    // The fetching band runs from the fetch event to the success event, and the last band to the end.
    #expect(query.bands[1].from == query.ticks[1].x && query.bands[1].to == query.ticks[3].x)
    #expect(query.bands[2].to == axis.width)
    #expect(query.ticks[3].t == 100 && query.ticks[2].t == 0 && query.ticks[2].x < query.ticks[3].x)
    let steps = try #require(timeline.lane(.steps, "steps"))
    #expect(steps.ticks.map(\.kind) == [.step, .step, .check, .settle, .settle])
    #expect(steps.ticks.map(\.label) == [#"fetchQuery ["todos"] as a"#, #"fetchQuery ["todos"] as b"#, "expect", "settle a", "settle b"])
    #expect(steps.ticks[2].t == 100 && !steps.ticks[2].failed)
  }

  @Test func anObserverHasALaneOfTheResultsItsListenerReceived() throws {
    let evaluation = try Self.evaluate("observer-001")
    let timeline = try #require(HTMLReport.timelines(of: evaluation).sides.first?.timeline)
    #expect(timeline.lanes.map(\.kind) == [.steps, .query, .observer])
    let observer = try #require(timeline.lane(.observer, "o"))
    #expect(Self.states(observer) == ["pending/fetching", "success/idle"])
    #expect(observer.ticks.map(\.label) == ["observerAdded o", "result pending fetching", "result success idle"])
    let checks = try #require(timeline.lane(.steps, "steps")).ticks.filter { $0.kind == .check }
    #expect(checks.map(\.t) == [0, 9, 10])
    #expect(checks.allSatisfy { !$0.failed })
  }

  @Test func aMutationHasALaneWithItsCall() throws {
    let evaluation = try Self.evaluate("mutation-001")
    let timeline = try #require(HTMLReport.timelines(of: evaluation).sides.first?.timeline)
    let mutation = try #require(timeline.lane(.mutation, "1"))
    #expect(Self.states(mutation) == ["idle/idle", "pending/running", "success/idle"])
    #expect(mutation.ticks.map(\.label) == ["added", "updated pending", "call add #1", "updated success", "final"])
  }

  @Test func aFailedCheckIsAFailedMarker() throws {
    var evaluation = try Self.evaluate("dedup-001")
    evaluation.failures = ["step 2 (t=100): calls.todos: expected 2, got 1"]
    let timeline = try #require(HTMLReport.timelines(of: evaluation).sides.first?.timeline)
    let checks = try #require(timeline.lane(.steps, "steps")).ticks.filter { $0.kind == .check }
    #expect(checks.map(\.failed) == [true])
  }

  @Test func generatedFixturesHaveTimelines() throws {
    let evaluation = try Self.evaluate("gen-001", specs: Self.generated + "/specs", traces: Self.generated + "/traces")
    #expect(HTMLReport.category(of: evaluation) == "pass")
    let timeline = try #require(HTMLReport.timelines(of: evaluation).sides.first?.timeline)
    #expect(timeline.lanes.contains { $0.kind == .query && !$0.bands.isEmpty })
    #expect(timeline.eventCount == evaluation.trace.count && timeline.omitted == 0)
  }

  /// Copies TanStack's trace of `id` into a temporary directory with `edit` applied to its lines.
  static func tampered(_ id: String, _ edit: (inout [String]) -> Void) throws -> TemporaryDirectory {
    let text = try String(contentsOfFile: traces + "/\(id).jsonl", encoding: .utf8)
    var lines = TraceText.lines(of: text)
    edit(&lines)
    let directory = TemporaryDirectory()
    directory.write("\(id).jsonl", TraceText.text(of: lines))
    return directory
  }

  @Test func aTamperedTraceHighlightsItsFirstDifference() throws {
    let directory = try Self.tampered("observer-001") { lines in
      lines[7] = lines[7].replacingOccurrences(of: #""dataUpdatedAt":10"#, with: #""dataUpdatedAt":11"#)
    }
    defer { directory.cleanup() }
    let evaluation = try Self.evaluate("observer-001", traces: directory.path)
    #expect(HTMLReport.category(of: evaluation) == "differs")
    let (_, sides) = HTMLReport.timelines(of: evaluation)
    #expect(sides.map(\.name) == ["Swift", "TanStack"])
    let data = HTMLReport.scenarioData(evaluation)
    let diff = try #require(data["diff"])
    #expect(diff["line"] == 8)
    #expect(diff["t"] == "10")
    #expect(diff["tanstack"]?.stringValue?.contains(#""dataUpdatedAt":11"#) == true)
    #expect(diff["swift"]?.stringValue?.contains(#""dataUpdatedAt":10"#) == true)
    // The differing line is the observer's second result on both sides, where the marker is drawn.
    for side in sides {
      let tick = try #require(side.timeline.lane(.observer, "o")?.ticks.first { $0.line == 8 })
      #expect(tick.label == "result success idle")
      #expect(diff["x"]?.numberValue == HTMLReport.round(tick.x))
    }
    #expect(data["window"]?["from"] == 2)
    let html = HTMLReport(evaluations: [evaluation], specification: "Specs", compareDirectory: directory.path).html
    #expect(html.contains(#"<tr data-id="observer-001" data-area="observer" data-status="differs">"#))
    #expect(html.contains("<td>line 8 (t=10)</td>"))
  }

  @Test func aMissingLineIsTheFirstDifference() throws {
    let directory = try Self.tampered("dedup-001") { lines in lines.remove(at: 2) }
    defer { directory.cleanup() }
    let evaluation = try Self.evaluate("dedup-001", traces: directory.path)
    let data = HTMLReport.scenarioData(evaluation)
    #expect(data["diff"]?["line"] == 3)
    #expect(data["diff"]?["swift"]?.stringValue?.hasPrefix(#"{"ev":"call","fn":"todos""#) == true)
    #expect(data["sides"]?.arrayValue?.count == 2)
  }

  @Test func textIsEscaped() throws {
    let title = #"</script><script>alert("x")</script> it's <b>"#
    let trace = [#"{"ev":"call","fn":"</script><!--","key":"[\"<img src=x>\"]","n":1,"t":0}"#]
    let result = ScenarioResult(id: "xss-001", title: title, status: .fail, details: [#"expected "<i>" & got '<u>'"#])
    let evaluation = ScenarioEvaluation(result: result, area: "a<b", trace: trace)
    let html = HTMLReport(evaluations: [evaluation], specification: "Specs/<i>", compareDirectory: nil).html
    #expect(html.contains("&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; it&#39;s &lt;b&gt;"))
    #expect(html.contains(#"data-area="a&lt;b""#))
    for raw in ["<script>alert", "<b>", "<i>", "<u>", "<img", "<!--", "alert(\"x\")"] { #expect(!html.contains(raw), "\(raw)") }
    #expect(html.components(separatedBy: "<script").count == 3)  // the data and the script
    #expect(html.components(separatedBy: "</script>").count == 3)
    // The embedded data still reads back as the same text.
    let start = try #require(html.range(of: #"<script type="application/json" id="quarry-data">"#)).upperBound
    let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
    let data = try JSONParser.parse(String(html[start..<end]))
    let scenario = try #require(data["scenarios"]?.arrayValue?.first)
    #expect(scenario["title"]?.stringValue == title)
    #expect(scenario["details"] == [#"expected "<i>" & got '<u>'"#])
    let ticks = scenario["sides"]?.arrayValue?.first?["lanes"]?.arrayValue?.flatMap { $0["e"]?.arrayValue ?? [] }
    #expect(ticks?.contains { $0.arrayValue?[4].stringValue == trace[0] } == true)
  }

  @Test func escapingHelpers() {
    #expect(HTMLEscaping.text(#"<a href="x">&'"#) == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;")
    #expect(HTMLEscaping.scriptJSON(#"{"a":"</script>&\#u{2028}"}"#) == #"{"a":"\u003c/script\u003e\u0026\u2028"}"#)
  }

  @Test func thePageLoadsNothingFromElsewhere() throws {
    let output = TemporaryDirectory()
    defer { output.cleanup() }
    let options = RunnerOptions(
      directory: Self.specs, compareDirectory: Self.traces, filters: ["dedup-001", "observer-001", "mutation-001"],
      htmlReportFile: output.path + "/report.html")
    let report = try Runner(options: options).run()
    #expect(report.failed == 0)
    let html = try #require(output.read("report.html"))
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(html.contains(#"<body data-scenarios="3" data-rendered="0">"#))
    for external in ["://", " src=", "url(", "@import", "<link", "<iframe", "<img"] { #expect(!html.contains(external), "\(external)") }
    let hrefs = html.components(separatedBy: #"href=""#).dropFirst()
    #expect(hrefs.count == 3)
    #expect(hrefs.allSatisfy { $0.hasPrefix("#") })
  }
}

extension HTMLReportTests {
  @Test func aHugeTraceIsCutWhereItIsDrawn() throws {
    let count = TimelineBuilder.maximumEvents + 2500
    let trace = (0..<count).map { #"{"ev":"call","fn":"f","key":"[\"k\"]","n":\#($0 + 1),"t":\#($0)}"# }
    let evaluation = ScenarioEvaluation(result: ScenarioResult(id: "huge-001", title: "huge", status: .pass), area: "huge", trace: trace)
    let (axis, sides) = HTMLReport.timelines(of: evaluation)
    let timeline = try #require(sides.first?.timeline)
    #expect(timeline.eventCount == count && timeline.omitted == 2500)
    #expect(timeline.lane(.query, #"["k"]"#)?.ticks.count == TimelineBuilder.maximumEvents)
    #expect(axis.times.count == TimelineBuilder.maximumEvents)
    let data = HTMLReport.scenarioData(evaluation)
    #expect(data["sides"]?.arrayValue?.first?["omitted"] == 2500)
  }
}

extension HTMLReportTests {
  @Test func anAddedQueryShowsTheStatusALaterResultShows() throws {
    // initialData: the query is added with data, which the observer's first result shows.
    let evaluation = try Self.evaluate("initialdata-001")
    let timeline = try #require(HTMLReport.timelines(of: evaluation).sides.first?.timeline)
    let states = Self.states(timeline.lane(.query, #"["todos"]"#))
    #expect(states.first == "success/idle")
    #expect(!states.contains { $0.hasPrefix("pending") })
  }

  @Test func aRevertingSetStateShowsTheStateBeforeTheFetch() throws {
    let evaluation = try Self.evaluate("cancellation-001")
    let timeline = try #require(HTMLReport.timelines(of: evaluation).sides.first?.timeline)
    #expect(Self.states(timeline.lane(.query, #"["todos"]"#)) == ["pending/idle", "pending/fetching", "pending/idle"])
  }

  @Test func aResetShowsTheStatusTheFinalLineShows() throws {
    let evaluation = try Self.evaluate("client-013")
    let timeline = try #require(HTMLReport.timelines(of: evaluation).sides.first?.timeline)
    let idle = Self.states(timeline.lane(.query, #"["list","idle"]"#))
    #expect(!idle.contains { $0.hasPrefix("unknown") })
    #expect(idle.last == "pending/idle")
    #expect(QueryStatusHints.of(TimelineEvent.read(evaluation.trace))[18] == "pending")
  }
}
