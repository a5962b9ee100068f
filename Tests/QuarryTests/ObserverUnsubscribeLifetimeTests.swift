import Testing
@testable import Quarry

/// The function `QueryObserver.subscribe` returns reaches the observer through the listener's
/// registry entry, which holds it only while the listener is registered: once the listener is
/// removed (by that function or by `destroy()`), a kept function keeps nothing alive, calling
/// it again does nothing, and a listener that captures its own unsubscribe function forms no
/// cycle after unsubscribing.
@Suite struct ObserverUnsubscribeLifetimeTests {
  /// Runs `onDeinit` when freed.
  private final class Token: @unchecked Sendable {
    // Safe: immutable.
    let onDeinit: @Sendable () -> Void
    init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
  }

  private final class UnsubscribeBox: @unchecked Sendable {
    // Safe: written and read on the test's thread.
    var value: (@Sendable () -> Void)?
  }

  private func options() -> QueryOptions {
    var options = QueryOptions(queryKey: ["k"])
    options.staleTime = .value(.milliseconds(.infinity))
    return options
  }

  @Test func aKeptUnsubscribeFunctionDoesNotKeepTheObserverAliveAfterUnsubscribing() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["k"], value: 0)
    weak var weakObserver: QueryObserver?
    let unsubscribe: @Sendable () -> Void
    do {
      let observer = QueryObserver(client: client, options: options())
      weakObserver = observer
      unsubscribe = observer.subscribe { _ in }
    }
    // Subscribed: its query holds it.
    #expect(weakObserver != nil)
    #expect(client.queryCache.find(QueryFilters(queryKey: ["k"]))?.observerCount == 1)
    unsubscribe()
    #expect(weakObserver == nil)
    #expect(client.queryCache.find(QueryFilters(queryKey: ["k"]))?.observerCount == 0)
    unsubscribe()  // again: nothing to do
    #expect(weakObserver == nil)
  }

  @Test func destroyReleasesTheObserverFromEveryKeptUnsubscribeFunction() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["k"], value: 0)
    weak var weakObserver: QueryObserver?
    let first: @Sendable () -> Void
    let second: @Sendable () -> Void
    let calls = Log()
    do {
      let observer = QueryObserver(client: client, options: options())
      weakObserver = observer
      first = observer.subscribe { _ in calls.append("first") }
      second = observer.subscribe { _ in calls.append("second") }
      observer.destroy()
    }
    #expect(weakObserver == nil)
    first()
    second()
    client.setQueryData(["k"], value: 1)
    #expect(calls.entries.isEmpty)
  }

  @Test func unsubscribingOneOfTwoListenersKeepsTheOtherDelivered() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["k"], value: 0)
    let observer = QueryObserver(client: client, options: options())
    let calls = Log()
    let first = observer.subscribe { result in calls.append("first \(result.data as? Int ?? -1)") }
    let second = observer.subscribe { result in calls.append("second \(result.data as? Int ?? -1)") }
    first()
    first()  // again: the second listener stays
    client.setQueryData(["k"], value: 1)
    #expect(calls.entries == ["second 1"])
    #expect(observer.hasListeners)
    second()
    #expect(!observer.hasListeners)
  }

  @Test func aListenerCapturingItsOwnUnsubscribeFunctionIsFreedAfterUnsubscribing() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["k"], value: 0)
    weak var weakObserver: QueryObserver?
    let freed = Log()
    let box = UnsubscribeBox()
    do {
      let observer = QueryObserver(client: client, options: options())
      weakObserver = observer
      let token = Token { freed.append("listener freed") }
      let own = UnsubscribeBox()
      own.value = observer.subscribe { [token, own] _ in
        _ = token
        own.value?()  // unsubscribes itself on its first call
      }
      box.value = own.value
    }
    #expect(weakObserver != nil)
    client.setQueryData(["k"], value: 1)
    #expect(freed.entries == ["listener freed"])
    #expect(weakObserver == nil)
    box.value?()
  }
}
