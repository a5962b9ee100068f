import Quarry

/// The per-operation cost as the cache grows: new keys written and then read back in a client
/// of 10k and of 1M queries (one round each; compare the ops/s of the two sizes).
enum ScaleWorkloads {
  static func run() -> [Measurement] {
    var out: [Measurement] = []
    for n in [10_000, 1_000_000] {
      let keys = (0..<n).map(CacheWorkloads.key)
      let client = QueryClient(scheduler: VirtualScheduler())
      out.append(measure("scale.setQueryData.new.\(n)", n: n) {
        for i in 0..<n { client.setQueryData(keys[i], value: i) }
      })
      var sum = 0
      out.append(measure("scale.getQueryData.hit.\(n)", n: n) {
        for i in 0..<n { sum &+= client.getQueryData(keys[i]) as! Int }
      })
      out.append(measure("scale.setQueryData.existing.\(n)", n: n) {
        for i in 0..<n { client.setQueryData(keys[i], value: i + 1) }
      })
      precondition(sum == (0..<n).reduce(0, +))
      out.append(measure("scale.clear.\(n)", n: n) { client.clear() })
    }
    return out
  }
}
