import Synchronization
import Testing

@testable import Quarry

/// A query whose gc timer is set in a transaction that has recorded effects already records the
/// timer's creation itself (`Query.scheduleGc`, no `RecordedTimer`): the timer is created in the
/// effects' order with the delay it was set with, and one cleared or set again before its
/// creation runs is created at most once, at the last place.
@Suite struct QueryGcTimerRecordTests {
  /// A client whose queries' gc time is 100 ms, with one query (no observer) cached.
  private func make() -> (VirtualScheduler, QueryClient, Query) {
    let scheduler = VirtualScheduler()
    var defaults = DefaultOptions()
    defaults.queries.gcTime = 100
    let client = QueryClient(scheduler: scheduler, defaultOptions: defaults)
    client.setQueryData(["gc"], value: 1)
    return (scheduler, client, client.queryCache.getAll()[0])
  }

  private func isCached(_ client: QueryClient) -> Bool { !client.queryCache.getAll().isEmpty }

  @Test func aGcTimerSetAfterARecordedEffectIsCreatedInItsPlace() {
    let (scheduler, client, query) = make()
    let lock = query.engine.lock
    let seen = Mutex<[String]>([])
    let timersBefore = scheduler.pendingTimerCount
    lock.sync {
      // Stand for listeners' effects creating timers of the same due time before and after.
      lock.record(.plumbing) {
        _ = scheduler.setTimeout(100) { seen.withLock { $0.append("before: cached \(isCached(client))") } }
      }
      query.scheduleGc()
      #expect(query.gcTimeout == TransactionalScheduler.pendingCreation)
      #expect(scheduler.pendingTimerCount == timersBefore - 1)  // the old one cleared, the new one not yet created
      lock.record(.plumbing) {
        _ = scheduler.setTimeout(100) { seen.withLock { $0.append("after: cached \(isCached(client))") } }
      }
    }
    #expect(query.gcCreationsRecorded == 0)
    guard case .created = query.gcTimer else {
      Issue.record("the recorded creation did not create the timer")
      return
    }
    #expect(scheduler.pendingTimerCount == timersBefore + 2)
    scheduler.advance(by: 100)
    #expect(seen.withLock { $0 } == ["before: cached true", "after: cached false"])
  }

  @Test func aGcTimerClearedBeforeItsCreationRunsIsNeverCreated() {
    let (scheduler, client, query) = make()
    let lock = query.engine.lock
    lock.sync {
      lock.record(.plumbing) {}
      query.scheduleGc()
      query.clearGcTimeout()
      #expect(query.gcTimeout == nil)
    }
    #expect(scheduler.pendingTimerCount == 0)
    #expect(query.gcCreationsRecorded == 0)
    scheduler.advance(by: 1_000)
    #expect(isCached(client))
  }

  @Test func aGcTimerSetTwiceBeforeItsCreationRunsIsCreatedOnce() {
    let (scheduler, client, query) = make()
    let lock = query.engine.lock
    let seen = Mutex<[String]>([])
    lock.sync {
      lock.record(.plumbing) {}
      query.scheduleGc()
      lock.record(.plumbing) {
        _ = scheduler.setTimeout(100) { seen.withLock { $0.append("between: cached \(isCached(client))") } }
      }
      query.scheduleGc()
      #expect(query.gcCreationsRecorded == 2)
    }
    #expect(query.gcCreationsRecorded == 0)
    #expect(scheduler.pendingTimerCount == 2)
    scheduler.advance(by: 100)
    // Created at the second place, after the timer recorded between the two.
    #expect(seen.withLock { $0 } == ["between: cached true"])
    #expect(!isCached(client))
  }

  /// The timer keeps the delay it was set with, as a created timer would: a gc time raised
  /// before the creation runs applies to the next timer only.
  @Test func aRecordedGcTimerKeepsTheDelayItWasSetWith() {
    let (scheduler, client, query) = make()
    let lock = query.engine.lock
    lock.sync {
      lock.record(.plumbing) {}
      query.scheduleGc()
      query.updateGcTime(500)
    }
    scheduler.advance(by: 99)
    #expect(isCached(client))
    scheduler.advance(by: 1)
    #expect(!isCached(client))
  }

  /// `clear` in the transaction that recorded a creation forgets it: no timer is created after.
  @Test func clearForgetsARecordedGcTimer() {
    let (scheduler, client, query) = make()
    let lock = query.engine.lock
    lock.sync {
      lock.record(.plumbing) {}
      query.scheduleGc()
      client.clear()
      #expect(query.gcTimeout == nil)
    }
    #expect(scheduler.pendingTimerCount == 0)
    #expect(query.gcCreationsRecorded == 0)
  }
}
