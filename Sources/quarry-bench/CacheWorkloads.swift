import Quarry

/// Workloads (a) keyed reads and writes, (b) `hashKey`, (e) `clear()`.
enum CacheWorkloads {
  static let keyCount = 100_000

  /// `["todos", i, ["page": i % 10]]`, built fresh on every call.
  @inline(never)
  static func key(_ i: Int) -> QueryKey { ["todos", .number(Double(i)), ["page": .number(Double(i % 10))]] }

  /// setQueryData (new key), getQueryData (hit), setQueryData (existing key), getQueryData (a
  /// freshly built equal key) on 100k keys; each round on a fresh client; the median round. Then
  /// (Quarry only) `floor.freshKey.build`: building and freeing the fresh key alone, the part of
  /// `getQueryData.freshKey` that is not the read.
  static func run(rounds: Int) -> [Measurement] {
    let n = keyCount
    let keys = (0..<n).map(key)
    var results: [[Measurement]] = [[], [], [], [], []]
    for _ in 0..<rounds {
      let client = QueryClient(scheduler: VirtualScheduler())
      results[0].append(measure("setQueryData.new", n: n) { writeNew(client, keys) })
      var sum = 0
      results[1].append(measure("getQueryData.hit", n: n) { sum &+= readHit(client, keys) })
      results[2].append(measure("setQueryData.existing", n: n) { writeExisting(client, keys) })
      results[3].append(measure("getQueryData.freshKey", n: n) { sum &+= readFresh(client, n) })
      precondition(sum == (0..<n).reduce(0, +) + (1...n).reduce(0, +))
      var parts = 0
      results[4].append(measure("floor.freshKey.build", n: n) { parts &+= buildKeys(n) })
      precondition(parts == 3 * n)
      client.clear()
    }
    return results.map(median)
  }

  // Each workload's loop is a function of its own (never inlined), so a profile can count it
  // alone: `valgrind --tool=callgrind --toggle-collect='*CacheWorkloadsO8readHit*' ...`.

  @inline(never)
  static func writeNew(_ client: QueryClient, _ keys: [QueryKey]) {
    for i in keys.indices { client.setQueryData(keys[i], value: i) }
  }

  /// Hits read through the typed read, as an app reads (`getQueryData(_:as:)`, the README's),
  /// here and in `readFresh`; until the tenth pass the untyped read and `as! Int` (the runtime's
  /// general cast, 255 of a hit's 686 instructions; the typed read now costs 634).
  @inline(never)
  static func readHit(_ client: QueryClient, _ keys: [QueryKey]) -> Int {
    var sum = 0
    for i in keys.indices { sum &+= (try? client.getQueryData(keys[i], as: Int.self)) ?? 0 }
    return sum
  }

  @inline(never)
  static func writeExisting(_ client: QueryClient, _ keys: [QueryKey]) {
    for i in keys.indices { client.setQueryData(keys[i], value: i + 1) }
  }

  @inline(never)
  static func readFresh(_ client: QueryClient, _ n: Int) -> Int {
    var sum = 0
    for i in 0..<n { sum &+= (try? client.getQueryData(key(i), as: Int.self)) ?? 0 }
    return sum
  }

  /// Builds and frees `n` keys as `readFresh` does, without reading: the floor of a fresh-key read.
  @inline(never)
  static func buildKeys(_ n: Int) -> Int {
    var parts = 0
    for i in 0..<n { parts &+= key(i).parts.count }
    return parts
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
