import Quarry

/// Workload (d): 10k observers on 1k keys subscribe; then one write per key fans out to ten
/// listeners each (10k calls), unbatched and in one batch.
enum ObserverWorkloads {
  static func run(rounds: Int) -> [Measurement] {
    let keyCount = 1_000
    let n = 10_000
    var results: [[Measurement]] = [[], [], []]
    for _ in 0..<rounds {
      let scheduler = VirtualScheduler()
      let client = QueryClient(scheduler: scheduler)
      let keys = (0..<keyCount).map(CacheWorkloads.key)
      for i in 0..<keyCount { client.setQueryData(keys[i], value: 0) }
      let calls = Counter()
      var unsubscribes: [@Sendable () -> Void] = []
      unsubscribes.reserveCapacity(n)
      results[0].append(measure("observers.subscribe", n: n) {
        for i in 0..<n {
          var options = QueryOptions(queryKey: keys[i % keyCount])
          options.queryFn = .fn { _ in 0 }
          options.staleTime = .value(.milliseconds(.infinity))
          let observer = QueryObserver(client: client, options: options)
          unsubscribes.append(observer.subscribe { _ in calls.value += 1 })
        }
        scheduler.runUntilIdle()
      })
      precondition(calls.value == 0)
      results[1].append(measure("observers.write", n: n) {
        for i in 0..<keyCount { client.setQueryData(keys[i], value: 1) }
        scheduler.runUntilIdle()
      })
      precondition(calls.value == n, "\(calls.value) listener calls")
      results[2].append(measure("observers.writeBatched", n: n) {
        client.batch {
          for i in 0..<keyCount { client.setQueryData(keys[i], value: 2) }
        }
        scheduler.runUntilIdle()
      })
      precondition(calls.value == 2 * n, "\(calls.value) listener calls")
      for unsubscribe in unsubscribes { unsubscribe() }
      client.clear()
    }
    return results.map(median)
  }
}
