extension Mutation {
  /// Continues a paused mutation, or runs a restored pending one (TanStack's `continue`).
  func continueMutation() -> Promise<any Sendable> {
    if let retryer { return retryer.continueFetch() }
    if stateStorage.status == .pending { return execute(stateStorage.variables) }
    return Promise.resolved(Optional<JSONValue>.none, scheduler: engine.scheduler)
  }

  /// Runs the mutation: the cache's and the options' callbacks around the mutation function,
  /// each awaited where TanStack's `async execute` awaits it, so jobs run in TanStack's order.
  func execute(_ variables: (any Sendable)?) -> Promise<any Sendable> {
    let result = Promise<any Sendable>(scheduler: engine.scheduler)
    let functionContext = MutationFunctionContext(client: client, meta: optionsStorage.meta, mutationKey: optionsStorage.mutationKey)
    let run = ExecuteRun(mutation: self, variables: variables, functionContext: functionContext, result: result)
    // The run answers for the function and the callbacks (`RetryerHost`).
    let retryer = Retryer(engine: engine, config: Retryer.Config(
      retry: optionsStorage.retry ?? .count(0),
      retryDelay: optionsStorage.retryDelay,
      networkMode: optionsStorage.networkMode
    ), host: run)
    self.retryer = retryer
    run.retryer = retryer

    if stateStorage.status == .pending {
      // A restored mutation continues without calling `onMutate` again.
      dispatch(.continue)
      run.start()
      return result
    }
    let isPaused = !retryer.canStart()
    dispatch(.pending(variables: variables, context: nil, isPaused: isPaused))
    let afterCacheOnMutate: @Sendable () -> Void = { [self] in
      run.then(optionsStorage.onMutate, run.input()) { [self] context in
        if !isUndefinedValue(context) || !isUndefinedValue(stateStorage.context) {
          dispatch(.pending(variables: variables, context: context, isPaused: isPaused))
        }
        run.start()
      }
    }
    if let onMutate = cache.config.onMutate {
      var input = run.input()
      input.mutation = self
      run.then(onMutate, input) { _ in afterCacheOnMutate() }
    } else {
      afterCacheOnMutate()
    }
    return result
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
/// first `await`), and its retryer's host (the mutation function and the retryer's callbacks).
/// Every step runs under the engine lock.
final class ExecuteRun: RetryerHost, @unchecked Sendable {
  // Safe: used only under the owning engine's lock.
  let mutation: Mutation
  /// The run's retryer, set once after both are made; the two hold each other (the retryer's
  /// host) until ``finish()`` lets go of it.
  var retryer: Retryer?
  @DeepReleased var variables: (any Sendable)?
  let functionContext: MutationFunctionContext
  let result: Promise<any Sendable>

  init(mutation: Mutation, variables: (any Sendable)?, functionContext: MutationFunctionContext, result: Promise<any Sendable>) {
    self.mutation = mutation
    self.variables = variables
    self.functionContext = functionContext
    self.result = result
  }

  private var engine: Engine { mutation.engine }

  func retryerAttempt(of retryer: Retryer) -> Promise<any Sendable>? {
    mutation.runMutationFn(variables, functionContext)
  }

  /// A mutation's retryer is never cancelled (TanStack's mutation passes no `onCancel`).
  func retryerCancelled(_ error: any Error) {}

  func retryerFailed(_ failureCount: Int, _ error: any Error) {
    mutation.dispatch(.failed(failureCount: failureCount, error: error))
  }

  func retryerPaused() { mutation.dispatch(.pause) }

  func retryerContinued() { mutation.dispatch(.continue) }

  func retryerCanRun() -> Bool { mutation.cache.canRun(mutation) }

  func input(data: (any Sendable)? = nil, error: (any Error)? = nil) -> MutationCallbackInput {
    MutationCallbackInput(data: data, error: error, variables: variables, context: mutation.stateStorage.context, mutation: nil, functionContext: functionContext)
  }

  /// TanStack's `await callback(input)`, a failure going to the error path (see `awaitCallback`).
  func then(_ callback: MutationCallback?, _ input: MutationCallbackInput, _ next: @escaping @Sendable ((any Sendable)?) -> Void) {
    awaitCallback(callback, input) { [self] result in
      switch result {
      case .success(let value): next(value)
      case .failure(let error): fail(error)
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

  /// `const data = await retryer.start()`, then the success callbacks.
  func start() {
    guard let retryer else { preconditionFailure("an execute run starts with its retryer") }
    retryer.start().whenSettled { [self] outcome in
      engine.lock.sync {
        switch outcome {
        case .success(let data): succeed(isUndefined(data) ? nil : data)
        case .failure(let error): fail(error)
        }
      }
    }
  }

  private func succeed(_ data: (any Sendable)?) {
    let m = mutation
    var cacheInput = input(data: data)
    cacheInput.mutation = m
    then(m.cache.config.onSuccess, cacheInput) { [self] _ in
      then(m.optionsStorage.onSuccess, input(data: data)) { [self] _ in
        var settledInput = input(data: data)
        settledInput.variables = m.stateStorage.variables
        settledInput.mutation = m
        then(m.cache.config.onSettled, settledInput) { [self] _ in
          then(m.optionsStorage.onSettled, input(data: data)) { [self] _ in
            m.dispatch(.success(data: data))
            finish()
            result.resolve(data ?? Optional<JSONValue>.none)
          }
        }
      }
    }
  }

  /// The catch block: each callback awaited, its own failure dropped (TanStack reports it as an
  /// unhandled rejection), then the error state.
  private func fail(_ error: any Error) {
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
            result.reject(error)
          }
        }
      }
    }
  }

  /// The `finally` block.
  private func finish() {
    if let retryer, mutation.retryer === retryer { mutation.retryer = nil }
    retryer = nil
    _ = mutation.cache.runNext(mutation)
  }
}
