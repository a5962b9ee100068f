import Observation

/// An observable mutation for a view or a view model: the app-level face of a
/// ``MutationObserver`` (SwiftQuery's `@Mutation`).
///
/// `mutate(with:optimistic:invalidating:)` runs the ``MutationFunc``. The `optimistic` closure
/// runs first (TanStack's `onMutate`): it writes to the cache and returns a rollback, which runs
/// if the mutation fails (`onError`). The `invalidating` keys are invalidated when it settles
/// (`onSettled`), and the mutation waits for their refetch, as TanStack's docs recommend.
///
/// ```swift
/// struct AddTodo: MutationFunc {
///   func run(variables: String) async throws -> Todo { try await api.addTodo(variables) }
/// }
/// let add = MutationModel(AddTodo(), client: client)
/// let list = QueryCacheKey<FetchTodoList>(variables: .value)
/// await add.mutate(with: "buy milk", optimistic: { client in
///   let previous = try client.getQueryData(list)
///   try client.setQueryData(list) { old in (old ?? []) + [Todo(id: -1, title: "buy milk")] }
///   return { _ = try? client.setQueryData(list) { _ in previous } }
/// }, invalidating: [list])
/// if case .error(let error) = add.state { print(error) }
/// ```
@MainActor @Observable
public final class MutationModel<F: MutationFunc> {
  /// What to show.
  public private(set) var state: MutationViewState<F.Value> = .stale
  /// Whether the mutation waits for connectivity.
  public private(set) var isPaused = false
  /// The variables of the latest call.
  public private(set) var variables: F.Variables?
  /// The engine's full result.
  public private(set) var result: MutationObserverResult?

  @ObservationIgnored private let mutationFunc: F
  @ObservationIgnored private let client: QueryClient
  @ObservationIgnored private let observer: MutationObserver
  @ObservationIgnored private let subscription = Subscription()

  /// A model for `mutationFunc` on `client`. Its mutation key is the function type's name, so
  /// `client.isMutating(MutationFilters(mutationKey: ...))` can count them.
  public init(_ mutationFunc: F, client: QueryClient) {
    self.mutationFunc = mutationFunc
    self.client = client
    var options = MutationOptions(mutationKey: QueryKey([.string(typeIdentifier(F.self))]))
    options.mutationFn = .typed { (variables: F.Variables, _) in try await mutationFunc.run(variables: variables) }
    observer = MutationObserver(client: client, options: options)
    let delivery = MainActorDelivery<MutationObserverResult> { [weak self] result in self?.apply(result) }
    subscription.replace(with: observer.subscribe { delivery.deliver($0) })
  }

  /// Runs the mutation and waits for it to settle; the outcome is in ``state`` (and returned).
  ///
  /// - Parameters:
  ///   - optimistic: writes the expected outcome to the cache before the mutation runs and
  ///     returns how to undo it; the undo runs if the mutation fails. A throw fails the mutation.
  ///   - invalidating: keys invalidated (and refetched, awaited) once the mutation settles.
  @discardableResult
  public func mutate(
    with variables: F.Variables,
    optimistic: (@Sendable (QueryClient) throws -> @Sendable () -> Void)? = nil,
    invalidating: [any CacheKeyRepresentable] = []
  ) async -> F.Value? {
    self.variables = variables
    let client = self.client
    var options = observer.options
    options.onMutate = optimistic.map { optimistic in
      MutationCallback { _ in Rollback(try optimistic(client)) }
    }
    options.onError = MutationCallback { input in
      (input.context as? Rollback)?.undo()
      return nil
    }
    options.onSettled = invalidating.isEmpty
      ? nil
      : MutationCallback(result: { _ in
        // `return queryClient.invalidateQueries(...)`: the mutation settles after the refetch.
        .promise(client.invalidatePromise(invalidating).then { _ in Optional<any Sendable>.none })
      })
    observer.setOptions(options)
    // The engine starts the mutation synchronously (as TanStack's `mutate` does); only the wait
    // suspends.
    let promise = observer.mutatePromise(variables)
    guard let value = try? await promise.value else { return nil }
    return value as? F.Value
  }

  /// Back to `.stale` (TanStack's `reset`).
  public func reset() { observer.reset() }

  private func apply(_ result: MutationObserverResult) {
    self.result = result
    isPaused = result.isPaused
    switch result.status {
    case .idle: state = .stale
    case .pending: state = .pending
    case .error: state = .error(result.error ?? QueryFailure())
    case .success:
      if let value = result.data as? F.Value {
        state = .success(value)
      } else if F.Value.self == Void.self, let void = () as? F.Value {
        state = .success(void)
      } else {
        state = .error(QuarryError.typeMismatch(
          key: "mutation data", expected: String(describing: F.Value.self),
          actual: result.data.map { String(describing: type(of: $0)) } ?? "nil"))
      }
    }
  }
}

extension MutationModel where F.Variables == QueryVoid {
  /// Runs a mutation that takes no variables (SwiftQuery's `mutate()`).
  @discardableResult
  public func mutate(invalidating: [any CacheKeyRepresentable] = []) async -> F.Value? {
    await mutate(with: .value, invalidating: invalidating)
  }
}

/// The undo an optimistic update returned, carried as the mutation's context.
struct Rollback: Sendable {
  let undo: @Sendable () -> Void
  init(_ undo: @escaping @Sendable () -> Void) { self.undo = undo }
}
