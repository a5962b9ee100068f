import Quarry

/// The per-operation cost as the cache grows: new keys written and then read back in a client
/// of 10k and of 1M queries (compare the ops/s of the two sizes).
///
/// A 10k pass takes about 1 ms, so one descheduling moved a single round's rate by a third or
/// more: each 10k workload is the median of `smallRounds` rounds (a fresh client per round, as
/// TanStack's side does), each 1M workload one round (about a second).
enum ScaleWorkloads {
  /// Rounds of each workload at 10k (the median is reported).
  static let smallRounds = 11

  static func run() -> [Measurement] {
    var out: [Measurement] = []
    for n in [10_000, 1_000_000] {
      let keys = (0..<n).map(CacheWorkloads.key)
      let rounds = n <= 10_000 ? smallRounds : 1
      let shuffled = ScaleFloorWorkloads.randomOrder(n).map { keys[$0] }
      var results: [[Measurement]] = [[], [], [], [], []]
      var faults: [Measurement] = []
      for _ in 0..<rounds {
        // Fresh pages for every round's new keys, as the 1M pass's are (see `releaseFreeMemory`).
        releaseFreeMemory()
        let client = QueryClient(scheduler: VirtualScheduler())
        // The cache workloads' loops (functions of their own, so a profile can count each size
        // alone: `--dump-after='*CacheWorkloadsO7readHit*'` writes one profile per round).
        let before = PageFaults.now()
        results[0].append(measure("scale.setQueryData.new.\(n)", n: n) { CacheWorkloads.writeNew(client, keys) })
        // What the new keys' fresh memory cost in this round: its faults and their system time
        // (on a VM, a page its host has not backed yet costs several times one it has).
        faults.append(PageFaults.now().since(before, name: "scale.pagefaults.\(n)"))
        var sum = 0
        results[1].append(measure("scale.getQueryData.hit.\(n)", n: n) { sum &+= CacheWorkloads.readHit(client, keys) })
        results[2].append(measure("scale.setQueryData.existing.\(n)", n: n) { CacheWorkloads.writeExisting(client, keys) })
        precondition(sum == (0..<n).reduce(0, +))
        // Quarry only: the same hits in a random order, so that neither the queries nor their
        // data boxes (allocated in key order) are read in the order of their memory.
        var shuffledSum = 0
        results[3].append(measure("scale.getQueryData.hit.shuffled.\(n)", n: n) { shuffledSum &+= CacheWorkloads.readHit(client, shuffled) })
        precondition(shuffledSum == (1...n).reduce(0, +))
        results[4].append(measure("scale.clear.\(n)", n: n) { client.clear() })
      }
      out += results.map(median)
      // The faults of the round whose new keys' time is the median reported.
      out.append(faults[medianIndex(results[0])])
      // The same reads on a bare `[QueryKey: Int]` holding the same keys (Quarry only): what a
      // table lookup alone pays as it grows, with nothing of the engine around it.
      var table: [QueryKey: Int] = [:]
      for i in keys.indices { table[keys[i]] = i }
      var tableSum = 0
      out.append(median((0..<rounds).map { _ in
        measure("scale.floor.table.\(n)", n: n) { tableSum &+= readTable(table, keys) }
      }))
      precondition(tableSum == rounds * (0..<n).reduce(0, +))
      table = [:]
      // What one miss costs at this size, with nothing of Quarry around it (`ScaleFloorWorkloads`).
      out += ScaleFloorWorkloads.run(n, rounds: rounds)
      // What a new key and `clear` pay for the table and the memory at this size.
      out += ScaleFloorWorkloads.runNewKeys(keys, rounds: rounds)
    }
    return out
  }

  @inline(never)
  static func readTable(_ table: [QueryKey: Int], _ keys: [QueryKey]) -> Int {
    var sum = 0
    for i in keys.indices { sum &+= table[keys[i]] ?? 0 }
    return sum
  }
}
