// Compiled on every platform (no SwiftUI in it), so Tests/QuarrySwiftUITests checks it on Linux.
import Dispatch
import Observation
import QuarryApp

/// A count read from a client (fetching queries, pending mutations), kept current on the main
/// actor after each event of the cache it watches: what `@IsFetching` and `@IsMutating` show.
///
/// An event delivered on the main queue (the main actor's executor) is applied at once; one
/// delivered elsewhere is queued with `DispatchQueue.main.async`, never waited for. The count is
/// read afresh each time, so a late or merged recount still shows the truth.
@MainActor @Observable
final class CacheActivity {
  /// The current count.
  private(set) var count: Int
  @ObservationIgnored private let read: @Sendable () -> Int
  @ObservationIgnored private var unsubscribe: Unsubscribe?

  /// Watches `read` (a count of a client), recounting after each event `subscribe` reports.
  init(read: @escaping @Sendable () -> Int, subscribe: (@escaping @Sendable () -> Void) -> @Sendable () -> Void) {
    self.read = read
    count = read()
    unsubscribe = Unsubscribe(subscribe { [weak self] in
      if isOnMainQueue {
        MainActor.assumeIsolated { self?.refresh() }
      } else {
        DispatchQueue.main.async { MainActor.assumeIsolated { self?.refresh() } }
      }
    })
  }

  /// How many queries of `client` match `filters` and fetch.
  static func fetching(_ client: QueryClient, _ filters: QueryFilters) -> CacheActivity {
    CacheActivity(read: { client.isFetching(filters) }, subscribe: { recount in
      client.queryCache.subscribe { _ in recount() }
    })
  }

  /// How many mutations of `client` match `filters` and are pending.
  static func mutating(_ client: QueryClient, _ filters: MutationFilters) -> CacheActivity {
    CacheActivity(read: { client.isMutating(filters) }, subscribe: { recount in
      client.mutationCache.subscribe { _ in recount() }
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

/// Marks the main queue so code can ask whether it runs there.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()

/// Whether the calling code runs on the main queue, the main actor's executor (on Linux a worker
/// thread drains it, so the check is the queue, not `Thread.isMainThread`).
private var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueKey) == true }
