/// Restores a snapshot into the client (TanStack's `hydrate`): every mutation is built anew
/// (paused ones continue with `resumePausedMutations()`), and every query is created, or
/// overwritten when the snapshot's data is strictly newer than the cached data.
///
/// ```swift
/// let snapshot = dehydrate(client)   // or decoded from a file written at the last launch
/// let restored = QueryClient()
/// hydrate(restored, snapshot)
/// ```
///
/// - A query already cached keeps its state unless the snapshot's `dataUpdatedAt` is newer; an
///   overwrite never changes its `fetchStatus`, options, `meta` or type.
/// - A new query gets `options.queries` over the client's `defaultOptions.hydrate.queries`, and
///   its state with `fetchStatus` idle; a pending query that has data is restored as `success`.
/// - A query dehydrated pending in this process (its promise) fetches without calling any query
///   function and settles when that promise does.
public func hydrate(_ client: QueryClient, _ dehydratedState: DehydratedState, options: HydrateOptions? = nil) {
  client.engine.lock.sync {
    let defaults = client.defaultOptions.hydrate
    let deserializeData = options?.deserializeData ?? defaults.deserializeData
    for dehydrated in dehydratedState.mutations {
      var mutationOptions = MutationOptions(mutationKey: dehydrated.mutationKey)
      mutationOptions.meta = dehydrated.meta
      mutationOptions.scope = dehydrated.scope
      var merged = mutationOptions.merged(over: (options?.mutations ?? MutationOptions()).merged(over: defaults.mutations ?? MutationOptions()))
      merged.mutationKey = dehydrated.mutationKey  // `{...defaults, mutationKey}` sets it even when undefined
      _ = client.mutationCache.build(client, merged, state: dehydrated.state)
    }
    for dehydrated in dehydratedState.queries {
      hydrateQuery(client, dehydrated, options: options, defaults: defaults, deserializeData: deserializeData)
    }
  }
}

/// Restores a snapshot given as JSON, as TanStack's `hydrate` accepts `unknown`: anything but an
/// object is ignored, and missing `queries`/`mutations` count as empty. Throws
/// ``HydrationError/malformed(_:)`` (restoring nothing) when an entry cannot be read.
public func hydrate(_ client: QueryClient, json: JSONValue, options: HydrateOptions? = nil) throws {
  guard case .object = json else { return }
  hydrate(client, try DehydratedState(json: json), options: options)
}

private func hydrateQuery(_ client: QueryClient, _ dehydrated: DehydratedQuery, options: HydrateOptions?, defaults: HydrateOptions, deserializeData: (@Sendable (any Sendable) -> any Sendable)?) {
  let engine = client.engine
  let state = dehydrated.state
  // A promise never resolves synchronously in Swift (TanStack's `tryResolveSync` finds data only
  // in thenables that call back at once), so the snapshot's own data is all there is.
  let data: DataBox? = state.dataBox.map { box in deserializeData.map { boxed($0(box.value)) } ?? box }
  let pendingWithData = state.status == .pending && data != nil
  var query = client.queryCache.get(dehydrated.queryHash)
  let existingIsPending = query?.stateStorage.status == .pending
  let existingIsFetching = query?.stateStorage.fetchStatus == .fetching
  if let existing = query {
    if state.dataUpdatedAt > existing.stateStorage.dataUpdatedAt {
      var next = state
      next.dataBox = data
      next.fetchStatus = existing.stateStorage.fetchStatus
      if pendingWithData {
        next.status = .success
        next.dataUpdatedAt = dehydrated.dehydratedAt ?? engine.now
        if !existingIsFetching { next.fetchStatus = .idle }
      }
      existing.setState(next)
    }
  } else {
    var queryOptions = QueryOptions(queryKey: dehydrated.queryKey)
    queryOptions.queryHash = dehydrated.queryHash
    queryOptions.meta = dehydrated.meta
    if dehydrated.queryType == "infinite" { queryOptions.isInfinite = true }
    let base = (options?.queries ?? QueryOptions()).merged(over: defaults.queries ?? QueryOptions())
    var next = state
    next.dataBox = data
    next.fetchStatus = .idle
    if pendingWithData {
      next.status = .success
      next.dataUpdatedAt = dehydrated.dehydratedAt ?? engine.now
    }
    query = client.queryCache.build(client, queryOptions.merged(over: base), state: next)
  }
  guard let query, let promise = dehydrated.promise, !existingIsPending, !existingIsFetching else { return }
  if let dehydratedAt = dehydrated.dehydratedAt, !(dehydratedAt > query.stateStorage.dataUpdatedAt) { return }
  // `Promise.resolve(promise).then(deserializeData)`: one job, then the fetch adopts it.
  let initial = promise.then { value -> any Sendable in deserializeData?(value) ?? value }
  _ = query.fetch(nil, FetchOptions(initialPromise: initial))
}
