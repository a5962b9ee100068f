import Quarry
/// One side's timeline of a scenario in the HTML report: lanes across virtual time (the steps,
/// then one per query, observer, mutation, and the storage), built from the trace the runner
/// recorded and the fixture's steps. Positions are `x` units of a shared `TimelineAxis`.
struct Timeline: Sendable, Equatable {
  /// The lanes, top to bottom.
  var lanes: [TimelineLane]
  /// The trace's line count.
  var eventCount: Int
  /// Trace lines past `TimelineBuilder.maximumEvents`, not drawn.
  var omitted: Int

  /// The lane of this kind and name, if any.
  func lane(_ kind: TimelineLane.Kind, _ name: String) -> TimelineLane? {
    lanes.first { $0.kind == kind && $0.name == name }
  }

  /// The tick drawn for trace line `line` (1-based), if any.
  func tick(line: Int) -> TimelineTick? {
    for lane in lanes { if let tick = lane.ticks.first(where: { $0.line == line }) { return tick } }
    return nil
  }
}

/// One row of a timeline.
struct TimelineLane: Sendable, Equatable {
  /// What a lane follows.
  enum Kind: String, Sendable {
    /// The fixture's steps, their checks, and the `settle`/`return` events of their handles.
    case steps
    /// One query, by its hash.
    case query
    /// One observer (query, infinite, queries or mutation observer), by its name.
    case observer
    /// One mutation, by its ID.
    case mutation
    /// The scenario's storage (persistence).
    case storage
    /// Lines that name nothing above (or do not parse).
    case other
  }
  /// What it follows.
  var kind: Kind
  /// The query hash, observer name, mutation ID, or a fixed name.
  var name: String
  /// Coloured spans of state, left to right.
  var bands: [TimelineBand] = []
  /// Events, calls, steps and checks, in trace order.
  var ticks: [TimelineTick] = []
}

/// A span of one state on a lane: `status` (top stripe) and `activity` (bottom stripe:
/// `fetchStatus` for queries, `running`/`paused`/`idle` for mutations).
struct TimelineBand: Sendable, Equatable {
  /// Where it starts and ends, in axis units.
  var from: Double
  var to: Double
  /// `pending`, `success`, `error`, `idle` (a mutation), or `unknown` (a `setState` the trace does not show).
  var status: String
  /// `idle`, `fetching`, `paused`, `running`.
  var activity: String
}

/// A mark on a lane: one trace line, one step, or one check.
struct TimelineTick: Sendable, Equatable {
  /// What it marks (the CSS class of its colour).
  enum Kind: String, Sendable {
    case step, check, call, cache, result, settle, final, abort, callback, storage, other
  }
  /// What it marks.
  var kind: Kind
  /// Its position in axis units.
  var x: Double
  /// The virtual time.
  var t: Double
  /// The 1-based trace line, 0 for a step or check.
  var line: Int
  /// A short label, e.g. `call todos #1` or `updated fetch`.
  var label: String
  /// The whole line or step (shortened when very long), shown on hover.
  var text: String
  /// A failed check, or a handle that settled with an error.
  var failed: Bool = false
}

/// The state a band shows.
struct LaneState: Sendable, Equatable {
  var status: String
  var activity: String
}
