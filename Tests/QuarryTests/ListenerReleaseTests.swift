import Foundation
import Testing
@testable import Quarry

/// What a listener captured is freed outside the engine lock: its `deinit` is user code, which
/// may call the client or wait for another thread that does (ARCHITECTURE.md, "Threading").
@Suite struct ListenerReleaseTests {
  /// Runs `onDeinit` when the last reference to it goes.
  private final class Sentinel: Sendable {
    let onDeinit: @Sendable () -> Void
    init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
  }

  /// A sentinel that logs whether the engine lock was held when it was freed.
  private func sentinel(_ client: QueryClient, _ log: Log) -> Sentinel {
    Sentinel { log.append(client.engine.lock.isHeldByCurrentThread ? "freed under the lock" : "freed") }
  }

  private func options(_ key: QueryKey) -> QueryOptions {
    var options = QueryOptions(queryKey: key)
    options.queryFn = .fn { _ in 0 }
    options.staleTime = .value(.milliseconds(.infinity))
    return options
  }

  /// A client with data for `["a"]`, an observer of it, and a subscription whose listener alone
  /// holds a sentinel logging into `log`; returns the client and the unsubscribe function.
  private func subscribeWithSentinel(_ log: Log) -> (QueryClient, @Sendable () -> Void) {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    let observer = QueryObserver(client: client, options: options(["a"]))
    let unsubscribe = { [sentinel = sentinel(client, log)] in
      observer.subscribe { _ in withExtendedLifetime(sentinel) {} }
    }()
    return (client, unsubscribe)
  }

  @Test func anObserverListenersCapturesAreFreedAfterUnsubscribeUnlocks() {
    let log = Log()
    let (_, unsubscribe) = subscribeWithSentinel(log)
    #expect(log.entries.isEmpty)
    unsubscribe()
    #expect(log.entries == ["freed"])
  }

  @Test func destroyFreesTheListenersCapturesAfterUnlocking() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    let log = Log()
    let observer = QueryObserver(client: client, options: options(["a"]))
    for _ in 0..<2 {
      _ = { [sentinel = sentinel(client, log)] in observer.subscribe { _ in withExtendedLifetime(sentinel) {} } }()
    }
    observer.destroy()
    #expect(log.entries == ["freed", "freed"])
  }

  @Test func queriesObserverAndCacheListenersAreFreedAfterUnlocking() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    let log = Log()
    let queries = QueriesObserver(client: client, queries: [options(["a"])])
    let unsubscribeQueries = { [sentinel = sentinel(client, log)] in
      queries.subscribe { _ in withExtendedLifetime(sentinel) {} }
    }()
    let unsubscribeCache = { [sentinel = sentinel(client, log)] in
      client.queryCache.subscribe { _ in withExtendedLifetime(sentinel) {} }
    }()
    let unsubscribeMutations = { [sentinel = sentinel(client, log)] in
      client.mutationCache.subscribe { _ in withExtendedLifetime(sentinel) {} }
    }()
    unsubscribeQueries()
    unsubscribeCache()
    unsubscribeMutations()
    #expect(log.entries == ["freed", "freed", "freed"])
  }

  /// An unsubscription made inside a transaction (here, by a value callback: an updater) frees
  /// the listener when the outermost level unlocks, not under it.
  @Test func anUnsubscriptionInsideATransactionFreesTheListenerAfterItsOutermostLevel() {
    let log = Log()
    let (client, unsubscribe) = subscribeWithSentinel(log)
    _ = client.setQueryData(["b"]) { _ in
      unsubscribe()
      log.append("updater returns")
      return 2
    }
    #expect(log.entries == ["updater returns", "freed"])
  }

  /// A listener call queued behind another thread's delivery holds the last reference to what
  /// the unsubscribed listener captured. The deliverer frees it once it has drained the queue,
  /// outside the queue's lock: the `deinit` here writes to the client, which queues (or
  /// delivers) listener calls and so takes that lock again. Freed under it, it would deadlock.
  @Test func aQueuedCallsCapturesAreFreedByTheDelivererOutsideItsQueueLock() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 0)
    client.setQueryData(["b"], value: 0)
    client.setQueryData(["written by deinit"], value: 0)
    let log = Log()
    let keepB = QueryObserver(client: client, options: options(["b"])).subscribe { _ in }
    let keepDeinitTarget = QueryObserver(client: client, options: options(["written by deinit"])).subscribe {
      log.append("heard \($0.data as? Int ?? -1)")
    }
    let unsubscribeA = { [sentinel = Sentinel { client.setQueryData(["written by deinit"], value: 1) }] in
      QueryObserver(client: client, options: options(["a"])).subscribe { _ in withExtendedLifetime(sentinel) {} }
    }()
    // Thread A commits a write to "b" and stalls, as the deliverer, before delivering it.
    let (release, done) = runStalledAfterFirstCommit(of: client) {
      client.setQueryData(["b"], value: 1)
    }
    // This write's call to "a"'s listener queues behind thread A's delivery; unsubscribing then
    // leaves the queued call holding the listener.
    client.setQueryData(["a"], value: 1)
    unsubscribeA()
    #expect(log.entries.isEmpty)
    release.signal()
    guard done.wait(timeout: .now() + 10) == .success else {
      // Thread A holds the engine lock forever: touching the client would hang the test too.
      Issue.record("the deliverer deadlocked freeing the queue")
      return
    }
    client.engine.lock.setAfterCommit(nil)
    #expect(log.entries == ["heard 1"])
    keepB()
    keepDeinitTarget()
  }
}
