import Synchronization
import Testing
@testable import Quarry

/// A fetch makes its `AbortSignal` only when something asks for it (`QueryFetchRun` keeps
/// whether it was aborted and the attempt's task until then). Whenever the function reads the
/// signal, before or after the fetch is cancelled, it must see what one signal made with the
/// fetch would show, and the function's task must be cancelled either way.
@Suite struct LazyAbortSignalTests {
  private struct Seen: Sendable, Equatable {
    var abortedAtRead: Bool?
    var handlerRan = false
    var taskCancelled: Bool?
    var sameSignal: Bool?
  }

  /// `readAt`: when the function reads the signal: "prefix" (before its first suspension, before
  /// its task registers for cancellation), "middle" (after it, before the cancellation), "late"
  /// (after the cancellation), or "never".
  private func run(readAt: String, cancel: Bool) -> Seen {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let seen = Mutex(Seen())
    var options = QueryOptions(queryKey: ["k"])
    options.retry = .bool(false)
    options.queryFn = .fn { context in
      @Sendable func read() {
        let signal = context.signal
        let again = context.signal
        seen.withLock {
          $0.abortedAtRead = signal.isAborted
          $0.sameSignal = signal === again
        }
        signal.onAbort { seen.withLock { $0.handlerRan = true } }
      }
      if readAt == "prefix" { read() }
      await scheduler.sleep(100)
      if readAt == "middle" { read() }
      await scheduler.sleep(1000)
      if readAt == "late" { read() }
      seen.withLock { $0.taskCancelled = Task.isCancelled }
      return "data"
    }
    client.prefetchQueryPromise(options)
    scheduler.advance(by: 500)
    if cancel { _ = client.cancelQueriesPromise(QueryFilters(queryKey: ["k"])) }
    scheduler.advance(by: 2000)
    return seen.withLock { $0 }
  }

  @Test(arguments: ["prefix", "middle", "late", "never"], [true, false])
  func theSignalReadsAsOneMadeWithTheFetch(readAt: String, cancel: Bool) {
    let seen = run(readAt: readAt, cancel: cancel)
    #expect(seen.taskCancelled == cancel)
    if readAt == "never" {
      #expect(seen.abortedAtRead == nil)
      #expect(seen.handlerRan == false)
    } else {
      #expect(seen.sameSignal == true)
      #expect(seen.abortedAtRead == (cancel && readAt == "late"))
      // A handler registered on an aborted signal runs at once; else when the fetch is cancelled.
      #expect(seen.handlerRan == cancel)
    }
  }

  /// The second attempt of a retried fetch registers its own task: cancelling the fetch then
  /// cancels that task, although no function read the signal.
  @Test func cancellingARetriedFetchCancelsTheCurrentAttemptsTask() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let attempts = Mutex(0)
    let lastCancelled = Mutex<Bool?>(nil)
    var options = QueryOptions(queryKey: ["k"])
    options.retry = .count(1)
    options.retryDelay = .milliseconds(10)
    options.queryFn = .fn { _ in
      let attempt = attempts.withLock { $0 += 1; return $0 }
      if attempt == 1 { throw QuarryError.undefinedData(queryHash: "first") }
      await scheduler.sleep(1000)
      lastCancelled.withLock { $0 = Task.isCancelled }
      return "data"
    }
    client.prefetchQueryPromise(options)
    scheduler.advance(by: 100)
    #expect(attempts.withLock { $0 } == 2)
    _ = client.cancelQueriesPromise(QueryFilters(queryKey: ["k"]))
    scheduler.advance(by: 2000)
    #expect(lastCancelled.withLock { $0 } == true)
  }

  /// A function that returns before its first suspension has returned before `Task.immediate`
  /// does: its task is not kept until the fetch ends (a kept task held its allocator's slab,
  /// about 1.3 KB, for every pending refetch). One that suspends is kept, so that cancelling the
  /// fetch cancels it, until it returns.
  @Test func aTaskIsKeptOnlyWhileItsFunctionRuns() throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    func run(for key: String) throws -> QueryFetchRun {
      let query = try #require(client.queryCache.find(QueryFilters(queryKey: [.string(key)], exact: true)))
      return try #require(query.retryer as? QueryFetchRun)
    }
    var atOnce = QueryOptions(queryKey: ["atOnce"])
    atOnce.queryFn = .fn { _ in "data" }
    client.prefetchQueryPromise(atOnce)
    // The function has returned; its delivery job has not run (the fetch is still pending).
    #expect(client.getQueryState(["atOnce"])?.fetchStatus == .fetching)
    #expect(try run(for: "atOnce").keepsAttemptTask == false)

    var suspending = QueryOptions(queryKey: ["suspending"])
    suspending.queryFn = .fn { _ in
      await scheduler.sleep(100)
      return "data"
    }
    client.prefetchQueryPromise(suspending)
    let suspended = try run(for: "suspending")
    #expect(suspended.keepsAttemptTask == true)
    scheduler.advance(by: 100)
    #expect(suspended.keepsAttemptTask == false)
    #expect(client.getQueryData(["suspending"]) as? String == "data")
    #expect(client.getQueryData(["atOnce"]) as? String == "data")
  }

  /// A signal made after its fetch was aborted starts aborted; one made before starts clear.
  @Test func aSignalMadeAbortedStartsAborted() {
    #expect(AbortSignal(aborted: true).isAborted)
    #expect(!AbortSignal(aborted: false).isAborted)
    #expect(!AbortSignal().isAborted)
  }
}
