/// Writes the client's cache as data: the queries and mutations `options` choose, in cache order
/// (TanStack's `dehydrate`). By default only successful queries and paused mutations are kept.
///
/// ```swift
/// let snapshot = dehydrate(client)                      // successful queries, paused mutations
/// let all = dehydrate(client, options: DehydrateOptions(shouldDehydrateQuery: { _ in true }))
/// ```
///
/// Each filter is chosen as TanStack chooses it: `options`, then the client's
/// `defaultOptions.dehydrate`, then the built-in one.
public func dehydrate(_ client: QueryClient, options: DehydrateOptions = DehydrateOptions()) -> DehydratedState {
  client.engine.lock.sync {
    let defaults = client.defaultOptions.dehydrate
    let filterMutation = options.shouldDehydrateMutation ?? defaults.shouldDehydrateMutation ?? defaultShouldDehydrateMutation
    let mutations = client.mutationCache.getAll().compactMap { mutation in
      filterMutation(mutation) ? dehydrateMutation(mutation) : nil
    }
    let filterQuery = options.shouldDehydrateQuery ?? defaults.shouldDehydrateQuery ?? defaultShouldDehydrateQuery
    let shouldRedactErrors = options.shouldRedactErrors ?? defaults.shouldRedactErrors
    let serializeData = options.serializeData ?? defaults.serializeData
    let queries = client.queryCache.getAll().compactMap { query in
      filterQuery(query) ? dehydrateQuery(query, serializeData: serializeData, shouldRedactErrors: shouldRedactErrors) : nil
    }
    return DehydratedState(mutations: mutations, queries: queries)
  }
}

/// TanStack's default mutation filter: the mutation is paused.
@Sendable public func defaultShouldDehydrateMutation(_ mutation: Mutation) -> Bool {
  mutation.engine.lock.sync { mutation.stateStorage.isPaused }
}

/// TanStack's default query filter: the query's status is `success`.
@Sendable public func defaultShouldDehydrateQuery(_ query: Query) -> Bool {
  query.engine.lock.sync { query.stateStorage.status == .success }
}

/// Writes one query (TanStack's `dehydrateQuery`): its full state (data through `serializeData`),
/// key, hash, `dehydratedAt`, a pending query's promise, a truthy `meta` and its type.
public func dehydrateQuery(_ query: Query, serializeData: (@Sendable (any Sendable) -> any Sendable)? = nil, shouldRedactErrors: (@Sendable (any Error) -> Bool)? = nil) -> DehydratedQuery {
  query.engine.lock.sync {
    var state = query.stateStorage
    if let box = state.dataBox, let serializeData {
      state.dataBox = boxed(serializeData(box.value))
    }
    var dehydrated = DehydratedQuery(
      queryHash: query.queryHash, queryKey: query.queryKey, state: state,
      meta: query.sharedOptions.meta.flatMap { $0.isTruthy ? $0 : nil },
      queryType: query.queryType, dehydratedAt: query.engine.now)
    if state.status == .pending {
      dehydrated.promise = dehydratePromise(query, serializeData: serializeData, shouldRedactErrors: shouldRedactErrors)
      dehydrated.hasPromise = dehydrated.promise != nil
    }
    return dehydrated
  }
}

/// TanStack's `dehydratePromise`: `query.promise?.then(serializeData).catch(redact)`, with the
/// same number of jobs per step (a rejection returned from `catch` takes two more).
private func dehydratePromise(_ query: Query, serializeData: (@Sendable (any Sendable) -> any Sendable)?, shouldRedactErrors: (@Sendable (any Error) -> Bool)?) -> Promise<any Sendable>? {
  guard let promise = query.retryer?.promise else { return nil }
  let scheduler = query.engine.scheduler
  let serialized = promise.then { value -> any Sendable in serializeData?(value) ?? value }
  let result = Promise<any Sendable>(scheduler: scheduler)
  serialized.whenSettled { outcome in
    switch outcome {
    case .success(let value): result.resolve(value)
    case .failure(let error):
      let kept: any Error = shouldRedactErrors?(error) == false ? error : HydrationError.redacted
      // `return Promise.reject(e)` from a handler: the returned thenable is adopted two jobs later.
      scheduler.enqueue { scheduler.enqueue { result.reject(kept) } }
    }
  }
  return result
}

/// Writes one mutation (TanStack's `dehydrateMutation`): key, full state, scope and truthy `meta`.
func dehydrateMutation(_ mutation: Mutation) -> DehydratedMutation {
  let options = mutation.optionsStorage
  return DehydratedMutation(
    mutationKey: options.mutationKey, state: mutation.stateStorage,
    meta: options.meta.flatMap { $0.isTruthy ? $0 : nil }, scope: options.scope)
}

extension JSONValue {
  /// JavaScript's truthiness (`undefined`, `null`, `false`, `0`, `NaN` and `""` are falsy).
  var isTruthy: Bool {
    switch self {
    case .null, .undefined: return false
    case .bool(let b): return b
    case .number(let n): return n != 0 && !n.isNaN
    case .string(let s): return !s.isEmpty
    case .array, .object: return true
    }
  }
}
