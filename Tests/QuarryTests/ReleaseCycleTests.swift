import Testing
@testable import Quarry

/// A query's gc timer holds the query, and the query holds its scheduler (through the engine),
/// so a client dropped with pending gc timers must not keep the scheduler and its queries alive
/// until the timers fire (per-test clients drop both without advancing the clock). Releasing
/// the client cancels its queries' gc timers: after that they could only find no cache.
@Suite struct ReleaseCycleTests {
  @Test func droppingAClientAndItsVirtualSchedulerWithPendingGcTimersReleasesBoth() async throws {
    weak var query: Query?
    weak var observed: Query?
    weak var weakScheduler: VirtualScheduler?
    do {
      let scheduler = VirtualScheduler()
      let client = QueryClient(scheduler: scheduler)
      _ = client.setQueryData(["set"], value: 1)
      var options = QueryOptions(queryKey: ["observed"])
      options.queryFn = .fn { _ in 2 }
      let observer = QueryObserver(client: client, options: options)
      let unsubscribe = observer.subscribe { _ in }
      scheduler.advance(by: 0)
      unsubscribe()  // the fetched query's gc timer starts
      query = client.queryCache.find(QueryFilters(queryKey: ["set"]))
      observed = client.queryCache.find(QueryFilters(queryKey: ["observed"]))
      weakScheduler = scheduler
      #expect(scheduler.pendingTimerCount == 2)
    }
    #expect(query == nil)
    #expect(observed == nil)
    #expect(weakScheduler == nil)
  }

  @Test func droppingTheClientCancelsItsGcTimersOnAKeptScheduler() {
    let scheduler = VirtualScheduler()
    weak var query: Query?
    do {
      let client = QueryClient(scheduler: scheduler)
      _ = client.setQueryData(["set"], value: 1)
      query = client.queryCache.getAll().first
      #expect(scheduler.pendingTimerCount == 1)
    }
    #expect(query == nil)
    #expect(scheduler.pendingTimerCount == 0)
  }

  @Test func droppingAClientAndItsClockSchedulerWithAPendingGcTimerReleasesBoth() {
    weak var query: Query?
    weak var weakScheduler: ClockScheduler<ContinuousClock>?
    do {
      let scheduler = ClockScheduler(clock: ContinuousClock())
      let client = QueryClient(scheduler: scheduler)
      _ = client.setQueryData(["set"], value: 1)  // a 5-minute gc timer
      query = client.queryCache.getAll().first
      weakScheduler = scheduler
      #expect(scheduler.pendingTimerCount == 1)
    }
    #expect(query == nil)
    #expect(weakScheduler == nil)
  }
}
