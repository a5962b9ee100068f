extension QueryClient {
  // MARK: Mutations

  /// Continues paused mutations when online (TanStack's `resumePausedMutations`); settles when
  /// they have.
  package func resumePausedMutations() -> Promise<[Void]> {
    engine.lock.sync {
      if engine.onlineManager.isOnline { return mutationCache.resumePausedMutations() }
      return Promise.resolved([], scheduler: engine.scheduler)
    }
  }

  /// Continues paused mutations when online; returns once they have settled.
  public func resumePausedMutations() async {
    _ = try? await (resumePausedMutations() as Promise<[Void]>).value
  }

  /// How many matching mutations are pending (TanStack's `isMutating`).
  public func isMutating(_ filters: MutationFilters = MutationFilters()) -> Int {
    var f = filters
    f.status = .pending
    return mutationCache.findAll(f).count
  }

  /// The mutation cache (TanStack's `getMutationCache`).
  public func getMutationCache() -> MutationCache { mutationCache }

  /// Sets defaults for mutations whose key starts with `mutationKey`; a mutation can be configured
  /// entirely by them (which lets a restored paused mutation run again).
  public func setMutationDefaults(_ mutationKey: QueryKey, _ options: MutationOptions) {
    engine.lock.sync { mutationDefaults.set(mutationKey, options) }
  }

  /// The merged defaults of every `setMutationDefaults` key that `mutationKey` starts with.
  public func getMutationDefaults(_ mutationKey: QueryKey) -> MutationOptions {
    engine.lock.sync {
      var result = MutationOptions()
      for var options in mutationDefaults.matching(mutationKey) {
        options.mutationKey = nil
        result = options.merged(over: result)
      }
      return result
    }
  }

  /// Options with the client's and key's defaults applied (TanStack's `defaultMutationOptions`).
  public func defaultMutationOptions(_ options: MutationOptions) -> MutationOptions {
    if options.defaulted { return options }
    let keyDefaults = options.mutationKey.map(getMutationDefaults) ?? MutationOptions()
    var d = options.merged(over: keyDefaults.merged(over: defaultOptions.mutations))
    d.defaulted = true
    return d
  }

  package func mutatePromise(_ options: MutationOptions, variables: (any Sendable)?) -> Promise<any Sendable> {
    engine.lock.sync { mutationCache.build(self, options).execute(variables) }
  }

  /// Runs a mutation with `variables` (TanStack's `mutationCache.build(client, options).execute`).
  public func mutate(_ options: MutationOptions, variables: (any Sendable)?) async throws -> (any Sendable)? {
    let value = try await mutatePromise(options, variables: variables).value
    return isUndefined(value) ? nil : value
  }

  /// Runs `mutationFn` with typed variables and returns its result as `Result`; a result of
  /// another type (say, from a default `mutationFn`) throws ``QuarryError/typeMismatch``.
  ///
  /// ```swift
  /// let todo = try await client.mutate("buy milk", as: Todo.self) { title, _ in try await api.addTodo(title) }
  /// ```
  public func mutate<Variables: Sendable, Result: Sendable>(
    _ variables: Variables, as type: Result.Type, options: MutationOptions = MutationOptions(),
    mutationFn: (@Sendable (Variables, MutationFunctionContext) async throws -> Result)? = nil
  ) async throws -> Result {
    var o = options
    if let mutationFn { o.mutationFn = .typed(mutationFn) }
    return try typedResult(try await mutatePromise(o, variables: variables).value, as: Result.self)
  }
}
