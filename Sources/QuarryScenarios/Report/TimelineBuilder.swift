import Quarry
/// Builds one side's `Timeline` from its trace and the fixture's steps (`Specs/README.md`,
/// "Trace"): cache events, calls, aborts and `final` lines go on their query's lane, `result`
/// lines on their observer's, mutation cache events, mutation calls and callbacks on their
/// mutation's, `settle`/`return` lines on the steps lane beside the steps and checks.
struct TimelineBuilder {
  /// Trace lines drawn per side; the rest are counted as omitted, so a huge scenario stays usable.
  static let maximumEvents = 4000
  /// The longest hover text kept per tick.
  static let maximumText = 2000

  var axis: TimelineAxis
  /// The steps with their virtual times (the previous step's when `at` is absent).
  var steps: [(step: Step, t: Double)]
  /// Indices of the steps whose checks failed.
  var failedSteps: Set<Int>

  private var lanes: [TimelineLane] = []
  private var laneIndex: [String: Int] = [:]
  private var tracks: [String: BandTrack] = [:]

  init(axis: TimelineAxis, steps: [(step: Step, t: Double)], failedSteps: Set<Int>) {
    self.axis = axis
    self.steps = steps
    self.failedSteps = failedSteps
  }

  /// The steps of `scenario` with their virtual times.
  static func timedSteps(_ scenario: Scenario?) -> [(step: Step, t: Double)] {
    var time = 0
    return (scenario?.steps ?? []).map { step in
      if let at = step.at { time = at }
      return (step, Double(time))
    }
  }

  /// The step indices named by failure messages (`step N (t=T): ...`).
  static func failedSteps(_ failures: [String]) -> Set<Int> {
    var indices = Set<Int>()
    for failure in failures where failure.hasPrefix("step ") {
      let digits = failure.dropFirst(5).prefix { $0.isNumber }
      if let index = Int(digits) { indices.insert(index) }
    }
    return indices
  }

  /// The timeline of `events` (already cut to `maximumEvents`), for a trace of `total` lines.
  mutating func build(_ events: [TimelineEvent], total: Int) -> Timeline {
    addSteps()
    var queries: [String: QueryStateReducer] = [:]
    var mutations: [String: MutationStateReducer] = [:]
    var callLanes: [String: (TimelineLane.Kind, String)] = [:]
    var lastMutation: String?
    var ranks: [Double: Int] = [:]
    let hints = QueryStatusHints.of(events)
    for event in events {
      let rank = ranks[event.t, default: 0]
      ranks[event.t] = rank + 1
      let x = axis.x(event.t, rank: rank)
      func tick(_ kind: TimelineTick.Kind, _ label: String, failed: Bool = false) -> TimelineTick {
        TimelineTick(kind: kind, x: x, t: event.t, line: event.line, label: label, text: Self.shorten(event.text), failed: failed)
      }
      switch event.ev {
      case "cache":
        let key = event.string("key") ?? "?"
        let type = event.string("type") ?? "?"
        let action = event.string("action")
        var label = action.map { "\(type) \($0)" } ?? type
        if let observer = event.string("observer") {
          label += " \(observer)"
          add(tick(.cache, label), to: .observer, observer)
          if type == "observerRemoved" { band(.observer, observer, nil, at: x) }
        }
        add(tick(.cache, label), to: .query, key)
        var reducer = queries[key] ?? QueryStateReducer()
        reducer.apply(type: type, action: action, hint: hints[event.line])
        queries[key] = reducer
        band(.query, key, reducer.state, at: x)
      case "call":
        let fn = event.string("fn") ?? "?"
        let n = event.string("n") ?? "?"
        let lane: (TimelineLane.Kind, String)
        if event.members["variables"] != nil || (event.members["key"] == nil && lastMutation != nil) {
          lane = (.mutation, lastMutation ?? "?")
        } else {
          lane = (.query, event.string("key") ?? "?")
        }
        callLanes["\(fn)#\(n)"] = lane
        add(tick(.call, "call \(fn) #\(n)"), to: lane.0, lane.1)
      case "abort":
        let fn = event.string("fn") ?? "?"
        let n = event.string("n") ?? "?"
        let lane = callLanes["\(fn)#\(n)"] ?? (.other, "other")
        add(tick(.abort, "abort \(fn) #\(n)"), to: lane.0, lane.1)
      case "cacheCallback":
        add(tick(.callback, event.string("callback") ?? "?"), to: .query, event.string("key") ?? "?")
      case "result":
        let observer = event.string("observer") ?? "?"
        let state = MutationStateReducer.observed(event.members["result"])
        var label = "result"
        if let listener = event.string("listener") { label += " (\(listener))" }
        if let state { label += " \(state.status) \(state.activity)" }
        add(tick(.result, label), to: .observer, observer)
        if let state { band(.observer, observer, state, at: x) }
      case "settle", "return":
        let handle = event.string("handle") ?? "?"
        let failed = event.members["error"] != nil
        add(tick(.settle, "\(event.ev) \(handle)\(failed ? " (error)" : "")", failed: failed), to: .steps, "steps")
      case "final":
        let key = event.string("key") ?? "?"
        add(tick(.final, "final"), to: .query, key)
        var reducer = queries[key] ?? QueryStateReducer()
        reducer.settle(event.members["state"])
        queries[key] = reducer
        band(.query, key, reducer.state, at: x)
      case "mutationCache":
        let type = event.string("type") ?? "?"
        let action = event.string("action")
        var label = action.map { "\(type) \($0)" } ?? type
        if let observer = event.string("observer") { label += " \(observer)" }
        guard let id = event.string("mutationId") else {
          add(tick(.cache, label), to: .observer, event.string("observer") ?? "?")
          continue
        }
        lastMutation = id
        add(tick(.cache, label), to: .mutation, id)
        var reducer = mutations[id] ?? MutationStateReducer()
        reducer.apply(type: type, action: action)
        mutations[id] = reducer
        band(.mutation, id, reducer.state, at: x)
      case "mutationFinal":
        let id = event.string("mutationId") ?? "?"
        add(tick(.final, "final"), to: .mutation, id)
        var reducer = mutations[id] ?? MutationStateReducer()
        reducer.settle(event.members["state"])
        mutations[id] = reducer
        band(.mutation, id, reducer.state, at: x)
      case "callback":
        let hook = event.string("hook") ?? "?"
        let id = event.string("mutationId") ?? lastMutation ?? "?"
        add(tick(.callback, "\(hook) \(event.string("fn") ?? "?")"), to: .mutation, id)
      case "storage":
        let op = event.string("op") ?? "?"
        add(tick(.storage, "\(op) \(event.string("key") ?? "")"), to: .storage, "storage")
      default:
        add(tick(.other, event.members.isEmpty ? "unreadable line" : event.ev), to: .other, "other")
      }
    }
    for (id, track) in tracks {
      var track = track
      track.close(at: axis.width)
      lanes[laneIndex[id]!].bands = track.bands
    }
    let order: [TimelineLane.Kind] = [.steps, .query, .observer, .mutation, .storage, .other]
    let sorted = lanes.enumerated().sorted { a, b in
      let (ka, kb) = (order.firstIndex(of: a.element.kind)!, order.firstIndex(of: b.element.kind)!)
      return ka != kb ? ka < kb : a.offset < b.offset
    }.map(\.element)
    return Timeline(lanes: sorted, eventCount: total, omitted: total - events.count)
  }

  /// The steps lane: each step a tick, each `expect` a check (failed when its step failed).
  private mutating func addSteps() {
    var perTime: [Double: Int] = [:]
    for (_, t) in steps { perTime[t, default: 0] += 1 }
    var seen: [Double: Int] = [:]
    for (step, t) in steps {
      let index = seen[t, default: 0]
      seen[t] = index + 1
      let x = axis.stepX(t, index: index, count: perTime[t]!)
      let isCheck = step.operation == "expect"
      let tick = TimelineTick(
        kind: isCheck ? .check : .step, x: x, t: t, line: 0, label: Self.label(of: step),
        text: Self.shorten("steps[\(step.index)] at \(TraceValues.show(.number(t))): " + Self.json(of: step)),
        failed: isCheck && failedSteps.contains(step.index))
      add(tick, to: .steps, "steps")
    }
    if steps.isEmpty { _ = laneSlot(.steps, "steps") }
  }

  /// `fetchQuery ["todos"]`, `observe o`, `expect`, `tick: a, b`.
  static func label(of step: Step) -> String {
    if !step.substeps.isEmpty { return "tick: " + step.substeps.map(\.operation).joined(separator: ", ") }
    var label = step.operation
    if let key = step.arguments["queryKey"] { label += " " + key.canonicalJSON }
    else if let observer = step.arguments["observer"]?.stringValue { label += " " + observer }
    if let handle = step.handle { label += " as \(handle)" }
    return label
  }

  /// The step as its fixture gives it (operation and arguments).
  static func json(of step: Step) -> String {
    if !step.substeps.isEmpty { return step.substeps.map { json(of: $0) }.joined(separator: "; ") }
    return JSONValue.object([step.operation: step.arguments]).canonicalJSON
  }

  /// `text` cut to `maximumText` characters.
  static func shorten(_ text: String) -> String {
    text.count <= maximumText ? text : String(text.prefix(maximumText)) + "…"
  }

  private mutating func laneSlot(_ kind: TimelineLane.Kind, _ name: String) -> Int {
    let id = "\(kind.rawValue):\(name)"
    if let index = laneIndex[id] { return index }
    lanes.append(TimelineLane(kind: kind, name: name))
    laneIndex[id] = lanes.count - 1
    return lanes.count - 1
  }

  private mutating func add(_ tick: TimelineTick, to kind: TimelineLane.Kind, _ name: String) {
    lanes[laneSlot(kind, name)].ticks.append(tick)
  }

  private mutating func band(_ kind: TimelineLane.Kind, _ name: String, _ state: LaneState?, at x: Double) {
    let id = "\(kind.rawValue):\(name)"
    _ = laneSlot(kind, name)
    tracks[id, default: BandTrack()].set(state, at: x)
  }
}

/// The bands of one lane as they are drawn: a state holds from the tick that set it to the next change.
struct BandTrack: Sendable {
  private(set) var bands: [TimelineBand] = []
  private var open: (x: Double, state: LaneState)?

  /// From `x` on the lane shows `state` (`nil`: nothing).
  mutating func set(_ state: LaneState?, at x: Double) {
    if let open, open.state == state { return }
    close(at: x)
    if let state { open = (x, state) }
  }

  /// Ends the open band at `x`.
  mutating func close(at x: Double) {
    if let open { bands.append(TimelineBand(from: open.x, to: x, status: open.state.status, activity: open.state.activity)) }
    open = nil
  }
}
