import Quarry

/// Stores and restores a whole client (TanStack's `Persister`): ``StoragePersister`` over a
/// ``PersistStorage`` is the usual one.
public protocol Persister: Sendable {
  /// Saves a snapshot. The persister decides when (throttling) and calls `snapshot` then, so a
  /// burst of changes costs one snapshot; errors are handled by the persister (never thrown).
  func persistClient(_ snapshot: @escaping @Sendable () throws -> PersistedClient)
  /// The stored snapshot, or `nil`. Throws when it cannot be read (the caller removes it).
  func restoreClient() throws -> PersistedClient?
  /// Removes the stored snapshot.
  func removeClient() throws
}
