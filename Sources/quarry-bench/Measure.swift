import Quarry
import Dispatch

/// Nanoseconds on a monotonic clock (the benchmark, not the library, reads the wall clock).
func nowNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// One measured workload: its name, how many operations, and how long they took.
struct Measurement {
  var name: String
  var n: Int
  var milliseconds: Double
  var opsPerSecond: Double { milliseconds > 0 ? Double(n) / (milliseconds / 1000) : 0 }
  /// `name<TAB>n<TAB>ms<TAB>ops/s`, the line both benchmarks print.
  var line: String {
    "\(name)\t\(n)\t\(String(format: "%.3f", milliseconds))\t\(String(format: "%.0f", opsPerSecond))"
  }
}

/// Times `body` (which performs `n` operations). Not inlined: callgrind's `--toggle-collect` finds
/// each workload's closure by its symbol (the README's counts), which inlining `measure` removed.
@inline(never)
func measure(_ name: String, n: Int, _ body: () -> Void) -> Measurement {
  let start = nowNanoseconds()
  body()
  let end = nowNanoseconds()
  return Measurement(name: name, n: n, milliseconds: Double(end - start) / 1_000_000)
}

/// The round with the median time among `rounds`.
func median(_ rounds: [Measurement]) -> Measurement {
  rounds[medianIndex(rounds)]
}

/// Where in `rounds` the round `median(_:)` picks is (to read what else that round measured).
func medianIndex(_ rounds: [Measurement]) -> Int {
  rounds.indices.sorted { rounds[$0].milliseconds < rounds[$1].milliseconds }[rounds.count / 2]
}

/// A counter bumped by listeners; the benchmark delivers every listener call on its own thread.
final class Counter: @unchecked Sendable {
  // Safe: only the benchmark's thread touches it (listeners run on the thread that commits).
  var value = 0
}
