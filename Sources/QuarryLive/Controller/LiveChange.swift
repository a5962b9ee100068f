/// What a ``LiveQueryController`` delivers to its observers: its new state and, when the results
/// changed, how.
public struct LiveChange<Record: Identifiable & Equatable & Sendable>: Sendable where Record.ID: Sendable {
  /// The controller's state after the change.
  public var state: Loadable<[Record], any Error>
  /// The results after the change (kept through loading and failures).
  public var results: [Record]
  /// The sections of `results`, when the controller has a section key.
  public var sections: [LiveSection]
  /// How `results` changed; `nil` when only the state changed (loading, a failure).
  public var diff: LiveDiff?
}
