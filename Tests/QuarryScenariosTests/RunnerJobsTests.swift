import Dispatch
import Foundation
import Quarry
import Synchronization
import Testing
@testable import QuarryScenarios

/// `--jobs`: fixtures replayed at once give the report, the order of `onResult` and the
/// errors of a replay one after another.
@Suite struct RunnerJobsTests {
  /// Twelve copies of the README's fixture (`dedup-001`…`dedup-012`, each a real replay on its
  /// own client), one malformed fixture and a second `dedup-003` in another folder.
  static func specs() -> TemporaryDirectory {
    let directory = TemporaryDirectory()
    for n in 1...12 {
      let id = "dedup-" + String(1000 + n).dropFirst()
      let text = SampleFixtures.dedup.replacingOccurrences(of: "dedup-001", with: id)
      // Every third one fails a check, so the report mixes statuses.
      directory.write("dedup/\(id).json", n % 3 == 0 ? text.replacingOccurrences(of: #""todos": 1 }"#, with: #""todos": 2 }"#) : text)
    }
    directory.write("other/dedup-003.json", SampleFixtures.dedup.replacingOccurrences(of: "dedup-001", with: "dedup-003"))
    directory.write("retry/retry-001.json", #"{"format":1,"id":"retry-001","title":"broken","steps":[{"clear":{"x":1}}]}"#)
    return directory
  }

  /// Every line of each result, in the order `onResult` received them, and the report's.
  static func replay(_ directory: String, jobs: Int, traceDirectory: String? = nil) -> (delivered: [String], report: [String], error: String?) {
    var delivered: [String] = []
    do {
      let runner = Runner(options: RunnerOptions(directory: directory, repeatCount: 2, traceDirectory: traceDirectory, jobs: jobs))
      let report = try runner.run { delivered.append(contentsOf: $0.lines) }
      return (delivered, report.results.flatMap(\.lines), nil)
    } catch {
      return (delivered, [], error.message)
    }
  }

  @Test(arguments: [2, 3, 16])
  func jobsGiveTheSameReportInTheSameOrder(jobs: Int) {
    let specs = Self.specs()
    defer { specs.cleanup() }
    let serial = Self.replay(specs.path, jobs: 1)
    let parallel = Self.replay(specs.path, jobs: jobs)
    #expect(serial.error == nil)
    #expect(serial.report.count > 14)
    #expect(serial.report.contains { $0.hasPrefix("FAIL dedup-006") })
    #expect(serial.report.contains { $0.hasPrefix("ERROR retry-001") })
    #expect(serial.report.contains { $0.contains("the ID dedup-003 is also used by") })
    #expect(serial.delivered == serial.report)
    #expect(parallel.delivered == serial.delivered)
    #expect(parallel.report == serial.report)
    #expect(parallel.error == nil)
  }

  @Test(arguments: [1, 2, 5])
  func anErrorStopsTheRunAtItsFixture(jobs: Int) {
    let specs = Self.specs()
    let traces = TemporaryDirectory()
    defer { specs.cleanup(); traces.cleanup() }
    // A folder where dedup-005's trace file would go: writing it fails.
    try? FileManager.default.createDirectory(atPath: traces.path + "/dedup-005.jsonl", withIntermediateDirectories: true)
    let run = Self.replay(specs.path, jobs: jobs, traceDirectory: traces.path)
    #expect(run.error == "cannot write \(traces.path)/dedup-005.jsonl")
    #expect(run.delivered.filter { !$0.hasPrefix(" ") } == [
      "PASS dedup-001 concurrent fetches of one key share a single call",
      "PASS dedup-002 concurrent fetches of one key share a single call",
      "FAIL dedup-003 concurrent fetches of one key share a single call",
      "ERROR dedup-003",
      "PASS dedup-004 concurrent fetches of one key share a single call",
    ])
  }

  /// Two fixtures are replayed at the same time: each of the first two waits, inside its
  /// replay, until the other has started (with one job at a time, neither could).
  @Test func twoJobsReplayTwoFixturesAtOnce() {
    let specs = Self.specs()
    defer { specs.cleanup() }
    let started = Mutex<Set<String>>([])
    let bothStarted = DispatchSemaphore(value: 0)
    let metInTime = Mutex(true)
    let runner = Runner(options: RunnerOptions(directory: specs.path, filters: ["dedup-001", "dedup-002"], jobs: 2)) { scenario in
      let count = started.withLock { $0.insert(scenario.id); return $0.count }
      if count == 2 {
        bothStarted.signal()
        bothStarted.signal()
      }
      // A guard against a hang, not a timing: the other replay starts as soon as a thread is
      // free (300 s, as QuarryTests' `hangGuardSeconds`: 60 s bounds failed in full runs on two
      // cores, where other suites keep the threads busy).
      if bothStarted.wait(timeout: .now() + 300) == .timedOut { metInTime.withLock { $0 = false } }
      return Interpreter.run(scenario)
    }
    let report = try? runner.run()
    #expect(metInTime.withLock { $0 })
    #expect(report?.results.map(\.status) == [.pass, .pass])
  }
}
