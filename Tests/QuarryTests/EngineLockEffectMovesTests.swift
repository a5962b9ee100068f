import Testing
@testable import Quarry

/// The deliverer moves each effect out of its buffer to run it and back, and a batch moves the
/// listener effects out of the outbox (leaving placeholders): every effect still runs once, in
/// order, and is freed once, after all of its commit's effects have run.
@Suite struct EngineLockEffectMovesTests {
  /// Logs its deinit.
  private final class Token: @unchecked Sendable {
    // Safe: immutable; `Log` locks.
    let name: String
    let log: Log
    init(_ name: String, _ log: Log) {
      self.name = name
      self.log = log
    }
    deinit { log.append("freed \(name)") }
  }

  @Test func aCommitsEffectsRunInOrderAndAreFreedTogetherAfterAllRan() {
    let lock = EngineLock()
    let log = Log()
    do {
      let tokens = (0..<4).map { Token("\($0)", log) }
      lock.sync {
        for (i, token) in tokens.enumerated() {
          lock.record(i.isMultiple(of: 2) ? .listener : .plumbing) { [token] in log.append("run \(token.name)") }
        }
      }
    }
    #expect(Array(log.entries.prefix(4)) == ["run 0", "run 1", "run 2", "run 3"])
    #expect(Set(log.entries.dropFirst(4)) == ["freed 0", "freed 1", "freed 2", "freed 3"])
    #expect(log.entries.count == 8)
  }

  @Test func aBatchRunsPlumbingAtEachCommitAndListenersAtItsEndEachOnce() {
    let lock = EngineLock()
    let log = Log()
    lock.batch {
      for round in 0..<3 {
        do {
          let tokens = (0..<6).map { Token("\(round).\($0)", log) }
          lock.sync {
            for (i, token) in tokens.enumerated() {
              lock.record(i.isMultiple(of: 3) ? .plumbing : .listener) { [token] in log.append("run \(token.name)") }
            }
          }
        }
        // The plumbing of this commit ran (and was freed); its listener calls wait.
        let runs = log.entries.filter { $0.hasPrefix("run \(round).") }
        #expect(runs == ["run \(round).0", "run \(round).3"])
        #expect(log.entries.filter { $0.hasPrefix("freed \(round).") }.sorted() == ["freed \(round).0", "freed \(round).3"])
      }
    }
    let listenerRuns = log.entries.filter { $0.hasPrefix("run ") && !$0.hasSuffix(".0") && !$0.hasSuffix(".3") }
    #expect(listenerRuns == (0..<3).flatMap { round in [1, 2, 4, 5].map { "run \(round).\($0)" } })
    // Every token freed exactly once.
    let freed = log.entries.filter { $0.hasPrefix("freed ") }
    #expect(freed.count == 18)
    #expect(Set(freed).count == 18)
    // The outbox kept its buffer through the batch.
    #expect(lock.outboxCapacityForTesting >= 6)
  }
}
