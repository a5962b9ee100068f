import Foundation
import Quarry

/// A client whose cache survives a relaunch (TanStack's `persistQueryClient` with
/// `PersistQueryClientProvider`'s `isRestoring`): restores the stored snapshot, then saves after
/// every cache change.
///
/// ```swift
/// let client = QueryClient()
/// let persistence = persistQueryClient(client, PersistQueryClientOptions(
///   persister: StoragePersister(storage: try FileStorage(directory: cachesDirectory), scheduler: client.scheduler)))
/// try persistence.restore()   // before the first screen subscribes its observers
/// ```
///
/// Observers should subscribe after ``restore()`` (``isRestoring`` is `true` until then), so a
/// screen shows the restored data instead of fetching first; ``subscribe(_:_:)`` does that for an
/// observer created earlier. Saving starts only after a successful restore, and never after
/// ``unsubscribe()``.
public final class QueryClientPersistence: @unchecked Sendable {
  // Safe: every `var` below is only touched while `lock` is held; callbacks run after it.
  private let lock = NSLock()
  /// The client.
  public let client: QueryClient
  /// The options.
  public let options: PersistQueryClientOptions
  private var restoring = true
  private var restoreStarted = false
  private var hasUnsubscribed = false
  private var stopSaving: (@Sendable () -> Void)?
  private var waiting: [@Sendable () -> Void] = []

  init(client: QueryClient, options: PersistQueryClientOptions) {
    self.client = client
    self.options = options
  }

  /// Whether the stored snapshot is still being restored (TanStack's `useIsRestoring`).
  public var isRestoring: Bool { lock.withLock { restoring } }

  /// Restores the stored snapshot, then starts saving (unless ``unsubscribe()`` was called).
  /// A failed restore removes the stored snapshot and throws; nothing is saved then, and
  /// ``isRestoring`` becomes `false` either way. Only the first call restores.
  public func restore() throws {
    let first = lock.withLock {
      defer { restoreStarted = true }
      return !restoreStarted
    }
    guard first else { return }
    defer { finishRestoring() }
    try persistQueryClientRestore(client, options)
    let stop = persistQueryClientSubscribe(client, options)
    let keep = lock.withLock {
      if hasUnsubscribed { return false }
      stopSaving = stop
      return true
    }
    if !keep { stop() }
  }

  private func finishRestoring() {
    let callbacks: [@Sendable () -> Void] = lock.withLock {
      restoring = false
      defer { waiting = [] }
      return waiting
    }
    for callback in callbacks { callback() }
  }

  /// Subscribes `observer` once the restore has finished (at once if it has): its first result
  /// then shows the restored data. Returns the function that unsubscribes it.
  public func subscribe(_ observer: QueryObserver, _ listener: @escaping @Sendable (QueryObserverResult) -> Void) -> @Sendable () -> Void {
    let box = UnsubscribeBox()
    let start: @Sendable () -> Void = {
      guard !box.isCancelled else { return }
      box.set(observer.subscribe(listener))
    }
    let now = lock.withLock {
      if restoring { waiting.append(start) }
      return !restoring
    }
    if now { start() }
    return { box.cancel() }
  }

  /// Stops saving (TanStack's unsubscribe; also before the restore has finished).
  public func unsubscribe() {
    let stop: (@Sendable () -> Void)? = lock.withLock {
      hasUnsubscribed = true
      defer { stopSaving = nil }
      return stopSaving
    }
    stop?()
  }
}

/// Holds an unsubscribe function that may arrive after it was asked for.
private final class UnsubscribeBox: @unchecked Sendable {
  // Safe: `unsubscribe` and `cancelled` are only touched while `lock` is held.
  private let lock = NSLock()
  private var unsubscribe: (@Sendable () -> Void)?
  private var cancelled = false

  var isCancelled: Bool { lock.withLock { cancelled } }

  func set(_ function: @escaping @Sendable () -> Void) {
    let callNow = lock.withLock {
      if cancelled { return true }
      unsubscribe = function
      return false
    }
    if callNow { function() }
  }

  func cancel() {
    let function = lock.withLock {
      cancelled = true
      defer { unsubscribe = nil }
      return unsubscribe
    }
    function?()
  }
}

/// Makes `client` persistent with `options` (TanStack's `persistQueryClient`); call
/// ``QueryClientPersistence/restore()`` next, before observers subscribe.
public func persistQueryClient(_ client: QueryClient, _ options: PersistQueryClientOptions) -> QueryClientPersistence {
  QueryClientPersistence(client: client, options: options)
}
