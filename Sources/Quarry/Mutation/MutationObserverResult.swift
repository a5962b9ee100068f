/// What a ``MutationObserver`` reports: its current mutation's state plus status flags
/// (TanStack's `MutationObserverResult`).
public struct MutationObserverResult: Sendable {
  /// The state of the observer's current mutation (idle when it has none).
  public var state: MutationState
  /// The status.
  public var status: MutationStatus { state.status }
  /// The result data, once successful.
  public var data: (any Sendable)? { state.data }
  /// The error, once failed.
  public var error: (any Error)? { state.error }
  /// The variables of the current mutation.
  public var variables: (any Sendable)? { state.variables }
  /// What `onMutate` returned.
  public var context: (any Sendable)? { state.context }
  /// Failed attempts.
  public var failureCount: Int { state.failureCount }
  /// The last failed attempt's error.
  public var failureReason: (any Error)? { state.failureReason }
  /// When it was submitted, in ms.
  public var submittedAt: Double { state.submittedAt }
  /// Whether it waits for connectivity or its scope.
  public var isPaused: Bool { state.isPaused }
  /// `status == .idle`.
  public var isIdle: Bool { state.status == .idle }
  /// `status == .pending`.
  public var isPending: Bool { state.status == .pending }
  /// `status == .success`.
  public var isSuccess: Bool { state.status == .success }
  /// `status == .error`.
  public var isError: Bool { state.status == .error }

  /// Reads the data as `T`; throws ``QuarryError/typeMismatch`` for another type.
  public func data<T>(as type: T.Type) throws -> T? { try state.data(as: T.self) }
}
