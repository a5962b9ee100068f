import Testing
@testable import Quarry

/// `QueryObserver.createStateResult` is `createResult` for options without functions, `select`
/// or `placeholderData`: for random query states (data or none, errors, fetch statuses,
/// invalidation, counts, times) and each such option set, both give the same result, member by
/// member and box by box, and `updateResult` takes it only where those conditions hold.
@Suite struct ObserverStateResultTests {
  private struct TestError: Error {}

  @Test func theStatePathAgreesWithCreateResult() {
    var generator = SystemRandomNumberGenerator()
    let enableds: [QueryBoolOption?] = [nil, .value(true), .value(false)]
    let staleTimes: [StaleTimeOption?] = [
      nil, .value(.static), .value(.milliseconds(.infinity)), .value(.milliseconds(0)),
      .value(.milliseconds(1_000)), .value(.milliseconds(-5)),
    ]
    var compared = 0
    for enabled in enableds {
      for staleTime in staleTimes {
        let scheduler = VirtualScheduler()
        let client = QueryClient(scheduler: scheduler)
        var options = QueryOptions(queryKey: ["k"])
        options.queryFn = .fn { _ in 1 }
        options.enabled = enabled
        options.staleTime = staleTime
        let observer = QueryObserver(client: client, options: options)
        for _ in 0..<200 {
          let data: DataBox? = Bool.random(using: &generator) ? DataBox(Int.random(in: 0..<3, using: &generator)) : nil
          var state = QueryState()
          state.dataBox = data
          state.status = [QueryStatus.pending, .success, .error].randomElement(using: &generator)!
          state.fetchStatus = [FetchStatus.idle, .fetching, .paused].randomElement(using: &generator)!
          state.dataUpdateCount = Int.random(in: 0..<3, using: &generator)
          state.errorUpdateCount = Int.random(in: 0..<3, using: &generator)
          state.dataUpdatedAt = Double(Int.random(in: 0..<3_000, using: &generator))
          state.errorUpdatedAt = Double(Int.random(in: 0..<3_000, using: &generator))
          state.fetchFailureCount = Int.random(in: 0..<3, using: &generator)
          if Bool.random(using: &generator) { state.error = TestError() }
          if Bool.random(using: &generator) { state.fetchFailureReason = TestError() }
          state.isInvalidated = Bool.random(using: &generator)
          _ = scheduler.advance(by: Double(Int.random(in: 0..<2_000, using: &generator)))
          client.engine.lock.sync {
            let query = observer.currentQuery!
            query.setState(state)
            #expect(observer.resultInputsBox === observer.optionsBox && observer.resultInputs != .dependsOnMore)
            let expected = observer.createResult(query, observer.optionsBox.options)
            let fast = observer.createStateResult(query)
            #expect(fast.changedProperties(from: expected).isEmpty)
            #expect(fast.dataBox === expected.dataBox && fast.errorBox === expected.errorBox)
            #expect(fast.failureReasonBox === expected.failureReasonBox && fast.infinite == expected.infinite)
            compared += 1
          }
        }
      }
    }
    #expect(compared == 3 * 6 * 200)
  }

  @Test func optionsWithFunctionsSelectOrPlaceholderTakeTheFullPath() {
    let client = QueryClient(scheduler: VirtualScheduler())
    var variants: [QueryOptions] = []
    var base = QueryOptions(queryKey: ["k"])
    base.queryFn = .fn { _ in 1 }
    var withSelect = base
    withSelect.select = SelectFunction { @Sendable value in value }
    variants.append(withSelect)
    var withPlaceholder = base
    withPlaceholder.placeholderData = .value(0)
    variants.append(withPlaceholder)
    var withEnabledFunction = base
    withEnabledFunction.enabled = .function(FunctionBox { @Sendable _ in true })
    variants.append(withEnabledFunction)
    var withStaleTimeFunction = base
    withStaleTimeFunction.staleTime = .function(FunctionBox { @Sendable _ in .milliseconds(1) })
    variants.append(withStaleTimeFunction)
    for options in variants {
      let observer = QueryObserver(client: client, options: options)
      #expect(client.engine.lock.sync { observer.resultInputs } == .dependsOnMore)
    }
    let infinite = InfiniteQueryObserver(client: client, options: PagedServer.options(Log(), key: ["i"]))
    #expect(client.engine.lock.sync { infinite.resultInputs } == .dependsOnMore)
  }
}
