/// A mutation's status (TanStack's `MutationStatus`).
public enum MutationStatus: String, Sendable, Equatable {
  /// Not run yet (or reset).
  case idle
  /// Running, or paused waiting to run.
  case pending
  /// The mutation function and every callback succeeded.
  case success
  /// The mutation function or a success callback failed.
  case error
}

/// A snapshot of a mutation's state (TanStack's `MutationState`).
public struct MutationState: Sendable {
  /// What `onMutate` returned (TanStack's `context`, the `onMutateResult`).
  @DeepReleased public var context: (any Sendable)? = nil
  /// What the mutation function returned, once successful.
  @DeepReleased public var data: (any Sendable)? = nil
  /// The error, once failed.
  public var error: (any Error)?
  /// Failed attempts (the final failure included once in `error` state).
  public var failureCount: Int = 0
  /// The last failed attempt's error.
  public var failureReason: (any Error)?
  /// Whether the mutation waits for connectivity or its scope.
  public var isPaused: Bool = false
  /// The status.
  public var status: MutationStatus = .idle
  /// The variables it was run with.
  @DeepReleased public var variables: (any Sendable)? = nil
  /// When it was submitted, in ms (0 when never).
  public var submittedAt: Double = 0

  /// The idle state (TanStack's `getDefaultState`).
  public init() {}

  /// Reads the data as `T`; `nil` when there is none; throws ``QuarryError/typeMismatch`` when
  /// the data has another type.
  public func data<T>(as type: T.Type) throws -> T? {
    guard let value = data else { return nil }
    guard let typed = conditionalCast(value, to: T.self) else {
      throw QuarryError.typeMismatch(key: "mutation data", expected: String(describing: T.self), actual: String(describing: Swift.type(of: value)))
    }
    return typed
  }
}

/// A change to a mutation's state (TanStack's mutation `Action`).
public enum MutationAction: Sendable {
  /// An attempt failed and will be retried.
  case failed(failureCount: Int, error: any Error)
  /// The mutation paused.
  case pause
  /// The mutation continued.
  case `continue`
  /// The mutation started (or `onMutate` returned a new context).
  case pending(variables: (any Sendable)?, context: (any Sendable)?, isPaused: Bool)
  /// The mutation and its callbacks succeeded.
  case success(data: (any Sendable)?)
  /// The mutation failed.
  case error(any Error)

  /// TanStack's action `type` string.
  public var type: String {
    switch self {
    case .failed: return "failed"
    case .pause: return "pause"
    case .continue: return "continue"
    case .pending: return "pending"
    case .success: return "success"
    case .error: return "error"
    }
  }

  /// TanStack's reducer.
  func reduce(_ state: MutationState, now: Double) -> MutationState {
    var s = state
    switch self {
    case .failed(let count, let error):
      s.failureCount = count
      s.failureReason = error
    case .pause:
      s.isPaused = true
    case .continue:
      s.isPaused = false
    case .pending(let variables, let context, let isPaused):
      s.context = context
      s.data = nil
      s.failureCount = 0
      s.failureReason = nil
      s.error = nil
      s.isPaused = isPaused
      s.status = .pending
      s.variables = variables
      s.submittedAt = now
    case .success(let data):
      s.data = data
      s.failureCount = 0
      s.failureReason = nil
      s.error = nil
      s.status = .success
      s.isPaused = false
    case .error(let error):
      s.data = nil
      s.error = error
      s.failureCount = state.failureCount + 1
      s.failureReason = error
      s.isPaused = false
      s.status = .error
    }
    return s
  }
}
