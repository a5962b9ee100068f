/// Runs mutations for a consumer and reports the latest one's state (TanStack's
/// `MutationObserver`). Each `mutate` creates a new ``Mutation``; the observer follows it.
///
/// ```swift
/// var options = MutationOptions(mutationKey: ["addTodo"])
/// options.mutationFn = .typed { (title: String, _) in try await api.addTodo(title) }
/// let observer = MutationObserver(client: client, options: options)
/// let unsubscribe = observer.subscribe { result in print(result.status) }
/// let todo = try await observer.mutate("buy milk", as: Todo.self)
/// ```
public final class MutationObserver: @unchecked Sendable {
  // Safe: every mutable member is guarded by the client's engine lock.
  let client: QueryClient
  let engine: Engine
  var optionsStorage = MutationOptions()
  var hasOptions = false
  var currentResultStorage = MutationObserverResult(state: MutationState())
  var currentMutation: Mutation?
  var mutateOptions: MutateOptions?
  var listeners = ListenerRegistry<MutationObserverResult>()

  /// Creates an observer; nothing runs until ``mutate(_:options:)``.
  public init(client: QueryClient, options: MutationOptions) {
    self.client = client
    self.engine = client.engine
    engine.lock.sync {
      setOptions(options)
      updateResult()
    }
  }

  /// The observer's (defaulted) options.
  public var options: MutationOptions { engine.lock.sync { optionsStorage } }

  /// The latest result.
  public func getCurrentResult() -> MutationObserverResult { engine.lock.sync { currentResultStorage } }

  /// Whether anyone listens.
  public var hasListeners: Bool { engine.lock.sync { !listeners.isEmpty } }

  /// Replaces the options; a different key resets the observer, otherwise a pending mutation
  /// takes the new options (TanStack's `setOptions`).
  public func setOptions(_ options: MutationOptions) {
    engine.lock.sync {
      let prevOptions = hasOptions ? optionsStorage : nil
      optionsStorage = client.defaultMutationOptions(options)
      hasOptions = true
      if prevOptions.map({ !optionsStorage.isShallowEqual(to: $0) }) ?? true {
        client.mutationCache.notify(.observerOptionsUpdated(currentMutation, self))
      }
      if let prevKey = prevOptions?.mutationKey, let key = optionsStorage.mutationKey, prevKey.queryHash != key.queryHash {
        reset()
      } else if let currentMutation, currentMutation.stateStorage.status == .pending {
        currentMutation.setOptions(optionsStorage)
      }
    }
  }

  /// Calls `listener` with every result until the returned function is called.
  public func subscribe(_ listener: @escaping @Sendable (MutationObserverResult) -> Void) -> @Sendable () -> Void {
    engine.lock.sync {
      let id = listeners.add(listener)
      if listeners.count == 1, let currentMutation {
        currentMutation.addObserver(self)
        updateResult()
      }
      return { [weak self] in
        guard let self else { return }
        // Freed after unlocking (the listener's captures may run user code in `deinit`).
        self.engine.lock.syncReleasing {
          let removed = self.listeners.take(id)
          if removed != nil, self.listeners.isEmpty { self.currentMutation?.removeObserver(self) }
          return removed
        }
      }
    }
  }

  func onMutationUpdate(_ action: MutationAction) {
    updateResult()
    notify(action)
  }

  /// Forgets the current mutation: the result returns to idle (TanStack's `reset`).
  public func reset() {
    engine.lock.sync {
      currentMutation?.removeObserver(self)
      currentMutation = nil
      updateResult()
      notify(nil)
    }
  }

  package func mutatePromise(_ variables: (any Sendable)?, _ options: MutateOptions? = nil) -> Promise<any Sendable> {
    engine.lock.sync {
      mutateOptions = options
      currentMutation?.removeObserver(self)
      let mutation = client.mutationCache.build(client, optionsStorage)
      currentMutation = mutation
      mutation.addObserver(self)
      return mutation.execute(variables)
    }
  }

  /// Runs a new mutation with `variables`; `options` adds per-call callbacks (only the latest
  /// call's run, and only while the observer has listeners).
  public func mutate(_ variables: (any Sendable)?, options: MutateOptions? = nil) async throws -> (any Sendable)? {
    let value = try await mutatePromise(variables, options).value
    return isUndefined(value) ? nil : value
  }

  /// Runs a new mutation and returns its result as `T`; another type throws
  /// ``QuarryError/typeMismatch``.
  public func mutate<T: Sendable>(_ variables: (any Sendable)?, as type: T.Type, options: MutateOptions? = nil) async throws -> T {
    try typedResult(try await mutatePromise(variables, options).value, as: T.self)
  }

  private func updateResult() {
    currentResultStorage = MutationObserverResult(state: currentMutation?.stateStorage ?? MutationState())
  }

  private func notify(_ action: MutationAction?) {
    if let mutateOptions, !listeners.isEmpty {
      let result = currentResultStorage
      let context = MutationFunctionContext(client: client, meta: optionsStorage.meta, mutationKey: optionsStorage.mutationKey)
      func input(data: (any Sendable)? = nil, error: (any Error)? = nil) -> MutationCallbackInput {
        MutationCallbackInput(data: data, error: error, variables: result.variables, context: result.context, mutation: nil, functionContext: context)
      }
      // Per-call callbacks are called, never awaited; a throw is dropped. They run after the
      // engine lock is released, in order with the listener calls.
      let scheduler = engine.scheduler
      switch action {
      case .success(let data)?:
        let (a, b) = (input(data: data), input(data: data))
        engine.lock.record(.plumbing) {
          _ = mutateOptions.onSuccess?.body(a, scheduler)
          _ = mutateOptions.onSettled?.body(b, scheduler)
        }
      case .error(let error)?:
        let (a, b) = (input(error: error), input(error: error))
        engine.lock.record(.plumbing) {
          _ = mutateOptions.onError?.body(a, scheduler)
          _ = mutateOptions.onSettled?.body(b, scheduler)
        }
      default: break
      }
    }
    listeners.notify(currentResultStorage, via: engine.lock)
  }
}

/// A mutation's result as `T`, or ``QuarryError/typeMismatch``.
func typedResult<T>(_ value: any Sendable, as type: T.Type) throws -> T {
  if let typed = conditionalCast(value, to: T.self) { return typed }
  throw QuarryError.typeMismatch(key: "mutation data", expected: String(describing: T.self), actual: String(describing: Swift.type(of: value)))
}
