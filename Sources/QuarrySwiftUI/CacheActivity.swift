#if canImport(SwiftUI)
import Observation
import QuarryApp

/// A count read from a client (fetching queries, pending mutations), recomputed on the main
/// actor after each event of the cache it watches: what `@IsFetching` and `@IsMutating` show.
@MainActor @Observable
final class CacheActivity {
  /// The current count.
  private(set) var count: Int
  @ObservationIgnored private let read: @Sendable () -> Int
  @ObservationIgnored private var unsubscribe: Unsubscribe?

  /// Watches `read` (a count of `client`), recomputing it after each event `subscribe` reports.
  init(read: @escaping @Sendable () -> Int, subscribe: (@escaping @Sendable () -> Void) -> @Sendable () -> Void) {
    self.read = read
    count = read()
    // The engine may notify under its lock: recompute later, on the main actor.
    unsubscribe = Unsubscribe(subscribe { [weak self] in
      Task { @MainActor in self?.refresh() }
    })
  }

  private func refresh() {
    let now = read()
    if now != count { count = now }
  }
}

/// Ends a cache subscription when its owner goes away.
final class Unsubscribe: Sendable {
  private let cancel: @Sendable () -> Void
  init(_ cancel: @escaping @Sendable () -> Void) { self.cancel = cancel }
  deinit { cancel() }
}
#endif
