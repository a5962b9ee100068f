import Dispatch
import Testing
@testable import Quarry

/// The deliverer moves each effect out of its buffer to run it and back, and a transaction inside
/// a batch records its listener effects in the batch directly: every effect still runs once, in
/// order (plumbing at its commit, listener calls at the batch's end), and is freed once, after
/// all of its commit's effects have run.
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
    // The outbox, which held only the plumbing, kept its buffer through the batch.
    #expect(lock.outboxCapacityForTesting >= 2)
  }

  @Test func aTransactionInsideABatchRecordsItsListenerCallsForTheBatchsEnd() {
    let lock = EngineLock()
    let log = Log()
    lock.batch {
      lock.sync {
        #expect(lock.canActNow)
        lock.record(.listener) { log.append("L1") }
        // A listener call recorded: plumbing created now would run before it, so it is recorded.
        #expect(!lock.canActNow)
        lock.batch { lock.record(.listener) { log.append("L2") } }
        lock.record(.plumbing) { log.append("P1") }
        lock.record(.listener) { log.append("L3") }
      }
      #expect(log.entries == ["P1"])
      lock.sync { lock.record(.listener) { log.append("L4") } }
      lock.record(.listener) { log.append("L5") }  // outside a transaction
      lock.sync { lock.record(.plumbing) { log.append("P2") } }
      #expect(log.entries == ["P1", "P2"])
    }
    #expect(log.entries == ["P1", "P2", "L1", "L2", "L3", "L4", "L5"])
  }

  @Test func aBatchBegunInsideATransactionEndsWithIt() {
    let lock = EngineLock()
    let log = Log()
    lock.sync {
      lock.batch { lock.record(.listener) { log.append("L1") } }
      lock.record(.plumbing) { log.append("P1") }
      lock.record(.listener) { log.append("L2") }
      #expect(!lock.canActNow)
    }
    #expect(log.entries == ["L1", "P1", "L2"])
  }

  /// A batch keeps its listener calls in blocks of 512 (`EngineLock.EffectBlock`), recorded from
  /// transactions and outside them: at its end every call runs once, in order, across blocks;
  /// then each is freed once, in order, after the last one ran (a block frees its effects with
  /// their own destroy, not the array's).
  @Test func aBatchsBlocksRunEachCallOnceInOrderAndFreeEachAfterAllRan() {
    let lock = EngineLock()
    let log = Log()
    let count = 1_100
    lock.batch {
      for i in 0..<count {
        let token = Token("\(i)", log)
        if i.isMultiple(of: 7) {
          lock.record(.listener) { [token] in log.append("run \(token.name)") }  // outside a transaction
        } else {
          lock.sync { lock.record(.listener) { [token] in log.append("run \(token.name)") } }
        }
      }
      #expect(log.entries.isEmpty)
    }
    #expect(Array(log.entries.prefix(count)) == (0..<count).map { "run \($0)" })
    #expect(Array(log.entries.dropFirst(count)) == (0..<count).map { "freed \($0)" })
  }

  /// A batch ending while another thread delivers: its calls (more than a block) are moved
  /// behind that delivery, in order, and run and freed once by the delivering thread.
  @Test func aBatchEndingDuringAnotherThreadsDeliveryQueuesItsCallsInOrder() {
    let lock = EngineLock()
    let log = Log()
    let delivering = DispatchSemaphore(value: 0)
    let batchEnded = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      lock.sync {
        lock.record(.listener) {
          delivering.signal()
          batchEnded.wait()
          log.append("first")
        }
      }
      done.signal()
    }
    delivering.wait()
    let count = 700
    lock.batch {
      for i in 0..<count {
        let token = Token("\(i)", log)
        lock.sync { lock.record(.listener) { [token] in log.append("run \(token.name)") } }
      }
    }
    // Queued behind the other thread's delivery: nothing ran here.
    #expect(log.entries.isEmpty)
    batchEnded.signal()
    done.wait()
    #expect(Array(log.entries.prefix(count + 1)) == ["first"] + (0..<count).map { "run \($0)" })
    let freed = log.entries.dropFirst(count + 1)
    #expect(freed.count == count)
    #expect(Set(freed) == Set((0..<count).map { "freed \($0)" }))
  }
}
