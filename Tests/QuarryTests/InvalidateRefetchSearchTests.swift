import Synchronization
import Testing
@testable import Quarry

/// `invalidateQueries` refetches the queries it invalidated (of the refetch type) without a
/// second search of the cache when its filters are only a key; it must fetch exactly the
/// queries, in the order, that TanStack's second search (`refetchQueries`) finds.
@Suite struct InvalidateRefetchSearchTests {
  /// What the test's callbacks record.
  final class SearchLog: Sendable {
    let fetched = Mutex<[String]>([])
    let added = Mutex(false)
    init() {}
  }

  /// A client with `todos` 0-5 (2 and 4 observed, 4's observer disabled) and `users` 1 (observed).
  private func makeClient(log: SearchLog) -> (QueryClient, VirtualScheduler, [@Sendable () -> Void]) {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    for i in 0..<6 { client.setQueryData(["todos", .number(Double(i))], value: i) }
    client.setQueryData(["users", 1], value: 1)
    var unsubscribes: [@Sendable () -> Void] = []
    for (key, enabled) in [(["todos", 2] as QueryKey, true), (["todos", 4], false), (["users", 1], true)] {
      var options = QueryOptions(queryKey: key)
      let hash = key.queryHash
      options.queryFn = .fn { _ in
        log.fetched.withLock { $0.append(hash) }
        return 0
      }
      options.staleTime = .value(.milliseconds(.infinity))
      options.enabled = .value(enabled)
      unsubscribes.append(QueryObserver(client: client, options: options).subscribe { _ in })
    }
    return (client, scheduler, unsubscribes)
  }

  /// The queries fetching right after the call, in cache order, for each refetch type and filter.
  @Test func refetchesWhatTheSecondSearchFinds() {
    let cases: [(InvalidateQueryFilters, [String])] = [
      (InvalidateQueryFilters(QueryFilters(queryKey: ["todos"])), [#"["todos",2]"#]),
      (InvalidateQueryFilters(QueryFilters(queryKey: ["todos"]), refetchType: .active), [#"["todos",2]"#]),
      (InvalidateQueryFilters(QueryFilters(queryKey: ["todos"]), refetchType: .inactive),
       [#"["todos",0]"#, #"["todos",1]"#, #"["todos",3]"#, #"["todos",5]"#]),
      (InvalidateQueryFilters(QueryFilters(queryKey: ["todos"]), refetchType: .all),
       [#"["todos",0]"#, #"["todos",1]"#, #"["todos",2]"#, #"["todos",3]"#, #"["todos",5]"#]),
      (InvalidateQueryFilters(QueryFilters()), [#"["todos",2]"#, #"["users",1]"#]),
      // Not the invalidated queries: TanStack's second search finds the active ones.
      (InvalidateQueryFilters(QueryFilters(queryKey: ["todos"], type: .inactive), refetchType: .active), [#"["todos",2]"#]),
      (InvalidateQueryFilters(QueryFilters(queryKey: ["todos", 2], exact: true)), [#"["todos",2]"#]),
      // None: the invalidation made the fresh queries it found stale.
      (InvalidateQueryFilters(QueryFilters(queryKey: ["todos"], stale: false)), []),
    ]
    for (filters, expected) in cases {
      let log = SearchLog()
      let (client, scheduler, unsubscribes) = makeClient(log: log)
      defer { unsubscribes.forEach { $0() } }
      _ = client.invalidateQueriesPromise(filters)
      let fetching = client.queryCache.getAll().filter { $0.state.fetchStatus == FetchStatus.fetching }.map { $0.queryHash }
      #expect(fetching == expected, "\(filters)")
      // The observed ones (with a query function) ran it, in that order.
      scheduler.runUntilIdle()
      let activeExpected = expected.filter { $0 == #"["todos",2]"# || $0 == #"["users",1]"# }
      #expect(log.fetched.withLock { $0 } == activeExpected, "\(filters)")
    }
  }

  /// A query the invalidation's observer updates add (here through an observer's `staleTime`
  /// function) is found by the second search as in TanStack, and refetched.
  @Test func aQueryAddedDuringTheInvalidationIsRefetched() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    client.setQueryData(["todos", 1], value: 1)
    let log = SearchLog()
    var options = QueryOptions(queryKey: ["todos", 1])
    options.queryFn = .fn { _ in 2 }
    options.staleTime = .function(FunctionBox { @Sendable [weak client] query in
      if query.state.isInvalidated, !log.added.withLock({ $0 }) {
        log.added.withLock { $0 = true }
        client?.setQueryData(["todos", 2], value: 2)
      }
      return .milliseconds(.infinity)
    })
    let unsubscribe = QueryObserver(client: client, options: options).subscribe { _ in }
    defer { unsubscribe() }
    _ = client.invalidateQueriesPromise(InvalidateQueryFilters(QueryFilters(queryKey: ["todos"]), refetchType: .all))
    #expect(log.added.withLock { $0 })
    let second = client.queryCache.find(QueryFilters(queryKey: ["todos", 2]))
    #expect(second?.state.fetchStatus == .fetching)
    #expect(second?.state.isInvalidated == false)
    scheduler.runUntilIdle()
  }

  /// The refetch type is tested on the invalidated queries in place: right after the
  /// invalidation's own observer updates (what an invalidation with `refetchType: .none` asks),
  /// each query's `enabled` function is asked once, in cache order (as `filter` asked it); the
  /// refetch then asks the first query kept (its `isDisabled`), and the kept ones fetch in order.
  @Test func theRefetchTypeAsksEachQueryOnceInOrderAndKeepsTheOrder() {
    let enabled = [true, false, false, true, true, false, true]
    func invalidate(_ refetchType: InvalidateQueryFilters.RefetchType) -> (asked: [Int], fetched: [Int]) {
      let scheduler = VirtualScheduler()
      let client = QueryClient(scheduler: scheduler)
      let asked = Mutex<[Int]>([])
      let fetched = Mutex<[Int]>([])
      var unsubscribes: [@Sendable () -> Void] = []
      for (i, isEnabled) in enabled.enumerated() {
        var options = QueryOptions(queryKey: ["todos", .number(Double(i))])
        options.queryFn = .fn { _ in
          fetched.withLock { $0.append(i) }
          return i
        }
        options.staleTime = .value(.milliseconds(.infinity))
        options.enabled = .function(FunctionBox { @Sendable _ in
          asked.withLock { $0.append(i) }
          return isEnabled
        })
        client.setQueryData(["todos", .number(Double(i))], value: i)
        unsubscribes.append(QueryObserver(client: client, options: options).subscribe { _ in })
      }
      scheduler.runUntilIdle()
      asked.withLock { $0 = [] }
      _ = client.invalidateQueriesPromise(InvalidateQueryFilters(QueryFilters(queryKey: ["todos"]), refetchType: refetchType))
      scheduler.runUntilIdle()
      unsubscribes.forEach { $0() }
      return (asked.withLock { $0 }, fetched.withLock { $0 })
    }
    let invalidation = invalidate(.none).asked
    #expect(!invalidation.isEmpty)
    for refetchType in [InvalidateQueryFilters.RefetchType.active, .inactive] {
      let (asked, fetched) = invalidate(refetchType)
      let kept = enabled.indices.filter { enabled[$0] == (refetchType == .active) }
      #expect(Array(asked.prefix(invalidation.count)) == invalidation, "\(refetchType)")
      let typeTest = Array(asked.dropFirst(invalidation.count).prefix(enabled.count))
      #expect(typeTest == Array(enabled.indices), "\(refetchType)")
      #expect(asked.dropFirst(invalidation.count + enabled.count).first == kept.first, "\(refetchType)")
      // Inactive queries are disabled (their observers' `enabled` is false): none fetches.
      #expect(fetched == (refetchType == .active ? kept : []), "\(refetchType)")
    }
  }
}
