import Quarry

/// The per-operation cost as the cache grows: new keys written and then read back in a client
/// of 10k and of 1M queries (one round each; compare the ops/s of the two sizes).
enum ScaleWorkloads {
  static func run() -> [Measurement] {
    var out: [Measurement] = []
    for n in [10_000, 1_000_000] {
      let keys = (0..<n).map(CacheWorkloads.key)
      let client = QueryClient(scheduler: VirtualScheduler())
      // The cache workloads' loops (functions of their own, so a profile can count each size
      // alone: `--dump-after='*CacheWorkloadsO7readHit*'` writes one profile per size).
      out.append(measure("scale.setQueryData.new.\(n)", n: n) { CacheWorkloads.writeNew(client, keys) })
      var sum = 0
      out.append(measure("scale.getQueryData.hit.\(n)", n: n) { sum &+= CacheWorkloads.readHit(client, keys) })
      out.append(measure("scale.setQueryData.existing.\(n)", n: n) { CacheWorkloads.writeExisting(client, keys) })
      precondition(sum == (0..<n).reduce(0, +))
      // Quarry only: the same hits in a random order, so that neither the queries nor their
      // data boxes (allocated in key order) are read in the order of their memory.
      let shuffled = ScaleFloorWorkloads.randomOrder(n).map { keys[$0] }
      var shuffledSum = 0
      out.append(measure("scale.getQueryData.hit.shuffled.\(n)", n: n) { shuffledSum &+= CacheWorkloads.readHit(client, shuffled) })
      precondition(shuffledSum == (1...n).reduce(0, +))
      out.append(measure("scale.clear.\(n)", n: n) { client.clear() })
      // The same reads on a bare `[QueryKey: Int]` holding the same keys (Quarry only): what a
      // table lookup alone pays as it grows, with nothing of the engine around it.
      var table: [QueryKey: Int] = [:]
      for i in keys.indices { table[keys[i]] = i }
      var tableSum = 0
      out.append(measure("scale.floor.table.\(n)", n: n) { tableSum &+= readTable(table, keys) })
      precondition(tableSum == (0..<n).reduce(0, +))
      // What one miss costs at this size, with nothing of Quarry around it (`ScaleFloorWorkloads`).
      out += ScaleFloorWorkloads.run(n)
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
