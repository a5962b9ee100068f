import Testing
@testable import Quarry

@Suite struct QueryClientTests {
  @Test func readingDataAsAnotherTypeThrowsTypeMismatch() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["user", 1], value: "Ada")
    #expect(try client.getQueryData(["user", 1], as: String.self) == "Ada")
    #expect(throws: QuarryError.typeMismatch(key: #"["user",1]"#, expected: "Int", actual: "String")) {
      try client.getQueryData(["user", 1], as: Int.self)
    }
    #expect(try client.getQueryData(["missing"], as: Int.self) == nil)
  }

  @Test func anUpdaterReturningNilChangesNothing() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["n"], value: 1)
    let result: Int? = try client.setQueryData(["n"]) { (_: Int?) in nil }
    #expect(result == nil)
    #expect(client.getQueryState(["n"])?.dataUpdateCount == 1)
  }

  @Test func listenersCanCallBackIntoTheClient() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let log = Log()
    let unsubscribe = client.queryCache.subscribe { event in
      // Re-entering the client from inside a notification must not deadlock.
      if case .added = event {
        log.append("added")
        client.setQueryData(["mirror"], value: client.getQueryData(event.query.queryKey) as? Int ?? -1)
      }
    }
    client.setQueryData(["source"], value: 7)
    unsubscribe()
    #expect(log.entries == ["added", "added"])
    // Listeners run after the operation that caused them, outside the engine lock, so this one
    // sees the operation's end state (TanStack's listener would run inside it and see -1).
    #expect(client.getQueryData(["mirror"]) as? Int == 7)
  }

  @Test func fetchQueryDeduplicatesOnTheVirtualClock() async throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let calls = Log()
    let fn: @Sendable (QueryFunctionContext) async throws -> Int = { _ in
      calls.append("call")
      await scheduler.sleep(100)
      return 42
    }
    let first = Task(executorPreference: scheduler) { try await client.fetchQuery(["answer"], as: Int.self, queryFn: fn) }
    let second = Task(executorPreference: scheduler) { try await client.fetchQuery(["answer"], as: Int.self, queryFn: fn) }
    scheduler.advance(by: 0)
    #expect(client.getQueryState(["answer"])?.fetchStatus == .fetching)
    scheduler.advance(by: 100)
    #expect(try await first.value == 42)
    #expect(try await second.value == 42)
    #expect(calls.entries == ["call"])
    #expect(client.getQueryState(["answer"])?.dataUpdatedAt == 100)
  }

  @Test func fetchingWithARealClockCompletes() async throws {
    let client = QueryClient(scheduler: ClockScheduler(clock: ContinuousClock()))
    let value = try await client.fetchQuery(["real"], as: String.self) { _ in "done" }
    #expect(value == "done")
    #expect(client.getQueryState(["real"])?.status == .success)
  }

  @Test func aQueryFunctionReturningNilIsAnError() async {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var options = QueryOptions(queryKey: ["nothing"])
    options.queryFn = .fn { _ in Optional<Int>.none as any Sendable }
    let task = Task(executorPreference: scheduler) { try await client.fetchQuery(options) }
    scheduler.advance(by: 0)
    await #expect(throws: QuarryError.undefinedData(queryHash: #"["nothing"]"#)) { try await task.value }
    #expect(client.getQueryState(["nothing"])?.status == .error)
  }
}

/// A thread-safe ordered log for assertions.
final class OrderedLog<Entry>: @unchecked Sendable {
  // Safe: `storage` is guarded by `lock`.
  private let lock = NSLockish()
  private var storage: [Entry] = []
  func append(_ entry: Entry) { lock.sync { storage.append(entry) } }
  var entries: [Entry] { lock.sync { storage } }
}

/// The log of strings most tests keep.
typealias Log = OrderedLog<String>

@Suite struct QueryDefaultsTests {
  @Test func keyDefaultsMergeInOrderUnderCallerOptions() {
    let client = QueryClient(scheduler: VirtualScheduler())
    var base = QueryOptions()
    base.gcTime = 1_000
    base.retry = .count(1)
    client.setQueryDefaults(["todos"], base)
    var narrower = QueryOptions()
    narrower.retry = .count(5)
    client.setQueryDefaults(["todos", "done"], narrower)
    var clientWide = QueryOptions()
    clientWide.staleTime = .value(.milliseconds(9))
    client.setDefaultOptions(DefaultOptions(queries: clientWide))

    var mine = QueryOptions(queryKey: ["todos", "done", 1])
    mine.gcTime = 5
    let defaulted = client.defaultQueryOptions(mine)
    #expect(defaulted.gcTime == 5)
    #expect(defaulted.retry == .count(5))
    #expect(defaulted.staleTime == .value(.milliseconds(9)))
    #expect(defaulted.queryHash == #"["todos","done",1]"#)
    #expect(client.getQueryDefaults(["other"]).retry == nil)
  }

  @Test func skipTokenDisablesTheQuery() {
    let client = QueryClient(scheduler: VirtualScheduler())
    var options = QueryOptions(queryKey: ["x"])
    options.queryFn = .skipToken
    #expect(client.defaultQueryOptions(options).enabled == .value(false))
  }
}
