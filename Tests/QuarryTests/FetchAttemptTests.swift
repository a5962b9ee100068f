import Synchronization
import Testing
@testable import Quarry

/// A query's fetch runs each attempt of its query function itself (`QueryFetchRun.startAttempt`,
/// no promise per call): every attempt gets the context TanStack builds for it, the retryer
/// hears each outcome, and nothing is kept once the fetch has settled.
@Suite struct FetchAttemptTests {
  private struct Seen: Sendable {
    var keys: [QueryKey] = []
    var metas: [JSONValue?] = []
    var hadClient: [Bool] = []
  }

  private final class Weak: @unchecked Sendable {
    // Safe: written and read on the test's thread only.
    weak var retryer: Retryer?
    weak var run: Promise<any Sendable>?
  }

  /// `failures` attempts fail before one succeeds (three retries allowed, no delay).
  @Test(arguments: [0, 1, 3]) func eachAttemptGetsItsContextAndTheLastOutcomeSettlesTheFetch(failures: Int) {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let seen = Mutex(Seen())
    var options = QueryOptions(queryKey: ["k", 1])
    options.meta = .string("m")
    options.retry = .count(3)
    options.retryDelay = .milliseconds(0)
    options.queryFn = .fn { context in
      let attempt = seen.withLock { seen -> Int in
        seen.keys.append(context.queryKey)
        seen.metas.append(context.meta)
        seen.hadClient.append(context.client != nil)
        return seen.keys.count
      }
      await scheduler.sleep(5)
      if attempt <= failures { throw QuarryError.undefinedData(queryHash: "attempt \(attempt)") }
      return "data \(attempt)"
    }
    let weak = Weak()
    let result = Mutex<String?>(nil)
    do {
      let promise = client.fetchQueryPromise(options)
      weak.run = promise
      let query = client.queryCache.find(QueryFilters(queryKey: ["k", 1]))!
      weak.retryer = client.engine.lock.sync { query.retryer }
      promise.whenSettled { outcome in result.withLock { $0 = (try? outcome.get()) as? String ?? "failed" } }
    }
    scheduler.advance(by: 100)
    let attempts = failures + 1
    #expect(result.withLock { $0 } == "data \(attempts)")
    let final = seen.withLock { $0 }
    #expect(final.keys == Array(repeating: ["k", 1], count: attempts))
    #expect(final.metas == Array(repeating: .string("m"), count: attempts))
    #expect(final.hadClient == Array(repeating: true, count: attempts))
    #expect(weak.retryer == nil)
    #expect(weak.run == nil)
  }

  /// Reading a fetch's `context.signal` marks that fetch's query's signal consumed (through
  /// the run, which the context holds); not reading it leaves it unmarked, and the mark makes
  /// the last observer leaving cancel the fetch (TanStack's consumed-signal rule).
  @Test(arguments: [true, false]) func readingAFetchsSignalMarksItsQueryConsumed(reads: Bool) {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var options = QueryOptions(queryKey: ["s"])
    options.retry = .bool(false)
    options.queryFn = .fn { context in
      if reads { _ = context.signal }
      await scheduler.sleep(100)
      return "done"
    }
    let observer = QueryObserver(client: client, options: options)
    let unsubscribe = observer.subscribe { _ in }
    scheduler.advance(by: 10)
    let query = client.queryCache.find(QueryFilters(queryKey: ["s"]))!
    #expect(client.engine.lock.sync { query.abortSignalConsumed } == reads)
    unsubscribe()
    scheduler.advance(by: 200)
    // Consumed: cancelled (reverted to no data); else the fetch ran to its end.
    #expect((client.getQueryData(["s"]) as? String) == (reads ? nil : "done"))
    #expect(client.engine.lock.sync { query.stateStorage.fetchStatus } == .idle)
  }

  /// An attempt that outlives its cancelled fetch is still delivered (to a settled retryer,
  /// which ignores it), and then nothing is left.
  @Test func anAttemptThatOutlivesItsCancelledFetchIsDeliveredAndFreed() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var options = QueryOptions(queryKey: ["k"])
    options.retry = .bool(false)
    options.queryFn = .fn { _ in await scheduler.sleep(1000); return "late" }
    let weak = Weak()
    do {
      let promise = client.fetchQueryPromise(options)
      weak.run = promise
      let query = client.queryCache.find(QueryFilters(queryKey: ["k"]))!
      weak.retryer = client.engine.lock.sync { query.retryer }
    }
    scheduler.advance(by: 10)
    _ = client.cancelQueriesPromise(QueryFilters(queryKey: ["k"]))
    scheduler.advance(by: 10)
    // The attempt's task still runs, and holds the run and the retryer it will tell.
    #expect(weak.retryer != nil)
    scheduler.advance(by: 2000)
    #expect(weak.retryer == nil)
    #expect(weak.run == nil)
    let query = client.queryCache.find(QueryFilters(queryKey: ["k"]))!
    #expect(query.state.data == nil)
  }

  /// A fetch's context reads its client through the query's cache link (no weak reference of
  /// its own): the client itself while it lives, `nil` once it is gone; a running query function
  /// holding its context does not keep the client alive.
  @Test func aFetchContextsClientIsTheClientWithoutKeepingItAlive() {
    let scheduler = VirtualScheduler()
    var client: QueryClient? = QueryClient(scheduler: scheduler)
    let contexts = Mutex<[QueryFunctionContext]>([])
    var options = QueryOptions(queryKey: ["k"])
    options.retry = .bool(false)
    options.queryFn = .fn { context in
      contexts.withLock { $0.append(context) }
      await scheduler.sleep(10)
      return 1
    }
    weak let weakClient = client
    _ = client!.fetchQueryPromise(options)
    scheduler.runUntilIdle()
    #expect(contexts.withLock { $0.count } == 1)
    #expect(contexts.withLock { $0[0].client } === weakClient)
    #expect(weakClient != nil)
    client = nil
    #expect(weakClient == nil)
    #expect(contexts.withLock { $0[0].client } == nil)
    scheduler.advance(by: 20)
  }
}
