// quarry-bench: the cache's hot paths, the same workloads as Conformance/tanstack/bench.mjs, plus
// QuarryLive's change-to-delivery latency and diff cost. One line per workload:
// name, n, ms, ops/s (tab-separated). See Benchmarks/README.md.
//
//   swift run -c release quarry-bench [--only PREFIX,...] [--rounds N] [--specs DIR]
import Quarry
import Foundation

var only: [String] = []
var rounds = 3
var specs = "Specs"
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
  switch argument {
  case "--only": only = (arguments.next() ?? "").split(separator: ",").map(String.init)
  case "--rounds": rounds = Int(arguments.next() ?? "") ?? rounds
  case "--specs": specs = arguments.next() ?? specs
  default:
    FileHandle.standardError.write(Data("usage: quarry-bench [--only PREFIX,...] [--rounds N] [--specs DIR]\n".utf8))
    exit(2)
  }
}

/// Whether a workload group runs (all when `--only` is not given).
@MainActor func selected(_ group: String) -> Bool { only.isEmpty || only.contains { group.hasPrefix($0) } }

/// Prints a result line at once.
func report(_ m: Measurement) {
  FileHandle.standardOutput.write(Data((m.line + "\n").utf8))
}

if selected("cache") { CacheWorkloads.run(rounds: rounds).forEach(report) }
if selected("hashKey") { report(CacheWorkloads.hashKey(rounds: rounds)) }
if selected("invalidate") { InvalidateWorkloads.run(rounds: rounds).forEach(report) }
if selected("observers") { ObserverWorkloads.run(rounds: rounds).forEach(report) }
if selected("clear") { report(CacheWorkloads.clear(rounds: rounds)) }
if selected("floor") { FloorWorkloads.run(rounds: rounds).forEach(report) }
if selected("specs") {
  report(SpecWorkload.run(directory: specs))
  report(SpecWorkload.serial(directory: specs))
}
if selected("live") { LiveWorkloads.run().forEach(report) }
if selected("scale") { ScaleWorkloads.run().forEach(report) }
if selected("typed") { TypedWorkloads.run(rounds: rounds).forEach(report) }
if only.contains(where: { "profile.clear".hasPrefix($0) && $0.hasPrefix("profile") }) { ProfileWorkloads.clear(rounds: rounds).forEach(report) }
