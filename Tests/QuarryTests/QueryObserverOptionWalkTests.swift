import Testing
@testable import Quarry

/// `Query.isActiveLocked()` and `isStaticLocked()` read value options in place and call a
/// function option only from the first observer that has one: each answer and each call must be
/// what walking every observer with `resolveEnabled` / `resolveStaleTime` gives.
@Suite struct QueryObserverOptionWalkTests {
  private func observer(_ client: QueryClient, enabled: QueryBoolOption? = nil, staleTime: StaleTimeOption? = nil) -> QueryObserver {
    var options = QueryOptions(queryKey: ["a"])
    options.queryFn = .fn { _ in 0 }
    options.enabled = enabled
    options.staleTime = staleTime
    return QueryObserver(client: client, options: options)
  }

  @Test func activeAnswersAndCallsAsTheFullWalk() {
    let calls = Counter()
    let enabledCases: [[QueryBoolOption?]] = [
      [nil], [.value(false)], [.value(false), .value(false)], [.value(false), .value(true)],
      [.value(false), .function(FunctionBox { @Sendable _ in calls.increment(); return true })],
      [.value(false), .function(FunctionBox { @Sendable _ in calls.increment(); return false }), .value(false)],
      [.function(FunctionBox { @Sendable _ in calls.increment(); return false }), nil],
      [.value(true), .function(FunctionBox { @Sendable _ in calls.increment(); return false })],
    ]
    let expected: [(active: Bool, calls: Int)] = [
      (true, 0), (false, 0), (false, 0), (true, 0), (true, 1), (false, 1), (true, 1), (true, 0),
    ]
    for (options, expectation) in zip(enabledCases, expected) {
      let client = QueryClient(scheduler: VirtualScheduler())
      client.setQueryData(["a"], value: 1)
      let observers = options.map { observer(client, enabled: $0) }
      let unsubscribes = observers.map { $0.subscribe { _ in } }
      let query = observers[0].getCurrentQuery()
      var start = calls.value
      let reference = client.engine.lock.sync { query.observersStorage.contains { $0.resolveEnabled(for: query) != false } }
      let referenceCalls = calls.value - start
      start = calls.value
      let active = client.engine.lock.sync { query.isActiveLocked() }
      #expect(active == expectation.active && active == reference)
      #expect(calls.value - start == expectation.calls && calls.value - start == referenceCalls)
      #expect(client.engine.lock.sync { query.isDisabledLocked() } == !active)
      for unsubscribe in unsubscribes { unsubscribe() }
    }
  }

  @Test func staticAnswersAndCallsAsTheFullWalk() {
    let calls = Counter()
    let staleCases: [[StaleTimeOption?]] = [
      [nil], [.value(.static)], [.value(.milliseconds(5)), .value(.static)], [nil, .value(.milliseconds(5))],
      [.value(.milliseconds(5)), .function(FunctionBox { @Sendable _ in calls.increment(); return .static })],
      [.function(FunctionBox { @Sendable _ in calls.increment(); return .milliseconds(1) }), .value(.milliseconds(5))],
      [.function(FunctionBox { @Sendable _ in calls.increment(); return .milliseconds(1) }), .value(.static)],
      [.value(.static), .function(FunctionBox { @Sendable _ in calls.increment(); return .static })],
    ]
    let expected: [(isStatic: Bool, calls: Int)] = [
      (false, 0), (true, 0), (true, 0), (false, 0), (true, 1), (false, 1), (true, 1), (true, 0),
    ]
    for (options, expectation) in zip(staleCases, expected) {
      let client = QueryClient(scheduler: VirtualScheduler())
      client.setQueryData(["a"], value: 1)
      let observers = options.map { observer(client, staleTime: $0) }
      let unsubscribes = observers.map { $0.subscribe { _ in } }
      let query = observers[0].getCurrentQuery()
      var start = calls.value
      let reference = client.engine.lock.sync {
        query.observersStorage.contains { resolveStaleTime($0.optionsBox.options.staleTime, query) == .static }
      }
      let referenceCalls = calls.value - start
      start = calls.value
      let isStatic = client.engine.lock.sync { query.isStaticLocked() }
      #expect(isStatic == expectation.isStatic && isStatic == reference)
      #expect(calls.value - start == expectation.calls && calls.value - start == referenceCalls)
      for unsubscribe in unsubscribes { unsubscribe() }
    }
  }
}
