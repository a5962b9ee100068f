import Testing
@testable import Quarry

/// A query takes its observer's options box as it is when its key has no `setQueryDefaults`;
/// each must still report its own options and identity, before and after either changes.
@Suite struct ObserverOptionsSharingTests {
  private func observerOptions(_ key: QueryKey, staleTime: Double) -> QueryOptions {
    var options = QueryOptions(queryKey: key)
    options.queryFn = .fn { _ in 0 }
    options.staleTime = .value(.milliseconds(staleTime))
    return options
  }

  @Test func theQueryReadsTheObserversOptionsWithoutItsIdentity() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    let observer = QueryObserver(client: client, options: observerOptions(["a"], staleTime: 5))
    let query = observer.getCurrentQuery()
    #expect(query.sharedOptionsBox === observer.optionsBox)
    #expect(observer.optionsBox.options.identity != nil)
    #expect(query.options.identity == nil)
    #expect(query.options.staleTime == .value(.milliseconds(5)))
    #expect(query.options.queryKey == ["a"] && query.options.queryHash == #"["a"]"#)
    #expect(query.options.defaulted)
    // The observer's own options keep their identity: the same options are no change.
    #expect(observer.options.isShallowEqual(to: observer.options))
  }

  @Test func changingTheObserverReplacesTheBoxAndLeavesTheOldOneAlone() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    let observer = QueryObserver(client: client, options: observerOptions(["a"], staleTime: 5))
    let query = observer.getCurrentQuery()
    let first = observer.optionsBox
    let firstIdentity = first.options.identity
    observer.setOptions(observerOptions(["a"], staleTime: 9))
    #expect(first.options.staleTime == .value(.milliseconds(5)))
    #expect(first.options.identity === firstIdentity)
    #expect(observer.options.staleTime == .value(.milliseconds(9)))
    #expect(observer.options.identity !== firstIdentity)
    #expect(query.options.staleTime == .value(.milliseconds(9)))
    #expect(query.options.identity == nil)
  }

  @Test func changingTheQueryLeavesTheObserverAlone() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    let observer = QueryObserver(client: client, options: observerOptions(["a"], staleTime: 5))
    let query = observer.getCurrentQuery()
    var options = QueryOptions(queryKey: ["a"])
    options.retry = .count(7)
    client.engine.lock.sync { query.setOptions(options) }
    #expect(query.options.retry == .count(7))
    #expect(query.options.staleTime == nil)
    #expect(observer.options.retry == nil)
    #expect(observer.options.staleTime == .value(.milliseconds(5)))
    #expect(observer.options.identity != nil)
  }

  @Test func keyDefaultsGiveTheQueryAMergedBoxOfItsOwn() {
    let client = QueryClient(scheduler: VirtualScheduler())
    var defaults = QueryOptions()
    defaults.gcTime = 123
    client.setQueryDefaults(["a"], defaults)
    let observer = QueryObserver(client: client, options: observerOptions(["a"], staleTime: 5))
    let query = observer.getCurrentQuery()
    #expect(query.sharedOptionsBox !== observer.optionsBox)
    #expect(query.options.gcTime == 123 && query.options.identity == nil)
    #expect(query.options.staleTime == .value(.milliseconds(5)))
    #expect(observer.options.gcTime == 123)
  }

  @Test func aFetchWithAnObserversOptionsSharesThemToo() async throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let observer = QueryObserver(client: client, options: observerOptions(["a"], staleTime: 5))
    let unsubscribe = observer.subscribe { _ in }
    scheduler.runUntilIdle()
    let query = observer.getCurrentQuery()
    #expect(query.sharedOptionsBox === observer.optionsBox)
    #expect(query.state.data as? Int == 0)
    #expect(query.options.identity == nil)
    unsubscribe()
  }
}
