import Quarry
import QuarryScenarios

/// Workload (f): the whole specification replayed in process (reading and decoding every
/// fixture included), without comparing traces: as `scenario-runner` replays it (its fixtures
/// `RunnerOptions.defaultJobs` at once, one per processor), and one after another.
enum SpecWorkload {
  /// `specs.replay`: the runner's default, every processor.
  static func run(directory: String) -> Measurement {
    replay("specs.replay", directory: directory, jobs: RunnerOptions.defaultJobs)
  }

  /// `specs.replay.serial`: one fixture at a time on this thread (Quarry only).
  static func serial(directory: String) -> Measurement {
    replay("specs.replay.serial", directory: directory, jobs: 1)
  }

  private static func replay(_ name: String, directory: String, jobs: Int) -> Measurement {
    var count = 0
    var m = measure(name, n: 0) {
      do {
        let report = try Runner(options: RunnerOptions(directory: directory, jobs: jobs)).run()
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
