import Quarry

/// Stores and restores a whole client (TanStack's `Persister`): ``StoragePersister`` over a
/// ``PersistStorage`` is the usual one.
public protocol Persister: Sendable {
  /// Saves a snapshot; the persister decides when (throttling: the latest snapshot wins) and
  /// handles errors (never thrown).
  func persistClient(_ client: PersistedClient)
  /// The stored snapshot, or `nil`. Throws when it cannot be read (the caller removes it).
  func restoreClient() throws -> PersistedClient?
  /// Removes the stored snapshot.
  func removeClient() throws
}
