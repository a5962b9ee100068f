import Quarry
/// Replays a query's `status` and `fetchStatus` from the actions its cache events name, with
/// TanStack's reducer (`query.ts` `#dispatch`). The trace writes the action type, not the state,
/// so the status an `added` or `setState` line leaves is taken from a later line that shows it
/// (`QueryStatusHints`); without one, `added` is `pending` (no `initialData`), `setState` during
/// a fetch is the revert to the state before it, and any other `setState` is `unknown`. `fetch`
/// is drawn `fetching` (never `paused` offline). The `final` line's state is exact. The report's
/// legend says so.
struct QueryStateReducer: Sendable {
  /// The state now, `nil` before `added`.
  private(set) var state: LaneState?
  /// Whether the query has data (`nil`: unknown).
  private var hasData: Bool?
  /// The state and data flag before the latest `fetch` (TanStack's `#revertState`).
  private var beforeFetch: (LaneState, Bool?)?

  /// Applies a cache event of `type` with `action` (for `updated`); `hint` is the status a later
  /// line shows an `added` or `setState` left.
  mutating func apply(type: String, action: String?, hint: String? = nil) {
    func hasData(_ status: String) -> Bool? { status == "success" ? true : status == "pending" ? false : nil }
    switch type {
    case "added":
      state = LaneState(status: hint ?? "pending", activity: "idle")
      self.hasData = hasData(hint ?? "pending")
    case "removed":
      state = nil
    case "updated":
      guard var current = state else { return }
      switch action {
      case "fetch":
        beforeFetch = (current, self.hasData)
        current.activity = "fetching"
        if self.hasData == false { current.status = "pending" }
      case "success":
        current = LaneState(status: "success", activity: "idle")
        self.hasData = true
        beforeFetch = nil
      case "error":
        current.status = "error"
        current.activity = "idle"
      case "pause": current.activity = "paused"
      case "continue": current.activity = "fetching"
      case "setState":
        if current.activity != "idle", let (previous, data) = beforeFetch {
          current = LaneState(status: hint ?? previous.status, activity: "idle")
          self.hasData = hint.map(hasData) ?? data
        } else {
          current.status = hint ?? "unknown"
          self.hasData = hint.flatMap(hasData)
        }
      default: break  // failed, invalidate: no band change
      }
      state = current
    default: break  // observer events
    }
  }

  /// Sets the exact state a `final` line writes.
  mutating func settle(_ written: JSONValue?) {
    guard let status = written?["status"]?.stringValue else { return }
    state = LaneState(status: status, activity: written?["fetchStatus"]?.stringValue ?? "idle")
  }
}

/// Replays a mutation's `status` and whether it runs or is paused from its mutation cache events
/// (`mutation.ts` `#dispatch`; `pending` is drawn `running`, as its `isPaused` is not written).
struct MutationStateReducer: Sendable {
  /// The state now, `nil` before `added`.
  private(set) var state: LaneState?

  /// Applies a mutation cache event of `type` with `action` (for `updated`).
  mutating func apply(type: String, action: String?) {
    switch type {
    case "added": state = LaneState(status: "idle", activity: "idle")
    case "removed": state = nil
    case "updated":
      guard var current = state else { return }
      switch action {
      case "pending": current = LaneState(status: "pending", activity: "running")
      case "pause": current.activity = "paused"
      case "continue": current.activity = "running"
      case "success": current = LaneState(status: "success", activity: "idle")
      case "error": current = LaneState(status: "error", activity: "idle")
      default: break
      }
      state = current
    default: break
    }
  }

  /// Sets the exact state a `mutationFinal` line writes.
  mutating func settle(_ written: JSONValue?) {
    guard let status = written?["status"]?.stringValue else { return }
    let paused = written?["isPaused"]?.boolValue == true
    state = LaneState(status: status, activity: paused ? "paused" : status == "pending" ? "running" : "idle")
  }

  /// The state an observer's `result` shows: a query result's `status` and `fetchStatus`, or a
  /// mutation result's `status` and `isPaused`; `nil` for a queries observer's array.
  static func observed(_ result: JSONValue?) -> LaneState? {
    guard let result, let status = result["status"]?.stringValue else { return nil }
    if let fetchStatus = result["fetchStatus"]?.stringValue { return LaneState(status: status, activity: fetchStatus) }
    let paused = result["isPaused"]?.boolValue == true
    return LaneState(status: status, activity: paused ? "paused" : status == "pending" ? "running" : "idle")
  }
}
