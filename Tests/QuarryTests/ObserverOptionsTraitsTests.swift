import Testing
@testable import Quarry

/// What an observer keeps with its options box: `timersInert` (`updateTimers` skips resolving
/// the options when they start no timer and call no function there) and `resultInputs` (what
/// `recordResultInputs` needs). Both follow every change of the options; where the timers are
/// inert the observer ends with no timer, as the full path would leave it, and where they are not
/// the timers are made as before; `resultInputs` agrees with the options it was made from.
@Suite struct ObserverOptionsTraitsTests {
  private static let staleTimes: [StaleTimeOption?] = [
    nil, .value(.static), .value(.milliseconds(.infinity)), .value(.milliseconds(-1)),
    .value(.milliseconds(.nan)), .value(.milliseconds(1_000)), .value(.milliseconds(0)),
    .function(FunctionBox { @Sendable _ in .milliseconds(.infinity) }),
  ]
  private static let intervals: [RefetchIntervalOption?] = [
    nil, .never, .milliseconds(500), .function(FunctionBox { @Sendable _ in nil }),
  ]
  private static let enableds: [QueryBoolOption?] = [nil, .value(true), .value(false), .function(FunctionBox { @Sendable _ in true })]

  @Test func theFlagFollowsTheOptionsAndInertOptionsLeaveNoTimer() {
    var inertCount = 0
    for staleTime in Self.staleTimes {
      for interval in Self.intervals {
        for enabled in Self.enableds {
          let scheduler = VirtualScheduler()
          let client = QueryClient(scheduler: scheduler)
          _ = client.setQueryData(["k"], value: 1)
          var options = QueryOptions(queryKey: ["k"])
          options.queryFn = .fn { _ in 1 }
          options.staleTime = staleTime
          options.refetchInterval = interval
          options.enabled = enabled
          let observer = QueryObserver(client: client, options: options)
          let unsubscribe = observer.subscribe { _ in }
          _ = client.setQueryData(["k"], value: 2)
          let inert = client.engine.lock.sync { observer.timersInert }
          #expect(inert == QueryObserver.timersAreInert(client.engine.lock.sync { observer.optionsBox }))
          client.engine.lock.sync {
            #expect(observer.resultInputsBox === observer.optionsBox)
            // (Compared as text: a NaN staleTime is unequal to itself.)
            #expect("\(observer.resultInputs)" == "\(observer.resultInputs(of: observer.optionsBox.options))")
            // Without functions, the result depends on the state and these options alone; it
            // does whatever the time exactly when disabled or the staleTime never ages.
            var expectedInputs = QueryObserver.ResultInputs.dependsOnMore
            if case .function? = staleTime {} else if case .function? = enabled {} else {
              var fixed: StaleTime?
              if case .value(let value)? = staleTime { fixed = value }
              expectedInputs =
                enabled == .value(false) || fixed == .static || fixed == .milliseconds(.infinity)
                ? .timeIndependent : .stateOnly(staleTime: fixed)
            }
            #expect("\(observer.resultInputs)" == "\(expectedInputs)")
          }
          var expected = true
          if case .function? = staleTime { expected = false }
          if case .value(.milliseconds(let ms))? = staleTime, ms.isFinite, ms >= 0 { expected = false }
          if case .function? = enabled { expected = false }
          switch interval {
          case nil, .never?: break
          default: expected = false
          }
          #expect(inert == expected, "\(String(describing: staleTime)) \(String(describing: interval)) \(String(describing: enabled))")
          client.engine.lock.sync {
            if inert {
              inertCount += 1
              #expect(observer.staleTimeout == nil && observer.refetchInterval == nil && observer.currentRefetchInterval == nil)
            }
            // A valid finite staleTime still gets its stale timer (the data is fresh).
            if case .value(.milliseconds(1_000))? = staleTime, enabled != .value(false) {
              #expect(observer.staleTimeout != nil)
            }
            // A fixed interval on an enabled observer still gets its interval.
            if case .milliseconds? = interval, enabled == nil || enabled == .value(true) {
              #expect(observer.refetchInterval != nil)
            }
          }
          unsubscribe()
        }
      }
    }
    #expect(inertCount > 0)
  }

  @Test func changingTheOptionsStartsAndStopsTheStaleTimer() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    _ = client.setQueryData(["k"], value: 1)
    var options = QueryOptions(queryKey: ["k"])
    options.queryFn = .fn { _ in 1 }
    options.staleTime = .value(.milliseconds(.infinity))
    let observer = QueryObserver(client: client, options: options)
    let results = ResultLog()
    let unsubscribe = observer.subscribe { results.append($0) }
    #expect(client.engine.lock.sync { observer.timersInert && observer.staleTimeout == nil })

    options.staleTime = .value(.milliseconds(1_000))
    observer.setOptions(options)
    #expect(client.engine.lock.sync { !observer.timersInert })
    _ = client.setQueryData(["k"], value: 2)
    #expect(client.engine.lock.sync { observer.staleTimeout != nil })
    _ = scheduler.advance(by: 1_001)
    #expect(results.last?.isStale == true)

    options.staleTime = .value(.static)
    observer.setOptions(options)
    _ = client.setQueryData(["k"], value: 3)
    #expect(client.engine.lock.sync { observer.timersInert && observer.staleTimeout == nil })
    unsubscribe()
  }
}

/// Results a listener received, in order.
private final class ResultLog: @unchecked Sendable {
  // Safe: the tests deliver every listener call on their own thread.
  private var results: [QueryObserverResult] = []
  func append(_ result: QueryObserverResult) { results.append(result) }
  var last: QueryObserverResult? { results.last }
}
