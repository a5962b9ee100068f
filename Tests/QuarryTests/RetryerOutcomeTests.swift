import Synchronization
import Testing
@testable import Quarry

/// A fetch's run is its retryer; the retryer's own outcome (TanStack's `retryer.promise`) is a
/// promise made only when asked for. Made before the retryer settles or after, it settles with
/// the retryer's outcome, and its callbacks run after the run has settled the fetch (the run's
/// callback on `retryer.promise` is registered first in TanStack, so it runs first).
@Suite struct RetryerOutcomeTests {
  private struct Seen: Sendable {
    var value: Int?
    var statusAtDelivery: QueryStatus?
  }

  private final class Box: @unchecked Sendable {
    // Safe: written and read on the test's thread (the virtual scheduler runs every job there).
    var askedWhileSettled: Bool?
  }

  private func outcome(askedAfterSettling: Bool, fails: Bool) -> (Seen, QueryStatus) {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let seen = Mutex(Seen())
    let box = Box()
    @Sendable func ask() {
      let query = client.queryCache.find(QueryFilters(queryKey: ["k"]))!
      let (promise, settled, run) = client.engine.lock.sync {
        (query.retryer!.promise, query.retryer!.status != .pending, query.retryer!)
      }
      #expect(promise !== run)
      box.askedWhileSettled = settled && client.engine.lock.sync { query.stateStorage.status } == .pending
      promise.whenSettled { result in
        let status = client.engine.lock.sync { query.stateStorage.status }
        seen.withLock {
          $0.value = (try? result.get()) as? Int
          $0.statusAtDelivery = status
        }
      }
    }
    var options = QueryOptions(queryKey: ["k"])
    options.retry = .bool(false)
    options.queryFn = .fn { _ in
      if askedAfterSettling {
        // After the attempt's delivery job (queued as the function returns) has settled the
        // retryer (a failure one job later: `handleFailure`), before the run's settle job has
        // settled the fetch: two jobs on, three for a failure.
        if fails {
          scheduler.enqueue { scheduler.enqueue { scheduler.enqueue { ask() } } }
        } else {
          scheduler.enqueue { scheduler.enqueue { ask() } }
        }
      }
      if fails { throw QuarryError.missingMutationFn }
      return 7
    }
    _ = client.prefetchQueryPromise(options)
    if !askedAfterSettling { ask() }
    scheduler.runUntilIdle()
    let query = client.queryCache.find(QueryFilters(queryKey: ["k"]))!
    #expect(box.askedWhileSettled == askedAfterSettling)
    return (seen.withLock { $0 }, client.engine.lock.sync { query.stateStorage.status })
  }

  @Test(arguments: [false, true]) func theOutcomePromiseSettlesAfterTheFetch(askedAfterSettling: Bool) {
    let (seen, status) = outcome(askedAfterSettling: askedAfterSettling, fails: false)
    #expect(status == .success)
    #expect(seen.value == 7)
    #expect(seen.statusAtDelivery == .success)
  }

  @Test(arguments: [false, true]) func aFailedOutcomeRejectsAfterTheFetch(askedAfterSettling: Bool) {
    let (seen, status) = outcome(askedAfterSettling: askedAfterSettling, fails: true)
    #expect(status == .error)
    #expect(seen.value == nil)
    #expect(seen.statusAtDelivery == .error)
  }
}
