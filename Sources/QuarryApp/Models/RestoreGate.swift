import Observation

/// Holds models back while a persisted cache is restored (TanStack's `isRestoring`, which
/// `PersistQueryClientProvider` provides and `useBaseQuery` reads).
///
/// While the gate is restoring, a model given it shows the result mounting would give, with an
/// idle fetch status, and does not subscribe its observer, so nothing fetches before the
/// restored data is in the cache; ``finish()`` opens the gate and every waiting model subscribes,
/// in the order they asked, seeing the restored data (and refetching only what is stale).
/// QuarryPersist's `QueryClientPersistence.restore()` is what restores; SwiftUI's
/// `.persistQueryClient(_:options:)` runs it and opens the gate.
///
/// ```swift
/// struct FetchTodos: QueryFunc {
///   func run(_ variables: QueryVoid) async throws -> [Todo] { try await api.todos() }
/// }
/// let gate = RestoreGate()                         // restoring
/// let todos = QueryModel(FetchTodos(), client: client, restoreGate: gate)
/// todos.setVariables(.value)                       // idle: no fetch yet
/// let persister = StoragePersister(storage: try FileStorage(directory: cachesDirectory), scheduler: client.scheduler)
/// try persistQueryClient(client, PersistQueryClientOptions(persister: persister)).restore()
/// gate.finish()                                    // subscribes: fetches only if stale
/// ```
@MainActor @Observable
public final class RestoreGate {
  /// Whether the cache is still being restored.
  public private(set) var isRestoring: Bool
  @ObservationIgnored private var waiting: [@MainActor () -> Void] = []
  @ObservationIgnored private var waiters: [CheckedContinuation<Void, Never>] = []

  /// A gate, restoring unless `isRestoring` is `false` (an open gate holds nothing back).
  public init(isRestoring: Bool = true) { self.isRestoring = isRestoring }

  /// The restore has finished (or failed): opens the gate, subscribing every waiting model in
  /// the order they asked. Later calls do nothing.
  public func finish() {
    guard isRestoring else { return }
    isRestoring = false
    let all = waiting
    waiting = []
    for subscribe in all { subscribe() }
    let continuations = waiters
    waiters = []
    for waiter in continuations { waiter.resume() }
  }

  /// Returns once the gate is open (at once if it is).
  public func restored() async {
    guard isRestoring else { return }
    await withCheckedContinuation { waiters.append($0) }
  }

  /// Runs `body` once the gate is open: now if it is, else in ``finish()``.
  func whenRestored(_ body: @escaping @MainActor () -> Void) {
    if isRestoring { waiting.append(body) } else { body() }
  }
}

/// Subscribes a model to `observer` (as ``watch(_:into:apply:)`` does) now if `gate` is absent
/// or open; else reports `restoring(true)`, applies the result mounting would give with an idle
/// fetch status, and subscribes once the gate opens (reporting `restoring(false)` first), unless
/// `isCurrent` says the model has let go of `observer` by then.
@MainActor func watch(
  _ observer: QueryObserver, after gate: RestoreGate?, into subscription: Subscription,
  isCurrent: @escaping @MainActor (QueryObserver) -> Bool,
  restoring: @escaping @MainActor (Bool) -> Void,
  apply: @escaping @MainActor @Sendable (QueryObserverResult) -> Void
) {
  guard let gate, gate.isRestoring else {
    watch(observer, into: subscription, apply: apply)
    return
  }
  restoring(true)
  apply(observer.getOptimisticResult(observer.options, optimistic: true, isRestoring: true))
  gate.whenRestored { [weak observer, weak subscription] in
    guard let observer, let subscription, isCurrent(observer) else { return }
    restoring(false)
    watch(observer, into: subscription, apply: apply)
  }
}
