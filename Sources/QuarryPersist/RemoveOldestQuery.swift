import Quarry

/// A retry strategy for ``StoragePersister``: drops the query with the oldest `dataUpdatedAt`
/// (the first of equals) and keeps every mutation; gives up (`nil`) when no query is left
/// (TanStack's `removeOldestQuery`).
///
/// ```swift
/// let storage = InMemoryStorage(quota: 5_000_000)   // like a browser's localStorage
/// let persister = StoragePersister(storage: storage, scheduler: client.scheduler, retry: removeOldestQuery)
/// ```
@Sendable public func removeOldestQuery(_ input: StoragePersister.RetryInput) -> PersistedClient? {
  var client = input.persistedClient
  let queries = client.clientState.queries
  // A stable sort: the first of several equally old queries goes.
  guard let oldest = queries.indices.min(by: { queries[$0].state.dataUpdatedAt < queries[$1].state.dataUpdatedAt }) else {
    return nil
  }
  client.clientState.queries.remove(at: oldest)
  return client
}
