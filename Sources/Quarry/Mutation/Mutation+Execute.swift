extension Mutation {
  /// Continues a paused mutation, or runs a restored pending one (TanStack's `continue`).
  func continueMutation() -> Promise<any Sendable> {
    if let retryer {
      retryer.continueFetch()
      return retryer.promise
    }
    if stateStorage.status == .pending { return execute(stateStorage.variables) }
    return Promise.resolved(Optional<JSONValue>.none, scheduler: engine.scheduler)
  }

  /// Runs the mutation: the cache's and the options' callbacks around the mutation function,
  /// each awaited where TanStack's `async execute` awaits it, so jobs run in TanStack's order.
  func execute(_ variables: (any Sendable)?) -> Promise<any Sendable> {
    let functionContext = MutationFunctionContext(client: client, meta: optionsStorage.meta, mutationKey: optionsStorage.mutationKey)
    // The run is the retryer (the function and the callbacks) and the execute's result.
    let run = ExecuteRun(mutation: self, variables: variables, functionContext: functionContext, config: Retryer.Config(
      retry: optionsStorage.retry ?? .count(0),
      retryDelay: optionsStorage.retryDelay,
      networkMode: optionsStorage.networkMode
    ))
    self.retryer = run

    if stateStorage.status == .pending {
      // A restored mutation continues without calling `onMutate` again.
      dispatch(.continue)
      run.start()
      return run
    }
    let isPaused = !run.canStart()
    dispatch(.pending(variables: variables, context: nil, isPaused: isPaused))
    let afterCacheOnMutate: @Sendable () -> Void = { [self] in
      run.awaiting(optionsStorage.onMutate, run.input()) { [self] context in
        if !isUndefinedValue(context) || !isUndefinedValue(stateStorage.context) {
          dispatch(.pending(variables: variables, context: context, isPaused: isPaused))
        }
        run.start()
      }
    }
    if let onMutate = cache.config.onMutate {
      var input = run.input()
      input.mutation = self
      run.awaiting(onMutate, input) { _ in afterCacheOnMutate() }
    } else {
      afterCacheOnMutate()
    }
    return run
  }


  /// Starts the mutation function at once (`Task.immediate`, like a JavaScript call).
  fileprivate func runMutationFn(_ variables: (any Sendable)?, _ context: MutationFunctionContext) -> Promise<any Sendable> {
    let promise = Promise<any Sendable>(scheduler: engine.scheduler)
    guard let fn = optionsStorage.mutationFn else {
      promise.reject(QuarryError.missingMutationFn)
      return promise
    }
    let executor = engine.scheduler.taskExecutor
    // Started after the transaction: the function's synchronous prefix never runs under the lock.
    engine.lock.record(.plumbing) {
      Task.immediate(executorPreference: executor) {
        do {
          promise.resolve(try await fn.call(variables, context))
        } catch {
          promise.reject(error)
        }
      }
    }
    return promise
  }
}

/// Whether a value is JavaScript's `undefined` here: absent, or a nil boxed in an `Optional`.
func isUndefinedValue(_ value: (any Sendable)?) -> Bool {
  guard let value else { return true }
  return isUndefined(value)
}

/// One `execute` call's continuation chain (the body of TanStack's `async execute` after its
/// first `await`), its retryer (the mutation function and the retryer's callbacks, the
/// overridden `retryer…` members) and the promise of its result. Every step runs under the
/// engine lock.
final class ExecuteRun: Retryer, @unchecked Sendable {
  // Safe: the members added here are used only under the owning engine's lock; the retryer's
  // and the promise's own are guarded as theirs are.
  let mutation: Mutation
  @DeepReleased var variables: (any Sendable)?
  let functionContext: MutationFunctionContext

  init(mutation: Mutation, variables: (any Sendable)?, functionContext: MutationFunctionContext, config: Retryer.Config) {
    self.mutation = mutation
    self.variables = variables
    self.functionContext = functionContext
    super.init(engine: mutation.engine, config: config)
  }

  override func retryerAttempt() -> Promise<any Sendable>? {
    mutation.runMutationFn(variables, functionContext)
  }

  override func retryerFailed(_ failureCount: Int, _ error: any Error) {
    mutation.dispatch(.failed(failureCount: failureCount, error: error))
  }

  override func retryerPaused() { mutation.dispatch(.pause) }

  override func retryerContinued() { mutation.dispatch(.continue) }

  override func retryerCanRun() -> Bool { mutation.cache.canRun(mutation) }

  /// `const data = await retryer.start()`, then the success callbacks.
  override func retryerSettled() {
    engine.lock.sync {
      switch outcome {
      case .pending: preconditionFailure("an execute run settles once its retryer has")
      case .fulfilled(let data): succeed(isUndefined(data) ? nil : data)
      case .rejected(let error): failWith(error)
      }
    }
  }

  func input(data: (any Sendable)? = nil, error: (any Error)? = nil) -> MutationCallbackInput {
    MutationCallbackInput(data: data, error: error, variables: variables, context: mutation.stateStorage.context, mutation: nil, functionContext: functionContext)
  }

  /// TanStack's `await callback(input)`, a failure going to the error path (see `awaitCallback`).
  func awaiting(_ callback: MutationCallback?, _ input: MutationCallbackInput, _ next: @escaping @Sendable ((any Sendable)?) -> Void) {
    awaitCallback(callback, input) { [self] result in
      switch result {
      case .success(let value): next(value)
      case .failure(let error): failWith(error)
      }
    }
  }

  /// Calls `callback` and awaits what it returns. The callback is user code, so it runs as an
  /// effect after the engine lock is released (its own client calls deliver their listeners at
  /// once, as TanStack's do); no callback stands for `await undefined`.
  private func awaitCallback(_ callback: MutationCallback?, _ input: MutationCallbackInput, _ next: @escaping @Sendable (Result<(any Sendable)?, any Error>) -> Void) {
    guard let callback else {
      awaitOutcome(.value(nil), next)
      return
    }
    let (lock, scheduler) = (engine.lock, engine.scheduler)
    lock.record(.plumbing) { [self] in
      let outcome = callback.body(input, scheduler)
      lock.sync { awaitOutcome(outcome, next) }
    }
  }

  /// TanStack's `await`: a value continues one job later, a synchronous throw at once, a promise
  /// one job after it settles.
  private func awaitOutcome(_ outcome: MutationCallbackResult, _ next: @escaping @Sendable (Result<(any Sendable)?, any Error>) -> Void) {
    let lock = engine.lock
    switch outcome {
    case .value(let value):
      engine.scheduler.enqueue { lock.sync { next(.success(value)) } }
    case .thrown(let error):
      next(.failure(error))
    case .promise(let promise):
      promise.whenSettled { result in lock.sync { next(result) } }
    }
  }

  private func succeed(_ data: (any Sendable)?) {
    let m = mutation
    var cacheInput = input(data: data)
    cacheInput.mutation = m
    awaiting(m.cache.config.onSuccess, cacheInput) { [self] _ in
      awaiting(m.optionsStorage.onSuccess, input(data: data)) { [self] _ in
        var settledInput = input(data: data)
        settledInput.variables = m.stateStorage.variables
        settledInput.mutation = m
        awaiting(m.cache.config.onSettled, settledInput) { [self] _ in
          awaiting(m.optionsStorage.onSettled, input(data: data)) { [self] _ in
            m.dispatch(.success(data: data))
            finish()
            resolve(data ?? Optional<JSONValue>.none)
          }
        }
      }
    }
  }

  /// The catch block: each callback awaited, its own failure dropped (TanStack reports it as an
  /// unhandled rejection), then the error state.
  private func failWith(_ error: any Error) {
    let m = mutation
    var cacheInput = input(error: error)
    cacheInput.mutation = m
    awaitCallback(m.cache.config.onError, cacheInput) { [self] _ in
      awaitCallback(m.optionsStorage.onError, input(error: error)) { [self] _ in
        var settledInput = input(error: error)
        settledInput.variables = m.stateStorage.variables
        settledInput.mutation = m
        awaitCallback(m.cache.config.onSettled, settledInput) { [self] _ in
          awaitCallback(m.optionsStorage.onSettled, input(error: error)) { [self] _ in
            m.dispatch(.error(error))
            finish()
            reject(error)
          }
        }
      }
    }
  }

  /// The `finally` block.
  private func finish() {
    if mutation.retryer === self { mutation.retryer = nil }
    _ = mutation.cache.runNext(mutation)
  }
}
