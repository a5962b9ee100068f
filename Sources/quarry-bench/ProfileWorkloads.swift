import Foundation
import Quarry

/// Quarry-only, for profiling `clear` at one size without the whole `scale` group
/// (`--only profile.clear`): `scale.clear`'s client built the same way (new keys written, read
/// back, written again, read in a random order), then cleared; `QUARRY_PROFILE_N` sets the size
/// (1M by default), `rounds` how many times.
enum ProfileWorkloads {
  static func clear(rounds: Int) -> [Measurement] {
    let n = Int(ProcessInfo.processInfo.environment["QUARRY_PROFILE_N"] ?? "") ?? 1_000_000
    let keys = (0..<n).map(CacheWorkloads.key)
    let shuffled = ScaleFloorWorkloads.randomOrder(n).map { keys[$0] }
    var out: [Measurement] = []
    for _ in 0..<rounds {
      releaseFreeMemory()
      let client = QueryClient(scheduler: VirtualScheduler())
      CacheWorkloads.writeNew(client, keys)
      var sum = CacheWorkloads.readHit(client, keys)
      CacheWorkloads.writeExisting(client, keys)
      sum &+= CacheWorkloads.readHit(client, shuffled)
      precondition(sum == (0..<n).reduce(0, +) + (1...n).reduce(0, +))
      out.append(measure("profile.clear.\(n)", n: n) { client.clear() })
    }
    return out
  }
}
