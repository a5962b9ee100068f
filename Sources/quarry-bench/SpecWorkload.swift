import Quarry
import QuarryScenarios

/// Workload (f): the whole specification replayed in process (reading and decoding every
/// fixture included), without comparing traces.
enum SpecWorkload {
  static func run(directory: String) -> Measurement {
    var count = 0
    var m = measure("specs.replay", n: 0) {
      do {
        let report = try Runner(options: RunnerOptions(directory: directory)).run()
        count = report.results.count
        precondition(report.failed == 0, "\(report.failed) scenarios failed")
      } catch {
        fatalError("specs: \(error)")
      }
    }
    m.n = count
    return m
  }
}
