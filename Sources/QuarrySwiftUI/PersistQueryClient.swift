#if canImport(SwiftUI)
import QuarryApp
import QuarryPersist
import SwiftUI

extension View {
  /// Gives this view tree `client`, as `.queryClient(_:)` does, and restores its persisted cache
  /// before the tree's queries subscribe (TanStack's `PersistQueryClientProvider`).
  ///
  /// Until the stored snapshot is restored, `isRestoring` is `true` in the environment and the
  /// wrappers' models (`@Query`, `@QueryObserving`, `@InfiniteQuery`, `@Queries`) show the
  /// result mounting would give, idle, without subscribing, so nothing fetches before the
  /// restored data is in the cache. Then `onSuccess` (or `onError`: the stored snapshot was
  /// unreadable and is removed) runs, the models subscribe and see the restored data, refetching
  /// only what is stale, and every cache change is saved until the view goes away.
  ///
  /// ```swift apple
  /// struct Note: Codable, Sendable { let text: String }
  /// struct FetchNotes: QueryFunc {
  ///   func run(_ variables: QueryVoid) async throws -> [Note] { [Note(text: "hello")] }
  /// }
  /// struct NotesScreen: View {
  ///   @Environment(\.isRestoring) private var isRestoring
  ///   @Query(FetchNotes()) private var notes
  ///
  ///   var body: some View {
  ///     Group {
  ///       switch notes {
  ///       case .stale, .fetching: ProgressView()
  ///       case .success(let notes): Text("\(notes.count) notes" + (isRestoring ? " (restoring)" : ""))
  ///       case .error(let error): Text(error.localizedDescription)
  ///       }
  ///     }
  ///     .task { await $notes.fetch() }
  ///   }
  /// }
  /// struct NotesApp: View {
  ///   let client = QueryClient()
  ///   let storage: any PersistStorage   // FileStorage(directory:) or SQLiteStorage, made at launch
  ///
  ///   var body: some View {
  ///     var types = PersistedTypes()
  ///     types.register([Note].self, for: QueryCacheKey<FetchNotes>.all.queryKey)
  ///     return NotesScreen().persistQueryClient(client, options: PersistQueryClientOptions(
  ///       persister: StoragePersister(storage: storage, scheduler: client.scheduler), types: types))
  ///   }
  /// }
  /// ```
  nonisolated public func persistQueryClient(
    _ client: QueryClient, options: PersistQueryClientOptions,
    onSuccess: (@MainActor @Sendable () -> Void)? = nil,
    onError: (@MainActor @Sendable (any Error) -> Void)? = nil
  ) -> some View {
    modifier(PersistQueryClientModifier(client: client, options: options, onSuccess: onSuccess, onError: onError))
  }
}

/// Restores the persisted cache, holding the tree's models at a ``QuarryApp/RestoreGate`` until
/// then; saves changes afterwards; puts the client in the environment.
struct PersistQueryClientModifier: ViewModifier {
  let client: QueryClient
  let options: PersistQueryClientOptions
  let onSuccess: (@MainActor @Sendable () -> Void)?
  let onError: (@MainActor @Sendable (any Error) -> Void)?
  /// One gate per client: a new client is restored (and gated) afresh.
  @State private var gates = ModelHolder<RestoreGate>()

  /// A modifier for `client`.
  nonisolated init(
    client: QueryClient, options: PersistQueryClientOptions,
    onSuccess: (@MainActor @Sendable () -> Void)?, onError: (@MainActor @Sendable (any Error) -> Void)?
  ) {
    self.client = client
    self.options = options
    self.onSuccess = onSuccess
    self.onError = onError
  }

  func body(content: Content) -> some View {
    let gate = gates.model(for: client) { _ in RestoreGate() }
    let client = self.client
    let options = self.options
    let onSuccess = self.onSuccess
    let onError = self.onError
    content
      .environment(\.restoreGate, gate)
      .environment(\.isRestoring, gate.isRestoring)
      .queryClient(client)
      .task(id: ObjectIdentifier(client)) { @MainActor in
        let persistence = persistQueryClient(client, options)
        // The storage is read off the main actor; the gate opens on it.
        let outcome = await Task.detached { Result { try persistence.restore() } }.value
        switch outcome {
        case .success: onSuccess?()
        case .failure(let error): onError?(error)
        }
        gate.finish()
        // Saves until the view goes away (the task is cancelled then).
        let untilCancelled = AsyncStream<Never> { _ in }
        for await _ in untilCancelled {}
        persistence.unsubscribe()
      }
  }
}
#endif
