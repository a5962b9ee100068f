import Foundation
import Quarry

/// Options of ``persistQueryClient(_:_:)`` and its parts (TanStack's `PersistQueryClientOptions`).
public struct PersistQueryClientOptions: Sendable {
  /// Where the client is stored.
  public var persister: any Persister
  /// A stored snapshot older than this many ms is discarded (default 24 h).
  public var maxAge: Double
  /// A stored snapshot with another buster is discarded (change it when the data's shape changes).
  public var buster: String
  /// Passed to `hydrate` on restore.
  public var hydrateOptions: HydrateOptions?
  /// Passed to `dehydrate` on save (which queries and mutations are kept).
  public var dehydrateOptions: DehydrateOptions

  /// Creates options with TanStack's defaults.
  public init(persister: any Persister, maxAge: Double = 1000 * 60 * 60 * 24, buster: String = "", hydrateOptions: HydrateOptions? = nil, dehydrateOptions: DehydrateOptions = DehydrateOptions()) {
    self.persister = persister
    self.maxAge = maxAge
    self.buster = buster
    self.hydrateOptions = hydrateOptions
    self.dehydrateOptions = dehydrateOptions
  }
}

/// Restores the stored snapshot into `client` (TanStack's `persistQueryClientRestore`): nothing
/// stored does nothing; a snapshot without a timestamp, older than `maxAge` (strictly) or with
/// another buster is removed, not hydrated; any error removes the stored snapshot and is rethrown
/// (if removing fails too, that error is thrown).
public func persistQueryClientRestore(_ client: QueryClient, _ options: PersistQueryClientOptions) throws {
  do {
    guard let persisted = try options.persister.restoreClient() else { return }
    guard persisted.timestamp != 0 else { return try options.persister.removeClient() }
    let expired = client.scheduler.now() - persisted.timestamp > options.maxAge
    let busted = persisted.buster != options.buster
    if expired || busted { return try options.persister.removeClient() }
    hydrate(client, persisted.clientState, options: options.hydrateOptions)
  } catch {
    try options.persister.removeClient()
    throw error
  }
}

/// Saves a snapshot of `client` (TanStack's `persistQueryClientSave`): `{buster, timestamp: now,
/// clientState: dehydrate(client)}`, taken when the persister writes.
public func persistQueryClientSave(_ client: QueryClient, _ options: PersistQueryClientOptions) {
  let buster = options.buster
  let dehydrateOptions = options.dehydrateOptions
  let weakClient = WeakClient(client)
  options.persister.persistClient {
    guard let client = weakClient.client else { throw CancellationError() }
    return PersistedClient(timestamp: client.scheduler.now(), buster: buster, clientState: dehydrate(client, options: dehydrateOptions))
  }
}

/// Saves `client` after every change to its caches: query or mutation `added`, `removed` and
/// `updated` events, never observer events (TanStack's `persistQueryClientSubscribe`). Returns
/// the function that stops it.
///
/// The save is started from a scheduler job (not inside the listener), so the dehydration and
/// the write run on the scheduler's queue in production and at the same virtual time in tests.
public func persistQueryClientSubscribe(_ client: QueryClient, _ options: PersistQueryClientOptions) -> @Sendable () -> Void {
  let scheduler = client.scheduler
  let weakClient = WeakClient(client)
  let save: @Sendable () -> Void = {
    scheduler.enqueue {
      guard let client = weakClient.client else { return }
      persistQueryClientSave(client, options)
    }
  }
  let cacheEvents: Set<String> = ["added", "removed", "updated"]
  let unsubscribeQueries = client.queryCache.subscribe { event in
    if cacheEvents.contains(event.type) { save() }
  }
  let unsubscribeMutations = client.mutationCache.subscribe { event in
    if cacheEvents.contains(event.type) { save() }
  }
  return {
    unsubscribeQueries()
    unsubscribeMutations()
  }
}

/// A weak reference to a client, for closures that must not keep it alive.
final class WeakClient: Sendable {
  weak let client: QueryClient?
  init(_ client: QueryClient) { self.client = client }
}
