/// What a view shows for a mutation (SwiftQuery's `MutationState`).
///
/// ```swift
/// let state: MutationState<Todo> = .pending
/// if case .pending = state { print("saving") }
/// ```
public enum MutationState<Value> {
  /// Not run yet (or reset).
  case stale
  /// Running (or paused while offline).
  case pending
  /// The last run failed.
  case error(any Error)
  /// The last run succeeded.
  case success(Value)
}

extension MutationState: Sendable where Value: Sendable {}
