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
    var changes = 0
    for enabled in enableds {
      for staleTime in staleTimes {
        let scheduler = VirtualScheduler()
        let client = QueryClient(scheduler: scheduler)
        var options = QueryOptions(queryKey: ["k"])
        options.queryFn = .fn { _ in 1 }
        options.enabled = enabled
        options.staleTime = staleTime
        let observer = QueryObserver(client: client, options: options)
        var previous: QueryObserverResult?
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
            // The state path's comparison and in-place write (`updateStateResult`), from the
            // previous step's result and from this one's: as `hasChangedProperties(to:)` of the
            // made result, and the made result itself.
            for old in [previous ?? fast, fast] {
              let box = QueryObserverResultBox.make(old)
              let changed = QueryObserverResultBox.hasChangedProperties(
                box.resultPointer, toStateResultOf: query, isFetched: fast.isFetched,
                isFetchedAfterMount: fast.isFetchedAfterMount, isStale: fast.isStale, isEnabled: fast.isEnabled)
              #expect(changed == box.hasChangedProperties(to: fast))
              if changed { changes += 1 }
              box.replaceWithStateResult(
                of: query, isFetched: fast.isFetched, isFetchedAfterMount: fast.isFetchedAfterMount,
                isStale: fast.isStale, isEnabled: fast.isEnabled)
              #expect(box.result.changedProperties(from: fast).isEmpty && !box.hasChangedProperties(to: fast))
              #expect(box.result.dataBox === fast.dataBox && box.result.errorBox === fast.errorBox)
              #expect(box.result.failureReasonBox === fast.failureReasonBox && box.result.infinite == nil)
            }
            previous = Bool.random(using: &generator) ? fast : expected
            compared += 1
          }
        }
      }
    }
    #expect(compared == 3 * 6 * 200)
    #expect(changes > 1_000)
  }

  /// The state data the current result was made from (`currentResultStateData`, which `select`
  /// compares with) is the query's data after every update: whether the result changed (kept as
  /// the result's own `dataBox`) or not (an equal value in another box, which a write never
  /// makes but a replaced state does: kept apart), with and without listeners on every change
  /// (`notifyOnChangeProps`), and across a switch to `select` and back.
  @Test func theStateDataTheResultWasMadeFromFollowsTheQuery() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var generator = SystemRandomNumberGenerator()
    for props in [nil, NotifyOnChangeProps.props(["data"]), .props(["status"])] {
      client.setQueryData(["k"], value: 0)
      var options = QueryOptions(queryKey: ["k"])
      options.staleTime = .value(.milliseconds(.infinity))
      options.notifyOnChangeProps = props
      let observer = QueryObserver(client: client, options: options)
      let unsubscribe = observer.subscribe { _ in }
      var unchangedWithAnotherBox = 0
      for step in 0..<300 {
        if step % 100 == 50 {
          var selecting = options
          selecting.select = SelectFunction { @Sendable value in value }
          observer.setOptions(step % 200 == 50 ? selecting : options)
        }
        client.engine.lock.sync {
          let query = observer.currentQuery!
          if Bool.random(using: &generator) {
            client.setQueryData(["k"], value: Int.random(in: 0..<2, using: &generator))
          } else {
            // The same state with its data in a new box, often of an equal value.
            var state = query.stateStorage
            state.dataBox = DataBox(Int.random(in: 0..<2, using: &generator))
            query.setState(state)
          }
          let data = query.stateStorage.dataBox
          #expect(observer.currentResultStateData === data)
          if observer.currentResultBox?.result.dataBox !== data { unchangedWithAnotherBox += 1 }
        }
      }
      unsubscribe()
      // Results left unchanged by an equal value in another box happened (the case kept apart).
      #expect(unchangedWithAnotherBox > 10, "\(unchangedWithAnotherBox)")
    }
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
