import Synchronization
import Testing
@testable import Quarry

/// A plain observer whose last result was delivered writes its next result into that result's
/// box member by member (`QueryObserver.updateStateResult(_:)`, `QueryObserverResultBox.replaceWithStateResult`): after every update the box
/// holds what `createStateResult` builds from the query's state (every property, and the same
/// data, error and failure reason objects), and only changed results are delivered.
@Suite struct ObserverResultInPlaceTests {
  /// Every listener call: status, fetch status, data, failure count.
  private final class Heard: Sendable {
    let values = Mutex<[String]>([])
    func append(_ result: QueryObserverResult) {
      let data = result.data.map { "\($0)" } ?? "nil"
      values.withLock { $0.append("\(result.status) \(result.fetchStatus) \(data) \(result.failureCount)") }
    }
    var all: [String] { values.withLock { $0 } }
  }

  /// The stored result equals a freshly built one, property by property and box by box.
  private func expectStoredEqualsBuilt(_ observer: QueryObserver, sourceLocation: SourceLocation = #_sourceLocation) {
    let (stored, built) = observer.lock.sync {
      (observer.currentResultBox!.result, observer.createStateResult(observer.currentQuery))
    }
    #expect(built.changedProperties(from: stored).isEmpty, sourceLocation: sourceLocation)
    #expect(stored.dataBox === built.dataBox, sourceLocation: sourceLocation)
    #expect(stored.errorBox === built.errorBox, sourceLocation: sourceLocation)
    #expect(stored.failureReasonBox === built.failureReasonBox, sourceLocation: sourceLocation)
    #expect(stored.infinite == nil && !stored.isPlaceholderData, sourceLocation: sourceLocation)
  }

  /// A client whose `["k"]` holds 1, and an observer of it that never refetches on its own.
  private func observingFreshData() -> (QueryClient, QueryObserver) {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["k"], value: 1)
    var options = QueryOptions(queryKey: ["k"])
    options.staleTime = .value(.milliseconds(.infinity))
    return (client, QueryObserver(client: client, options: options))
  }

  @Test func eachUpdateOfARefetchAFailureAndAWriteStoresTheBuiltResult() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    client.setQueryData(["k"], value: 1)
    let fail = Flag()
    var options = QueryOptions(queryKey: ["k"])
    options.queryFn = .fn { _ in
      if fail.value.withLock({ $0 }) { throw QuarryTestError.failed }
      return 2
    }
    options.staleTime = .value(.milliseconds(.infinity))
    options.retry = .bool(false)
    let observer = QueryObserver(client: client, options: options)
    let heard = Heard()
    let unsubscribe = observer.subscribe { heard.append($0) }
    defer { unsubscribe() }
    // Identities, not references: holding a box would keep it from being reused.
    let first = ObjectIdentifier(observer.currentResultBox!)

    // The invalidation's update is written into the delivered box; the `.fetch` update finds it
    // held by its listener call and takes a new one, which the success's update is written into.
    _ = client.invalidateQueriesPromise(InvalidateQueryFilters(QueryFilters(queryKey: ["k"])))
    expectStoredEqualsBuilt(observer)
    let fetching = ObjectIdentifier(observer.currentResultBox!)
    #expect(fetching != first)
    scheduler.runUntilIdle()
    expectStoredEqualsBuilt(observer)
    #expect(ObjectIdentifier(observer.currentResultBox!) == fetching)

    // A failed refetch: the error and failure reason boxes come from the state.
    fail.value.withLock { $0 = true }
    _ = client.refetchQueriesPromise(QueryFilters(queryKey: ["k"]))
    scheduler.runUntilIdle()
    expectStoredEqualsBuilt(observer)
    #expect(observer.getCurrentResult().error != nil)

    // A manual write clears the error (not the failure count); the same write again changes
    // nothing but the time.
    client.setQueryData(["k"], value: 5)
    expectStoredEqualsBuilt(observer)
    scheduler.advance(by: 10)
    client.setQueryData(["k"], value: 5)
    expectStoredEqualsBuilt(observer)
    #expect(heard.all == [
      "success idle 1 0",  // invalidated: stale
      "success fetching 1 0",
      "success idle 2 0",
      "success fetching 2 0",
      "error idle 2 1",
      "success idle 5 1",
      "success idle 5 1",
    ])
  }

  /// A listener gets the result its box holds (`EngineLock`'s `.result` effect): an
  /// update made during the call (a write the listener itself makes to its query) goes into
  /// another box, so the result the listener is reading does not change under it, while the
  /// observer's current result and the nested call see the new one.
  @Test func aResultBeingDeliveredDoesNotChangeWhenTheListenerUpdatesItsObserver() {
    let (client, observer) = observingFreshData()
    let seen = Mutex<[String]>([])
    let unsubscribe = observer.subscribe { result in
      let before = result.data as? Int ?? 0
      let currentBefore = observer.getCurrentResult().data as? Int ?? 0
      if before == 2 { client.setQueryData(["k"], value: 3) }
      let after = result.data as? Int ?? 0
      let currentAfter = observer.getCurrentResult().data as? Int ?? 0
      seen.withLock { $0.append("\(before)/\(currentBefore)->\(after)/\(currentAfter)") }
    }
    defer { unsubscribe() }
    client.setQueryData(["k"], value: 2)
    // The nested call (3) completes inside the outer one (2), which still reads 2 while the
    // observer's current result is 3 (TanStack's synchronous order).
    #expect(seen.withLock { $0 } == ["3/3->3/3", "2/2->2/3"])
    #expect(observer.getCurrentResult().data as? Int == 3)
    expectStoredEqualsBuilt(observer)
  }

  /// An update that changes nothing is neither stored nor delivered.
  @Test func anUnchangedResultIsNotDelivered() {
    let (client, observer) = observingFreshData()
    defer { withExtendedLifetime(client) {} }
    let heard = Heard()
    let unsubscribe = observer.subscribe { heard.append($0) }
    defer { unsubscribe() }
    observer.lock.sync {
      observer.resultStateVersion = -1  // recompute, although nothing changed
      observer.updateResult()
    }
    #expect(heard.all.isEmpty)
    expectStoredEqualsBuilt(observer)
  }
}

private enum QuarryTestError: Error { case failed }

private final class Flag: Sendable {
  let value = Mutex(false)
}
