import Foundation
import Quarry

/// A ``Persister`` over a ``PersistStorage`` (TanStack's `createAsyncStoragePersister`): one key
/// (`REACT_QUERY_OFFLINE_CACHE`), saves throttled to one per `throttleTime` ms (the latest
/// snapshot wins, the first at once), JSON by default, and a `retry` strategy for writes the
/// storage refuses (``removeOldestQuery``).
///
/// ```swift
/// let persister = StoragePersister(storage: try FileStorage(directory: cachesDirectory), scheduler: client.scheduler)
/// ```
public final class StoragePersister: Persister, @unchecked Sendable {
  // Safe: all stored properties are constants; `throttle` guards its own state.
  /// What a retry strategy is given: the snapshot that failed, the error, the count so far.
  public struct RetryInput: Sendable {
    /// The snapshot whose write failed.
    public var persistedClient: PersistedClient
    /// The write's error.
    public var error: any Error
    /// How many writes of this save failed so far.
    public var errorCount: Int
  }

  /// The storage.
  public let storage: any PersistStorage
  /// The key the snapshot is stored under.
  public let key: String
  private let serialize: @Sendable (PersistedClient) throws -> Data
  private let deserialize: @Sendable (Data) throws -> PersistedClient
  private let retry: (@Sendable (RetryInput) -> PersistedClient?)?
  private let onError: (@Sendable (any Error) -> Void)?
  private var throttle: AsyncThrottle<PersistedClient>!

  /// Creates a persister. `scheduler` is the client's (`client.scheduler`): its clock throttles
  /// the saves. `onError` hears of every failed write and snapshot (they are otherwise
  /// swallowed, as TanStack swallows them).
  public init(
    storage: any PersistStorage,
    scheduler: any QueryScheduler,
    key: String = "REACT_QUERY_OFFLINE_CACHE",
    throttleTime: Double = 1000,
    serialize: @escaping @Sendable (PersistedClient) throws -> Data = { try $0.jsonData() },
    deserialize: @escaping @Sendable (Data) throws -> PersistedClient = { try PersistedClient(jsonData: $0) },
    retry: (@Sendable (RetryInput) -> PersistedClient?)? = nil,
    onError: (@Sendable (any Error) -> Void)? = nil
  ) {
    self.storage = storage
    self.key = key
    self.serialize = serialize
    self.deserialize = deserialize
    self.retry = retry
    self.onError = onError
    // Weak: a save still waiting for its turn when the persister is released is dropped.
    throttle = AsyncThrottle(interval: throttleTime, scheduler: scheduler) { [weak self] client, done in
      self?.save(client)
      done()
    }
  }

  /// Saves through the throttle.
  public func persistClient(_ client: PersistedClient) {
    throttle(client)
  }

  /// TanStack's save loop: write; on failure ask `retry` for a smaller snapshot until it gives
  /// none (then nothing is written and the old value stays).
  private func save(_ snapshot: PersistedClient) {
    var client: PersistedClient? = snapshot
    var error = trySave(snapshot)
    var errorCount = 0
    while let failure = error, let failed = client {
      onError?(failure)
      errorCount += 1
      client = retry?(RetryInput(persistedClient: failed, error: failure, errorCount: errorCount))
      if let client { error = trySave(client) }
    }
  }

  private func trySave(_ client: PersistedClient) -> (any Error)? {
    do {
      try storage.setItem(key, try serialize(client))
      return nil
    } catch {
      return error
    }
  }

  /// The stored snapshot; throws when it cannot be read or decoded.
  public func restoreClient() throws -> PersistedClient? {
    guard let data = try storage.getItem(key), !data.isEmpty else { return nil }
    return try deserialize(data)
  }

  /// Removes the stored snapshot.
  public func removeClient() throws { try storage.removeItem(key) }

  /// Whether a save is scheduled or under way (tests wait for it).
  public var isSaving: Bool { throttle.isBusy }
}
