import Foundation
import Testing
@testable import Quarry

/// The production path under load: one `QueryClient` on `ClockScheduler(clock: ContinuousClock())`,
/// used at once from threads and tasks that write and read, fetch through query functions that
/// really sleep, mount and unmount observers, invalidate and cancel. It must end with exact
/// counts, no fetch left running, nothing scheduled, and no report from the thread sanitizer
/// (`swift test --sanitize=thread --filter ProductionStress`).
@Suite struct ProductionStressTests {
  static let fetchKeys = 6
  static let writers = 4
  static let writesPerWriter = 3_000
  static let fetchers = 4
  static let fetchesPerFetcher = 150
  static let mounters = 4
  static let mountsPerMounter = 100

  /// Everything the workers count or find wrong.
  final class Tally: @unchecked Sendable {
    // Safe: every field is guarded by `lock`.
    private let lock = NSLockish()
    private var calls = 0
    private var entered = 0
    private var exited = 0
    private var settles: [Int: Int] = [:]
    private var problems: [String] = []
    private var listenerCalls = 0

    func enterQueryFunction() -> Int { lock.sync { calls += 1; entered += 1; return calls } }
    func exitQueryFunction() { lock.sync { exited += 1 } }
    func settle(_ fetch: Int) { lock.sync { settles[fetch, default: 0] += 1 } }
    func problem(_ text: String) { lock.sync { problems.append(text) } }
    func listenerCalled() { lock.sync { listenerCalls += 1 } }
    var snapshot: (entered: Int, exited: Int, settles: [Int: Int], problems: [String], listenerCalls: Int) {
      lock.sync { (entered, exited, settles, problems, listenerCalls) }
    }
  }

  static func key(_ k: Int) -> QueryKey { ["fetch", .number(Double(k))] }

  /// Data of fetch key `k` is `k * 1_000_000 + n`: the key is recoverable from any value.
  static func belongs(_ data: (any Sendable)?, to k: Int) -> Bool {
    guard let data else { return true }
    guard let value = data as? Int else { return false }
    return value / 1_000_000 == k
  }

  static func options(_ k: Int, _ tally: Tally) -> QueryOptions {
    var options = QueryOptions(queryKey: key(k))
    options.queryFn = .fn { _ in
      let n = tally.enterQueryFunction()
      defer { tally.exitQueryFunction() }
      try await Task.sleep(for: .milliseconds(1 + n % 3))
      return k * 1_000_000 + n
    }
    return options
  }

  @Test func manyThreadsAndTasksShareOneClientOnTheRealClock() async throws {
    let scheduler = ClockScheduler(clock: ContinuousClock())
    var defaults = QueryOptions()
    defaults.retry = .count(0)
    let client = QueryClient(scheduler: scheduler, defaultOptions: DefaultOptions(queries: defaults))
    let tally = Tally()
    let finished = Counter()
    var workers = 0

    // Writers on plain threads: each owns a key, reads its own writes back, and also writes
    // into the fetched keys while fetches run.
    for w in 0..<Self.writers {
      workers += 1
      Thread {
        for v in 1...Self.writesPerWriter {
          _ = client.setQueryData(["write", .number(Double(w))], value: v)
          let read = try? client.getQueryData(["write", .number(Double(w))], as: Int.self)
          if read != v { tally.problem("writer \(w) wrote \(v) and read \(String(describing: read))") }
          if v % 100 == 0 {
            let k = v / 100 % Self.fetchKeys
            _ = client.setQueryData(Self.key(k), value: k * 1_000_000 + 500_000 + v)
            if !Self.belongs(client.getQueryData(Self.key(k)), to: k) { tally.problem("key \(k) holds foreign data") }
            _ = client.getQueryState(Self.key(k))
          }
        }
        finished.increment()
      }.start()
    }

    // Fetchers in tasks: every fetchQuery settles exactly once, with data of its own key or a
    // cancellation.
    for f in 0..<Self.fetchers {
      workers += 1
      Task.detached {
        for i in 0..<Self.fetchesPerFetcher {
          let id = f * 10_000 + i
          let k = (f + i) % Self.fetchKeys
          do {
            let value = try await client.fetchQuery(Self.options(k, tally))
            if !Self.belongs(value, to: k) { tally.problem("fetch \(id) of key \(k) returned \(value)") }
          } catch is CancelledError {
          } catch is CancellationError {
          } catch {
            tally.problem("fetch \(id) failed: \(error)")
          }
          tally.settle(id)
        }
        finished.increment()
      }
    }

    // Mounters: observers subscribe, watch for a few ms, read their result, unsubscribe.
    for m in 0..<Self.mounters {
      workers += 1
      Task.detached {
        for i in 0..<Self.mountsPerMounter {
          let k = (m * 7 + i) % Self.fetchKeys
          let observer = QueryObserver(client: client, options: Self.options(k, tally))
          let unsubscribe = observer.subscribe { result in
            tally.listenerCalled()
            if !Self.belongs(result.data, to: k) { tally.problem("observer of key \(k) saw foreign data") }
            if result.status == .success && result.data == nil { tally.problem("success without data on key \(k)") }
          }
          try? await Task.sleep(for: .milliseconds(1 + i % 4))
          if !Self.belongs(observer.getCurrentResult().data, to: k) { tally.problem("result of key \(k) holds foreign data") }
          unsubscribe()
        }
        finished.increment()
      }
    }

    // An invalidator and a canceller over all fetched keys.
    workers += 2
    Task.detached {
      for _ in 0..<60 {
        do {
          try await client.invalidateQueries(InvalidateQueryFilters(QueryFilters(queryKey: ["fetch"])))
        } catch is CancelledError {
        } catch {
          tally.problem("invalidateQueries threw \(error)")
        }
        try? await Task.sleep(for: .milliseconds(5))
      }
      finished.increment()
    }
    Task.detached {
      for _ in 0..<60 {
        await client.cancelQueries(QueryFilters(queryKey: ["fetch"]))
        try? await Task.sleep(for: .milliseconds(7))
      }
      finished.increment()
    }

    let expectedWorkers = workers
    let allFinished = await eventually(within: hangGuardSeconds) { finished.value == expectedWorkers }
    #expect(allFinished, "\(finished.value) of \(workers) workers finished: a fetch or an operation is stuck")
    let quiet = await eventually(within: hangGuardSeconds) {
      client.isFetching() == 0 && tally.snapshot.entered == tally.snapshot.exited
    }
    #expect(quiet, "still fetching: \(client.isFetching()); query functions entered \(tally.snapshot.entered), exited \(tally.snapshot.exited)")

    let result = tally.snapshot
    #expect(result.problems == [])
    #expect(result.settles.count == Self.fetchers * Self.fetchesPerFetcher)
    #expect(result.settles.values.allSatisfy { $0 == 1 })
    #expect(result.entered > 0 && result.listenerCalls > 0)
    for w in 0..<Self.writers {
      #expect(try client.getQueryData(["write", .number(Double(w))], as: Int.self) == Self.writesPerWriter)
    }
    for k in 0..<Self.fetchKeys {
      let query = try #require(client.queryCache.get(Self.key(k).queryHash))
      #expect(query.observerCount == 0)
      #expect(query.state.fetchStatus == .idle)
      #expect(Self.belongs(query.state.data, to: k))
    }
    client.clear()
    #expect(client.queryCache.getAll().isEmpty)
    #expect(scheduler.pendingTimerCount == 0)  // nothing left scheduled
  }
}
