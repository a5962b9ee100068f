import Quarry

/// Workloads (a) keyed reads and writes, (b) `hashKey`, (e) `clear()`.
enum CacheWorkloads {
  static let keyCount = 100_000

  /// `["todos", i, ["page": i % 10]]`, built fresh on every call.
  @inline(never)
  static func key(_ i: Int) -> QueryKey { ["todos", .number(Double(i)), ["page": .number(Double(i % 10))]] }

  /// setQueryData (new key), getQueryData (hit), setQueryData (existing key), getQueryData (a
  /// freshly built equal key) on 100k keys; each round on a fresh client; the median round.
  static func run(rounds: Int) -> [Measurement] {
    let n = keyCount
    let keys = (0..<n).map(key)
    var results: [[Measurement]] = [[], [], [], []]
    for _ in 0..<rounds {
      let client = QueryClient(scheduler: VirtualScheduler())
      results[0].append(measure("setQueryData.new", n: n) {
        for i in 0..<n { client.setQueryData(keys[i], value: i) }
      })
      var sum = 0
      results[1].append(measure("getQueryData.hit", n: n) {
        for i in 0..<n { sum &+= client.getQueryData(keys[i]) as! Int }
      })
      results[2].append(measure("setQueryData.existing", n: n) {
        for i in 0..<n { client.setQueryData(keys[i], value: i + 1) }
      })
      results[3].append(measure("getQueryData.freshKey", n: n) {
        for i in 0..<n { sum &+= client.getQueryData(key(i)) as! Int }
      })
      precondition(sum == (0..<n).reduce(0, +) + (1...n).reduce(0, +))
      client.clear()
    }
    return results.map(median)
  }

  /// `hashKey` of 1M prebuilt keys.
  static func hashKey(rounds: Int) -> Measurement {
    let n = 1_000_000
    let keys = (0..<n).map(key)
    var total = 0
    let m = median((0..<rounds).map { _ in
      measure("hashKey", n: n) { for k in keys { total &+= k.queryHash.utf8.count } }
    })
    precondition(total > 0)
    return m
  }

  /// `clear()` of 100k queries (each with data and a gc timer).
  static func clear(rounds: Int) -> Measurement {
    let n = keyCount
    let keys = (0..<n).map(key)
    return median((0..<rounds).map { _ in
      let client = QueryClient(scheduler: VirtualScheduler())
      for i in 0..<n { client.setQueryData(keys[i], value: i) }
      let m = measure("clear", n: n) { client.clear() }
      precondition(client.queryCache.getAll().isEmpty)
      return m
    })
  }
}
