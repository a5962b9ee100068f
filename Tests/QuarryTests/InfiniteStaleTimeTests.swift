import Testing
@testable import Quarry

/// `Query.isStaleByTimeLocked` answers an infinite `staleTime` without reading the clock: the
/// formula it skips is never 0 for that `staleTime`, whatever the clock and the update time read
/// (infinite and NaN included), and the answer is the formula's.
@Suite struct InfiniteStaleTimeTests {
  @Test func theSkippedFormulaIsNeverZeroForAnInfiniteStaleTime() {
    let values: [Double] = [-.infinity, -1e300, -1, 0, 1, 1e300, .infinity, .nan]
    for updatedAt in values {
      for now in values {
        #expect(timeUntilStale(updatedAt, .milliseconds(.infinity), now: now) != 0)
      }
    }
    // A finite staleTime does reach 0: the shortcut is for the infinite one only.
    #expect(timeUntilStale(0, .milliseconds(1e300), now: .infinity) == 0)
  }

  @Test func dataWithAnInfiniteStaleTimeIsFreshAtAnyTimeUntilInvalidated() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    for updatedAt in [-Double.infinity, -1e300, 0, 1e300] {
      _ = client.setQueryData(["k"], value: 1, updatedAt: updatedAt)
      let query = client.queryCache.find(QueryFilters(queryKey: ["k"]))!
      #expect(!query.isStaleByTime(.milliseconds(.infinity)))
      _ = scheduler.advance(by: 100_000)  // under the default gcTime
      #expect(!query.isStaleByTime(.milliseconds(.infinity)))
      #expect(query.isStaleByTime(.milliseconds(1)) == (updatedAt < 1e300))
      _ = client.invalidateQueriesPromise(InvalidateQueryFilters(QueryFilters(queryKey: ["k"])))
      #expect(query.isStaleByTime(.milliseconds(.infinity)))
      client.removeQueries(QueryFilters(queryKey: ["k"]))
    }
  }
}
