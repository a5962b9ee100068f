import Quarry
extension HTMLReport {
  /// Trace lines shown on each side of the first difference in the trace window.
  static let windowRadius = 6

  /// The page's data: every scenario's timelines, as the script draws them.
  var data: JSONValue {
    .object(["format": 1, "compared": .bool(compareDirectory != nil), "scenarios": .array(evaluations.map(HTMLReport.scenarioData))])
  }

  /// The sides drawn for one evaluation: Swift's, and TanStack's when it was compared and differs
  /// (one timeline labelled `Swift = TanStack` when the traces are identical).
  static func timelines(of evaluation: ScenarioEvaluation) -> (axis: TimelineAxis, sides: [(name: String, timeline: Timeline)]) {
    let steps = TimelineBuilder.timedSteps(evaluation.scenario)
    let failed = TimelineBuilder.failedSteps(evaluation.failures)
    var traces: [(String, [String])] = [("Swift", evaluation.trace)]
    if let golden = evaluation.golden {
      if golden == evaluation.trace { traces = [("Swift = TanStack", golden)] } else { traces.append(("TanStack", golden)) }
    }
    let events = traces.map { Array(TimelineEvent.read(Array($0.1.prefix(TimelineBuilder.maximumEvents)))) }
    let axis = TimelineAxis(traces: events, stepTimes: steps.map(\.t))
    let sides = zip(traces, events).map { trace, events in
      var builder = TimelineBuilder(axis: axis, steps: steps, failedSteps: failed)
      return (trace.0, builder.build(events, total: trace.1.count))
    }
    return (axis, sides)
  }

  /// One scenario's entry in the page data.
  static func scenarioData(_ evaluation: ScenarioEvaluation) -> JSONValue {
    let result = evaluation.result
    var entry: [String: JSONValue] = [
      "id": .string(result.id), "area": .string(evaluation.area), "title": .string(result.title),
      "category": .string(category(of: evaluation)), "label": .string(result.status.label),
      "details": .array(result.details.map { .string($0) }),
    ]
    if let note = result.note { entry["note"] = .string(note) }
    let (axis, sides) = timelines(of: evaluation)
    var marks: [JSONValue] = []
    for t in axis.times { marks.append([.number(round(axis.slots[t]!.start)), .string(TraceValues.show(.number(t)))]) }
    entry["axis"] = .object(["w": .number(round(axis.width)), "marks": .array(marks)])
    entry["sides"] = .array(sides.map { name, timeline in
      .object(["name": .string(name), "events": .number(Double(timeline.eventCount)), "omitted": .number(Double(timeline.omitted)),
        "lanes": .array(timeline.lanes.map(laneData))])
    })
    if let golden = evaluation.golden, let difference = TraceText.firstDifference(expected: golden, actual: evaluation.trace) {
      let x = sides.lazy.compactMap { $0.timeline.tick(line: difference.line)?.x }.first ?? axis.width
      var diff: [String: JSONValue] = ["line": .number(Double(difference.line)), "x": .number(round(x))]
      if let time = difference.time { diff["t"] = .string(time) }
      if let swift = difference.actual { diff["swift"] = .string(TimelineBuilder.shorten(swift)) }
      if let tanstack = difference.expected { diff["tanstack"] = .string(TimelineBuilder.shorten(tanstack)) }
      entry["diff"] = .object(diff)
      let from = max(1, difference.line - windowRadius)
      let to = difference.line + windowRadius
      func window(_ lines: [String]) -> JSONValue {
        .array(lines.enumerated().filter { $0.offset + 1 >= from && $0.offset + 1 <= to }.map { .string(TimelineBuilder.shorten($0.element)) })
      }
      entry["window"] = .object(["from": .number(Double(from)), "swift": window(evaluation.trace), "tanstack": window(golden)])
    }
    return .object(entry)
  }

  /// `{"k": kind, "n": name, "b": [[from, to, status, activity]], "e": [[x, line, kind, label, text, failed]]}`.
  static func laneData(_ lane: TimelineLane) -> JSONValue {
    .object([
      "k": .string(lane.kind.rawValue), "n": .string(lane.name),
      "b": .array(lane.bands.map { [.number(round($0.from)), .number(round($0.to)), .string($0.status), .string($0.activity)] }),
      "e": .array(lane.ticks.map {
        [.number(round($0.x)), .number(Double($0.line)), .string($0.kind.rawValue), .string($0.label), .string($0.text), .bool($0.failed)]
      }),
    ])
  }

  /// `x` to one decimal, to keep the page small.
  static func round(_ x: Double) -> Double { (x * 10).rounded() / 10 }
}
