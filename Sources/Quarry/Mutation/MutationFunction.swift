/// What a mutation function and the mutation callbacks receive besides the variables
/// (TanStack's `MutationFunctionContext`).
public struct MutationFunctionContext: Sendable {
  /// The client running the mutation (weak: `nil` once the client was released).
  public weak var client: QueryClient?
  /// The mutation's `meta`.
  @DeepReleased public private(set) var meta: JSONValue?
  /// The mutation's key, if it has one.
  public let mutationKey: QueryKey?
}

/// A mutation function: async, throwing, from the variables to the result
/// (TanStack's `mutationFn`). Returning `nil` in an `Optional` is a successful `undefined`.
public typealias MutationFunction = FunctionBox<@Sendable ((any Sendable)?, MutationFunctionContext) async throws -> any Sendable>

extension FunctionBox where F == @Sendable ((any Sendable)?, MutationFunctionContext) async throws -> any Sendable {
  /// A mutation function with typed variables; other variables throw ``QuarryError/typeMismatch``.
  ///
  /// ```swift
  /// var options = MutationOptions()
  /// options.mutationFn = .typed { (title: String, _) in try await api.addTodo(title) }
  /// ```
  public static func typed<Variables: Sendable, Result: Sendable>(
    _ body: @escaping @Sendable (Variables, MutationFunctionContext) async throws -> Result
  ) -> MutationFunction {
    MutationFunction { variables, context in
      guard let typed = variables as? Variables else {
        throw QuarryError.typeMismatch(
          key: "mutation variables", expected: String(describing: Variables.self),
          actual: variables.map { String(describing: type(of: $0)) } ?? "nil")
      }
      return try await body(typed, context)
    }
  }
}

/// What a mutation callback receives. TanStack passes these as positional arguments that differ
/// per callback; here every callback gets one value and reads the members its hook defines.
public struct MutationCallbackInput: Sendable {
  /// The mutation's result (`onSuccess`, `onSettled` after success).
  public var data: (any Sendable)?
  /// The error (`onError`, `onSettled` after failure).
  public var error: (any Error)?
  /// The variables.
  public var variables: (any Sendable)?
  /// What `onMutate` returned (TanStack's `onMutateResult`); not given to `onMutate`.
  public var context: (any Sendable)?
  /// The mutation, for the mutation cache's callbacks.
  public var mutation: Mutation?
  /// The function context (client, meta, key).
  public var functionContext: MutationFunctionContext
}

/// How a callback call ended, as TanStack's `await` sees it.
package enum MutationCallbackResult: Sendable {
  /// Returned a value (not a promise): awaiting it takes one job.
  case value((any Sendable)?)
  /// Threw synchronously: the `await` throws at once.
  case thrown(any Error)
  /// Returned a promise: awaiting it takes one job after it settles.
  case promise(Promise<(any Sendable)?>)
}

/// A mutation callback (`onMutate`, `onSuccess`, `onError`, `onSettled`) with an identity, so
/// options can tell "the same callback" from a new one as JavaScript does by reference.
///
/// Callbacks run on the thread that drives the mutation, after the engine lock is released (in
/// TanStack's order with the listener calls); they may call the client, whose listeners then run
/// before the callback goes on, as in TanStack. An ``async(_:)`` callback starts at once and is
/// awaited like TanStack's promise.
public final class MutationCallback: Sendable {
  let body: @Sendable (MutationCallbackInput, any QueryScheduler) -> MutationCallbackResult

  /// A synchronous callback: its return value is awaited (one job), a throw rejects at once.
  public init(_ body: @escaping @Sendable (MutationCallbackInput) throws -> (any Sendable)?) {
    self.body = { input, _ in
      do { return .value(try body(input)) } catch { return .thrown(error) }
    }
  }

  /// A callback that returns how it ended (the scenario runner's scripted callbacks).
  package init(result body: @escaping @Sendable (MutationCallbackInput) -> MutationCallbackResult) {
    self.body = { input, _ in body(input) }
  }

  /// An async callback: it starts at once, like a JavaScript call, on the scheduler's executor;
  /// the mutation waits for it as TanStack awaits a returned promise.
  public static func async(_ body: @escaping @Sendable (MutationCallbackInput) async throws -> (any Sendable)?) -> MutationCallback {
    MutationCallback(asyncBody: body)
  }

  private init(asyncBody: @escaping @Sendable (MutationCallbackInput) async throws -> (any Sendable)?) {
    self.body = { input, scheduler in
      let promise = Promise<(any Sendable)?>(scheduler: scheduler)
      Task.immediate(executorPreference: scheduler.taskExecutor) {
        do { promise.resolve(try await asyncBody(input)) } catch { promise.reject(error) }
      }
      return .promise(promise)
    }
  }
}

/// A mutation's scope: mutations with the same `id` run one at a time, in submission order.
public struct MutationScope: Sendable, Equatable {
  /// The scope's name.
  public var id: String
  /// Creates a scope.
  public init(id: String) { self.id = id }
}
