#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Quarry-only floors for `scale.*` (issue 14's "per-op cost at 1M within 2x of 10k"): what the
/// machine charges for memory as the heap grows, with nothing of the engine around it.
///
/// - `scale.floor.chase.N`: ONE dependent miss. `N` blocks of a query's allocation size, each
///   followed by a block of a data box's size (the two blocks a cached query holds, allocated
///   in the same order, so the heap spans what a cache of `N` queries spans), linked in one
///   random cycle through their first word; the timed loop follows `N` links, each load's
///   address the previous load's value, so no two misses overlap. At 1M the blocks span about
///   450 MB: each step is a last-level miss and, with 4 KiB pages, a TLB miss and page walk.
/// - `scale.floor.probe.N`: one random, *independent* line per operation: `N` reads, the `i`th
///   at a pseudo-random block of the same heap (the addresses come from a sequentially read
///   array, so the processor may overlap the misses of consecutive reads), summing a word.
/// - `scale.floor.probe.locked.N`: the same reads, each inside a `pthread_mutex` lock and unlock
///   as every keyed read of the engine runs (its lock is a `pthread_mutex`): the locked
///   instructions order memory, so what the unlocked loop overlaps is paid one read at a time.
enum ScaleFloorWorkloads {
  /// `rounds`: each workload's median of that many rounds over the same blocks.
  static func run(_ n: Int, rounds: Int) -> [Measurement] {
    let sizes = FloorWorkloads.objectSizes()
    var queries: [UnsafeMutableRawPointer] = []
    var boxes: [UnsafeMutableRawPointer] = []
    queries.reserveCapacity(n)
    boxes.reserveCapacity(n)
    for _ in 0..<n {
      queries.append(malloc(sizes.query)!)
      boxes.append(malloc(sizes.box)!)
    }
    // One random cycle through every query block.
    let order = randomOrder(n)
    for k in 0..<n {
      queries[order[k]].storeBytes(of: queries[order[(k + 1) % n]], as: UnsafeMutableRawPointer.self)
      queries[k].storeBytes(of: k, toByteOffset: 8, as: Int.self)
    }
    var results: [[Measurement]] = [[], [], [], []]
    var end = queries[0]
    // Each block once, in the random order, read independently.
    let targets = order.map { queries[$0] }
    var sum = 0
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    var mixed = 0
    for _ in 0..<rounds {
      results[0].append(measure("scale.floor.chase.\(n)", n: n) { end = chase(queries[0], steps: n) })
      precondition(end == queries[0], "the chase is one cycle of every block")
      results[1].append(measure("scale.floor.probe.\(n)", n: n) { sum &+= probe(targets) })
      results[2].append(measure("scale.floor.probe.locked.\(n)", n: n) { sum &+= probeLocked(targets, mutex) })
      results[3].append(measure("scale.floor.probe.work.\(n)", n: n) { mixed &+= probeWorking(targets, mutex) })
    }
    precondition(sum == 2 * rounds * (0..<n).reduce(0, +) && mixed != 1)
    let out = results.map(median)
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    for block in queries { free(block) }
    for block in boxes { free(block) }
    return out
  }

  /// `0..<n` in a fixed random order that is one cycle (Sattolo's shuffle): following
  /// `order[k]` to `order[k + 1]` visits every index once.
  static func randomOrder(_ n: Int) -> [Int] {
    var order = Array(0..<n)
    var random = SplitMix64(seed: 14)
    for i in stride(from: n - 1, to: 0, by: -1) {
      order.swapAt(i, Int(random.next() % UInt64(i)))
    }
    return order
  }

  @inline(never)
  static func chase(_ start: UnsafeMutableRawPointer, steps: Int) -> UnsafeMutableRawPointer {
    var p = start
    for _ in 0..<steps { p = p.load(as: UnsafeMutableRawPointer.self) }
    return p
  }

  @inline(never)
  static func probe(_ targets: [UnsafeMutableRawPointer]) -> Int {
    var sum = 0
    for i in targets.indices { sum &+= targets[i].load(fromByteOffset: 8, as: Int.self) }
    return sum
  }

  @inline(never)
  static func probeLocked(_ targets: [UnsafeMutableRawPointer], _ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int {
    var sum = 0
    for i in targets.indices {
      pthread_mutex_lock(mutex)
      sum &+= targets[i].load(fromByteOffset: 8, as: Int.self)
      pthread_mutex_unlock(mutex)
    }
    return sum
  }
}

extension ScaleFloorWorkloads {
  /// `probeLocked` with about 500 instructions of other work per read (a hit's count), none of
  /// which waits for the read: the processor's window (Zen 5: 448 micro-ops) then holds at most
  /// one read, so each read's miss is paid in full.
  @inline(never)
  static func probeWorking(_ targets: [UnsafeMutableRawPointer], _ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int {
    var sum = 0
    var h = 1
    for i in targets.indices {
      pthread_mutex_lock(mutex)
      sum &+= targets[i].load(fromByteOffset: 8, as: Int.self)
      pthread_mutex_unlock(mutex)
      for _ in 0..<workRounds { h = mixedWork(h) }
    }
    return sum &+ h
  }

  /// Rounds of `mixedWork` per read: about 500 instructions (callgrind: see Benchmarks/README.md).
  static let workRounds = 56

  @inline(__always)
  static func mixedWork(_ value: Int) -> Int {
    var h = UInt64(bitPattern: Int64(value))
    h ^= h >> 33
    h &*= 0xff51_afd7_ed55_8ccd
    h ^= h >> 29
    return Int(Int64(bitPattern: h))
  }
}

/// A fixed pseudo-random sequence (SplitMix64), so every run shuffles alike.
struct SplitMix64 {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}
