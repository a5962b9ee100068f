import Testing
@testable import Quarry

/// An observer's listener registry is accessed without dynamic exclusivity checks: a removed
/// listener is freed after the access, so user code its captures run in `deinit` may use the
/// observer again.
@Suite struct ObserverListenersAccessTests {
  /// Runs `onDeinit` when freed.
  private final class Token: @unchecked Sendable {
    // Safe: immutable.
    let onDeinit: @Sendable () -> Void
    init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
  }

  private func observer(_ client: QueryClient) -> QueryObserver {
    var options = QueryOptions(queryKey: ["k"])
    options.staleTime = .value(.milliseconds(.infinity))
    return QueryObserver(client: client, options: options)
  }

  @Test func aListenerFreedOnUnsubscribeMaySubscribeToTheSameObserverFromDeinit() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["k"], value: 0)
    let observer = observer(client)
    let log = Log()
    let later = Log()
    let keep = UnsubscribeBox()
    var unsubscribe: (@Sendable () -> Void)?
    do {
      let token = Token {
        log.append("deinit, listeners: \(observer.hasListeners)")
        keep.value = observer.subscribe { result in later.append("\(result.data as? Int ?? -1)") }
      }
      unsubscribe = observer.subscribe { [token] _ in _ = token }
    }
    unsubscribe?()
    unsubscribe = nil
    #expect(log.entries == ["deinit, listeners: false"])
    #expect(observer.hasListeners)
    client.setQueryData(["k"], value: 1)
    #expect(later.entries == ["1"])
    keep.value?()
  }

  @Test func listenersFreedByDestroyMayReadTheObserverFromDeinit() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["k"], value: 0)
    let observer = observer(client)
    let log = Log()
    do {
      let token = Token { log.append("deinit, listeners: \(observer.hasListeners)") }
      _ = observer.subscribe { [token] _ in _ = token }
    }
    observer.destroy()
    #expect(log.entries == ["deinit, listeners: false"])
  }

  private final class UnsubscribeBox: @unchecked Sendable {
    // Safe: written by the token's deinit and read after it, on the test's thread.
    var value: (@Sendable () -> Void)?
  }
}
