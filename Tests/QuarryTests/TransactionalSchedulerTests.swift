import Synchronization
import Testing

@testable import Quarry

/// The engine's scheduler creates a timer at once when its transaction has recorded nothing
/// yet, and records it otherwise; either way timers are created, fire and clear in the order a
/// fully recorded transaction would give them.
@Suite struct TransactionalSchedulerTests {
  /// A lock and the engine scheduler over a virtual one.
  private func make() -> (EngineLock, TransactionalScheduler, VirtualScheduler) {
    let base = VirtualScheduler()
    let lock = EngineLock()
    return (lock, TransactionalScheduler(base: base, lock: lock), base)
  }

  @Test func aTimerBeforeAnyRecordedEffectExistsAtOnceAndOneAfterOnlyWhenTheTransactionEnds() {
    let (lock, scheduler, base) = make()
    lock.sync {
      _ = scheduler.setTimeout(10) {}
      #expect(base.pendingTimerCount == 1)  // created at once
      lock.record(.plumbing) {}
      _ = scheduler.setTimeout(10) {}
      #expect(base.pendingTimerCount == 1)  // recorded
    }
    #expect(base.pendingTimerCount == 2)
  }

  @Test func timersOfEqualDueTimeFireInTheOrderTheTransactionCreatedThem() {
    let (lock, scheduler, base) = make()
    let fired = Mutex<[String]>([])
    lock.sync {
      _ = scheduler.setTimeout(5) { fired.withLock { $0.append("first") } }
      // Stands for a query function started after the transaction, creating its own timer.
      lock.record(.plumbing) { _ = base.setTimeout(5) { fired.withLock { $0.append("function's") } } }
      _ = scheduler.setTimeout(5) { fired.withLock { $0.append("after the function") } }
    }
    base.advance(by: 5)
    #expect(fired.withLock { $0 } == ["first", "function's", "after the function"])
  }

  /// A job queued after a transaction's first effect is enqueued when that effect has run, in
  /// order with the effects around it, both when the lock enqueues it on the base scheduler
  /// itself (`EngineLock.recordJob`, as an engine's lock does) and through a recorded closure.
  @Test(arguments: [true, false]) func aJobQueuedAfterARecordedEffectJoinsTheQueueInItsPlace(lockKnowsBase: Bool) {
    let base = VirtualScheduler()
    let lock = lockKnowsBase ? EngineLock(jobScheduler: base) : EngineLock()
    let scheduler = TransactionalScheduler(base: base, lock: lock)
    let order = Mutex<[String]>([])
    lock.sync {
      scheduler.enqueue { order.withLock { $0.append("queued first") } }
      // Stands for a query function started after the transaction, queuing a job of its own.
      lock.record(.plumbing) { base.enqueue { order.withLock { $0.append("function's") } } }
      scheduler.enqueue { order.withLock { $0.append("queued after the function") } }
      #expect(order.withLock { $0 }.isEmpty)
    }
    base.runUntilIdle()
    #expect(order.withLock { $0 } == ["queued first", "function's", "queued after the function"])
  }

  /// A recorded timer keeps its base timer's id itself: a recorded interval repeats until
  /// cleared, and clearing a recorded timeout after it fired touches no other timer.
  @Test func aRecordedIntervalRepeatsUntilClearedAndAFiredTimeoutClearsNothing() {
    let (lock, scheduler, base) = make()
    let ticks = Mutex(0)
    let fired = Mutex(0)
    let (interval, timeout) = lock.sync {
      lock.record(.plumbing) {}
      let interval = scheduler.setInterval(10) { ticks.withLock { $0 += 1 } }
      let timeout = scheduler.setTimeout(5) { fired.withLock { $0 += 1 } }
      return (interval, timeout)
    }
    #expect(interval.rawValue & 1 == 1 && timeout.rawValue & 1 == 1)
    base.advance(by: 30)
    #expect(ticks.withLock { $0 } == 3 && fired.withLock { $0 } == 1)
    #expect(base.pendingTimerCount == 1)  // the interval
    scheduler.clearTimeout(timeout)
    #expect(base.pendingTimerCount == 1)
    scheduler.clearTimeout(interval)
    #expect(base.pendingTimerCount == 0)
    base.advance(by: 30)
    #expect(ticks.withLock { $0 } == 3)
  }

  @Test func bothKindsOfTimerCanBeCleared() {
    let (lock, scheduler, base) = make()
    let fired = Mutex(0)
    let (direct, recorded, clearedBeforeCreation) = lock.sync {
      let direct = scheduler.setTimeout(5) { fired.withLock { $0 += 1 } }
      lock.record(.plumbing) {}
      let recorded = scheduler.setTimeout(5) { fired.withLock { $0 += 1 } }
      let never = scheduler.setTimeout(5) { fired.withLock { $0 += 1 } }
      scheduler.clearTimeout(never)
      return (direct, recorded, never)
    }
    #expect(direct.rawValue & 1 == 0 && recorded.rawValue & 1 == 1 && clearedBeforeCreation.rawValue & 1 == 1)
    #expect(base.pendingTimerCount == 2)  // the one cleared before its creation never existed
    scheduler.clearTimeout(direct)
    scheduler.clearTimeout(recorded)
    #expect(base.pendingTimerCount == 0)
    base.advance(by: 10)
    #expect(fired.withLock { $0 } == 0)
  }

  /// `clearTimeouts` of engine ids that are all direct (the cache's gc timers) hands the base
  /// the ids themselves, which it shifts to its own numbers: exactly those timers are cancelled,
  /// whichever of the base's timers lie between them (the base's own, with the numbers that
  /// unshifted engine ids would name), all or some of the base's timers; with a recorded one
  /// among them both kinds are cancelled.
  @Test(arguments: [false, true]) func clearingManyTimersCancelsExactlyThose(withRecorded: Bool) {
    let (lock, scheduler, base) = make()
    let fired = Mutex<[Int]>([])
    var engineIDs: [TimerID] = []
    for i in 0..<40 {
      if i % 4 == 3 {
        // The base's own timer (number i + 1), not the engine's.
        _ = base.setTimeout(5) { fired.withLock { $0.append(i) } }
      } else {
        let id = scheduler.setTimeout(5) { fired.withLock { $0.append(i) } }
        if i % 4 != 2 { engineIDs.append(id) }  // every fourth of the engine's is kept
      }
    }
    if withRecorded {
      lock.sync {
        lock.record(.plumbing) {}
        engineIDs.append(scheduler.setTimeout(5) { fired.withLock { $0.append(99) } })
      }
    }
    #expect(base.pendingTimerCount == (withRecorded ? 41 : 40))
    scheduler.clearTimeouts(engineIDs)
    #expect(base.pendingTimerCount == 20)
    base.advance(by: 5)
    #expect(fired.withLock { $0 } == (0..<40).filter { $0 % 4 >= 2 })
    // Every engine timer cleared: the base's own are left.
    let all = (0..<8).map { i in scheduler.setTimeout(7) { fired.withLock { $0.append(100 + i) } } }
    scheduler.clearTimeouts(all)
    #expect(base.pendingTimerCount == 0 && base.nextTimerDue == nil)
  }

  @Test func aJobBeforeAnyRecordedEffectRunsBeforeOneRecordedLater() {
    let (lock, scheduler, base) = make()
    let ran = Mutex<[Int]>([])
    lock.sync {
      scheduler.enqueue { ran.withLock { $0.append(1) } }
      lock.record(.plumbing) { base.enqueue { ran.withLock { $0.append(2) } } }
      scheduler.enqueue { ran.withLock { $0.append(3) } }
    }
    base.runUntilIdle()
    #expect(ran.withLock { $0 } == [1, 2, 3])
  }

  /// Recorded timers are kept by engine number in a window indexed by number (`TimerPayloads`):
  /// each is found again to create, clear or forget it, also once the window has moved past it.
  @Test func manyRecordedTimersClearAndFireByNumber() {
    let (lock, scheduler, base) = make()
    let fired = Mutex<[Int]>([])
    var ids: [TimerID] = []
    // A long-lived timer first, then 300 more; every third one is cleared inside the transaction
    // (before its creation runs), every third one after.
    lock.sync {
      lock.record(.plumbing) {}
      ids.append(scheduler.setTimeout(10_000) { fired.withLock { $0.append(-1) } })
      for i in 0..<300 {
        ids.append(scheduler.setTimeout(Double(1 + i % 7)) { fired.withLock { $0.append(i) } })
        if i % 3 == 0 { scheduler.clearTimeout(ids[i + 1]) }
      }
    }
    #expect(base.pendingTimerCount == 201)
    for i in 0..<300 where i % 3 == 1 { scheduler.clearTimeout(ids[i + 1]) }
    #expect(base.pendingTimerCount == 101)
    base.advance(by: 10)
    // Deadline, then the order the transaction created them.
    let expected = (0..<300).filter { $0 % 3 == 2 }.sorted { (1 + $0 % 7, $0) < (1 + $1 % 7, $1) }
    #expect(fired.withLock { $0 } == expected)
    // Fired timers are forgotten: clearing them clears nothing else.
    for id in ids.dropFirst() { scheduler.clearTimeout(id) }
    #expect(base.pendingTimerCount == 1)
    // Many later timers made and cleared move the window past the long-lived one; it is still
    // found by its number.
    for _ in 0..<500 {
      let id = lock.sync { () -> TimerID in
        lock.record(.plumbing) {}
        return scheduler.setTimeout(1) {}
      }
      scheduler.clearTimeout(id)
    }
    #expect(base.pendingTimerCount == 1)
    scheduler.clearTimeout(ids[0])
    #expect(base.pendingTimerCount == 0)
    base.advance(by: 20_000)
    #expect(fired.withLock { $0 } == expected)
  }
}
