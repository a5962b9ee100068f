/// What a view shows for a mutation (SwiftQuery's `MutationState` enum, renamed because
/// `MutationState` is the engine's TanStack state struct).
///
/// ```swift
/// let state: MutationViewState<Todo> = .pending
/// if case .pending = state { print("saving") }
/// ```
public enum MutationViewState<Value> {
  /// Not run yet (or reset).
  case stale
  /// Running (or paused while offline).
  case pending
  /// The last run failed.
  case error(any Error)
  /// The last run succeeded.
  case success(Value)
}

extension MutationViewState: Sendable where Value: Sendable {}
