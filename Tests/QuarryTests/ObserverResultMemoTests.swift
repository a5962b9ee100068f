import Testing
@testable import Quarry

/// `updateResult` skips recomputing a result made from the same query state version and options
/// box when nothing else could change it (mounting right after `init`). Each test changes one
/// input between `init` and `subscribe` and fails if the observer keeps the old result.
@Suite struct ObserverResultMemoTests {
  private func options(_ key: QueryKey, staleTime: Double, refetchOnMount: RefetchOnOption? = nil) -> QueryOptions {
    var options = QueryOptions(queryKey: key)
    options.queryFn = .fn { _ in 0 }
    options.staleTime = .value(.milliseconds(staleTime))
    options.refetchOnMount = refetchOnMount
    return options
  }

  @Test func mountingRightAfterInitKeepsTheResultAndNotifiesNoOne() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    let observer = QueryObserver(client: client, options: options(["a"], staleTime: .infinity))
    let query = observer.getCurrentQuery()
    // The skip applies: the result's inputs are recorded with the query's version.
    #expect(client.engine.lock.sync { observer.resultStateVersion } == client.engine.lock.sync { query.stateVersion })
    let before = client.engine.lock.sync { observer.currentResultBox }
    let calls = Counter()
    let unsubscribe = observer.subscribe { _ in calls.increment() }
    #expect(client.engine.lock.sync { observer.currentResultBox } === before)
    #expect(calls.value == 0)
    // The kept result is what a recomputation gives.
    let fresh = client.engine.lock.sync { observer.createResult(query, observer.optionsBox.options) }
    #expect(observer.getCurrentResult().changedProperties(from: fresh).isEmpty)
    unsubscribe()
  }

  @Test func aStateChangeBetweenInitAndSubscribeIsSeenAtMount() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    let observer = QueryObserver(client: client, options: options(["a"], staleTime: .infinity))
    let version = client.engine.lock.sync { observer.getCurrentQuery().stateVersion }
    client.setQueryData(["a"], value: 2)
    #expect(client.engine.lock.sync { observer.getCurrentQuery().stateVersion } == version + 1)
    // Key 0: the listener's calls; key 1: the data of the last one.
    let seen = LockedMap<Int, Int>()
    let unsubscribe = observer.subscribe { result in
      seen.update(0, default: 0) { $0 += 1 }
      seen[1] = result.data as? Int
    }
    #expect(observer.getCurrentResult().data as? Int == 2)
    #expect(seen.snapshot == [0: 1, 1: 2])
    unsubscribe()
  }

  @Test func timePassingStaleTimeBetweenInitAndSubscribeIsSeenAtMount() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    client.setQueryData(["a"], value: 1)
    let observer = QueryObserver(client: client, options: options(["a"], staleTime: 5, refetchOnMount: .never))
    #expect(observer.getCurrentResult().isStale == false)
    _ = scheduler.advance(by: 10)
    let unsubscribe = observer.subscribe { _ in }
    #expect(observer.getCurrentResult().isStale == true)
    unsubscribe()
  }

  @Test func anOptionsChangeBetweenInitAndSubscribeIsSeenAtMount() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    client.setQueryData(["b"], value: 2)
    let observer = QueryObserver(client: client, options: options(["a"], staleTime: .infinity))
    var disabled = options(["a"], staleTime: .infinity)
    disabled.enabled = .value(false)
    observer.setOptions(disabled)
    let unsubscribe = observer.subscribe { _ in }
    #expect(observer.getCurrentResult().isEnabled == false)
    observer.setOptions(options(["b"], staleTime: .infinity))
    #expect(observer.getCurrentResult().data as? Int == 2)
    #expect(observer.getCurrentResult().isEnabled == true)
    unsubscribe()
  }

  @Test func aFiniteStaleTimeOrAnInfiniteObserverRecordsNothing() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    let finite = QueryObserver(client: client, options: options(["a"], staleTime: 5))
    #expect(client.engine.lock.sync { finite.resultStateVersion } == -1)
    var selecting = options(["a"], staleTime: .infinity)
    selecting.select = SelectFunction { @Sendable value in value }
    let selected = QueryObserver(client: client, options: selecting)
    #expect(client.engine.lock.sync { selected.resultStateVersion } == -1)
  }
}
