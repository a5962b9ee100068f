import Quarry

/// Workload (c): 10k queries, each with data, an observer and a subscription; then
/// `invalidateQueries(["todos"])` (the synchronous call, then until its refetches settled).
enum InvalidateWorkloads {
  static func run(rounds: Int) -> [Measurement] {
    let n = 10_000
    var results: [[Measurement]] = [[], [], []]
    for _ in 0..<rounds {
      let scheduler = VirtualScheduler()
      let client = QueryClient(scheduler: scheduler)
      let calls = Counter()
      var unsubscribes: [@Sendable () -> Void] = []
      unsubscribes.reserveCapacity(n)
      results[0].append(measure("invalidate.setup", n: n) {
        for i in 0..<n {
          let key = CacheWorkloads.key(i)
          client.setQueryData(key, value: i)
          var options = QueryOptions(queryKey: key)
          options.queryFn = .fn { _ in i + 1 }
          options.staleTime = .value(.milliseconds(.infinity))
          let observer = QueryObserver(client: client, options: options)
          unsubscribes.append(observer.subscribe { _ in calls.value += 1 })
        }
        scheduler.runUntilIdle()
      })
      precondition(calls.value == 0, "setup caused \(calls.value) listener calls")
      let resolved = Counter()
      results[1].append(measure("invalidate.call", n: n) {
        client.invalidateQueriesPromise(InvalidateQueryFilters(QueryFilters(queryKey: ["todos"])))
          .whenSettled { _ in resolved.value += 1 }
      })
      let call = results[1].last!
      var settled = measure("invalidate.settled", n: n) {
        scheduler.runUntilIdle()
      }
      settled.milliseconds += call.milliseconds
      results[2].append(settled)
      precondition(resolved.value == 1 && calls.value == 3 * n, "\(calls.value) listener calls")
      precondition(client.getQueryData(CacheWorkloads.key(7)) as? Int == 8)
      for unsubscribe in unsubscribes { unsubscribe() }
      client.clear()
    }
    return results.map(median)
  }
}
