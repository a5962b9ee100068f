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
  /// The Swift types of restored data; queries that no longer decode are dropped.
  public var types: PersistedTypes
  /// Hears of restored queries dropped because their data no longer decodes
  /// (``UndecodableQueryError``).
  public var onRestoreError: (@Sendable (any Error) -> Void)?

  /// Creates options with TanStack's defaults.
  public init(persister: any Persister, maxAge: Double = 1000 * 60 * 60 * 24, buster: String = "", hydrateOptions: HydrateOptions? = nil, dehydrateOptions: DehydrateOptions = DehydrateOptions(), types: PersistedTypes = PersistedTypes(), onRestoreError: (@Sendable (any Error) -> Void)? = nil) {
    self.persister = persister
    self.types = types
    self.onRestoreError = onRestoreError
    self.maxAge = maxAge
    self.buster = buster
    self.hydrateOptions = hydrateOptions
    self.dehydrateOptions = dehydrateOptions
  }
}

/// Restores the stored snapshot into `client` (TanStack's `persistQueryClientRestore`): nothing
/// stored does nothing; a snapshot without a timestamp, older than `maxAge` (strictly) or with
/// another buster is removed, not hydrated; any error removes the stored snapshot and is rethrown
/// (if removing fails too, that error is thrown). Queries whose data no longer decodes into
/// their registered ``PersistedTypes`` type are left out and reported to `onRestoreError`.
public func persistQueryClientRestore(_ client: QueryClient, _ options: PersistQueryClientOptions) throws {
  do {
    guard let persisted = try options.persister.restoreClient() else { return }
    guard persisted.timestamp != 0 else { return try options.persister.removeClient() }
    let expired = client.scheduler.now() - persisted.timestamp > options.maxAge
    let busted = persisted.buster != options.buster
    if expired || busted { return try options.persister.removeClient() }
    let state = options.types.decode(persisted.clientState) { options.onRestoreError?($0) }
    hydrate(client, state, options: options.hydrateOptions)
  } catch {
    try options.persister.removeClient()
    throw error
  }
}

/// Saves a snapshot of `client` (TanStack's `persistQueryClientSave`): `{buster, timestamp: now,
/// clientState: dehydrate(client)}`, through the persister's throttle. A snapshot that cannot be
/// written (data neither `JSONValue`, `InfiniteData` nor `Encodable`) fails when serialized,
/// which the persister reports to its `onError`.
public func persistQueryClientSave(_ client: QueryClient, _ options: PersistQueryClientOptions) {
  options.persister.persistClient(PersistedClient(
    timestamp: client.scheduler.now(), buster: options.buster, clientState: dehydrate(client, options: options.dehydrateOptions)))
}

/// Saves `client` after every change to its caches: query or mutation `added`, `removed` and
/// `updated` events, never observer events (TanStack's `persistQueryClientSubscribe`). Returns
/// the function that stops it.
///
/// The save runs in a scheduler job after the change (a listener sees an operation's end
/// state, so one job saves every change an operation made): dehydration and the write run on the
/// scheduler's queue in production and at the same virtual time in tests.
public func persistQueryClientSubscribe(_ client: QueryClient, _ options: PersistQueryClientOptions) -> @Sendable () -> Void {
  let scheduler = client.scheduler
  let weakClient = WeakClient(client)
  let job = SaveJob()
  let save: @Sendable () -> Void = {
    guard job.request() else { return }  // one save job at a time: it sees every change before it
    scheduler.enqueue {
      job.started()
      guard !job.isStopped, let client = weakClient.client else { return }
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
    job.stop()
    unsubscribeQueries()
    unsubscribeMutations()
  }
}

/// Whether a save job is queued, and whether saving stopped.
private final class SaveJob: @unchecked Sendable {
  // Safe: both flags are only touched while `lock` is held.
  private let lock = NSLock()
  private var queued = false
  private var stopped = false
  /// Whether a new job must be queued.
  func request() -> Bool {
    lock.withLock {
      if queued || stopped { return false }
      queued = true
      return true
    }
  }
  func started() { lock.withLock { queued = false } }
  func stop() { lock.withLock { stopped = true } }
  var isStopped: Bool { lock.withLock { stopped } }
}

/// A weak reference to a client, for closures that must not keep it alive.
final class WeakClient: Sendable {
  weak let client: QueryClient?
  init(_ client: QueryClient) { self.client = client }
}
