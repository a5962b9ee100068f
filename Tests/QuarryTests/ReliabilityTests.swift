import Dispatch
import Foundation
import Testing
@testable import Quarry

/// Regression tests for the reliability issue: each failed (trapped, hung or lost a write) on
/// the engine before the fix.
@Suite struct ReliabilityTests {
  // MARK: Crashes

  @Test func aFetchSettlingAfterItsClientIsReleasedDoesNotTrap() {
    let scheduler = VirtualScheduler()
    var client: QueryClient? = QueryClient(scheduler: scheduler)
    weak let weakClient = client
    var options = QueryOptions(queryKey: ["late"])
    options.queryFn = .fn { _ in await scheduler.sleep(100); return 1 }
    let settled = Log()
    client!.fetchQueryPromise(options).whenSettled { _ in settled.append("settled") }
    scheduler.advance(by: 0)
    client = nil
    #expect(weakClient == nil)
    scheduler.advance(by: 100)  // used to read a freed `unowned` cache and trap
    #expect(settled.entries == ["settled"])
  }

  @Test func anObserverBuiltFromDefaultedOptionsEmitsNoOptionsUpdate() {
    let client = QueryClient(scheduler: VirtualScheduler())
    var options = QueryOptions(queryKey: ["k"])
    options.queryFn = .fn { _ in 1 }
    let first = QueryObserver(client: client, options: options)
    let events = Log()
    let unsubscribe = client.queryCache.subscribe { event in
      events.append(event.type)
      if case .observerOptionsUpdated(_, let observer) = event { _ = observer.getCurrentResult() }
    }
    let second = QueryObserver(client: client, options: first.options)
    second.setOptions(second.options)  // the very options it holds: no change, as in JavaScript
    unsubscribe()
    #expect(events.entries == ["observerResultsUpdated"])
    #expect(second.getCurrentResult().status == .pending)
  }

  // MARK: Lost writes

  @Test func theREADMEUpdaterLineUpdatesTheData() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    try client.setQueryData(["todos"]) { (old: [String]?) in (old ?? []) + ["buy milk"] }
    try client.setQueryData(["todos"]) { (old: [String]?) in (old ?? []) + ["walk"] }
    #expect(try client.getQueryData(["todos"], as: [String].self) == ["buy milk", "walk"])
  }

  @Test func aSendableUpdaterIsCalledNotStored() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["n"], value: 1)
    try client.setQueryData(["n"]) { @Sendable (old: Int?) in (old ?? 0) + 1 }
    #expect(try client.getQueryData(["n"], as: Int.self) == 2)
  }

  @Test func aTypedUpdaterNeverOverwritesDataOfAnotherType() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["user"], value: "Ada")
    #expect(throws: QuarryError.typeMismatch(key: #"["user"]"#, expected: "Int", actual: "String")) {
      try client.setQueryData(["user"]) { (old: Int?) in (old ?? 0) + 1 }
    }
    #expect(client.getQueryData(["user"]) as? String == "Ada")
    #expect(client.getQueryState(["user"])?.dataUpdateCount == 1)
  }

  // MARK: Cancellation reaches Swift

  @Test func cancelQueriesCancelsTheQueryFunctionsTask() async throws {
    let client = QueryClient(scheduler: ClockScheduler(clock: ContinuousClock()))
    let started = Gate()
    let ended = Gate()
    var options = QueryOptions(queryKey: ["slow"])
    options.queryFn = .fn { _ in
      started.open()
      defer { ended.open() }
      try await Task.sleep(for: .seconds(60))
      return 1
    }
    client.prefetchQueryPromise(options)
    #expect(await started.wait(seconds: hangGuardSeconds))
    await client.cancelQueries(QueryFilters(queryKey: ["slow"]))
    #expect(await ended.wait(seconds: hangGuardSeconds), "Task.sleep inside the query function was not cancelled")
    #expect(client.getQueryState(["slow"])?.fetchStatus == .idle)
  }

  @Test func theLastObserverLeavingCancelsAFunctionThatReadItsSignal() async throws {
    let client = QueryClient(scheduler: ClockScheduler(clock: ContinuousClock()))
    let started = Gate()
    let sawCancellation = Gate()
    var options = QueryOptions(queryKey: ["watched"])
    options.queryFn = .fn { context in
      _ = context.signal
      started.open()
      do {
        try await Task.sleep(for: .seconds(60))
      } catch {
        sawCancellation.open()
        throw error
      }
      return 1
    }
    let observer = QueryObserver(client: client, options: options)
    let unsubscribe = observer.subscribe { _ in }
    #expect(await started.wait(seconds: hangGuardSeconds))
    unsubscribe()
    #expect(await sawCancellation.wait(seconds: hangGuardSeconds))
  }

  @Test func cancellingTheCallersTaskThrowsCancellationErrorButTheSharedFetchGoesOn() async throws {
    let client = QueryClient(scheduler: ClockScheduler(clock: ContinuousClock()))
    let release = Gate()
    let started = Gate()
    let fn: @Sendable (QueryFunctionContext) async throws -> Int = { _ in
      started.open()
      _ = await release.wait(seconds: hangGuardSeconds)
      return 7
    }
    let first = Task { try await client.fetchQuery(["shared"], as: Int.self, queryFn: fn) }
    #expect(await started.wait(seconds: hangGuardSeconds))
    let second = Task { try await client.fetchQuery(["shared"], as: Int.self, queryFn: fn) }
    first.cancel()
    await #expect(throws: CancellationError.self) { try await first.value }
    release.open()
    #expect(try await second.value == 7)
    #expect(client.getQueryData(["shared"]) as? Int == 7)
  }

  /// TanStack ends a thrown `CancelledError()` in `error`; with `revert` or `silent` it leaves the
  /// query pending and fetching forever, which Quarry does not copy (ARCHITECTURE.md, Deviations).
  @Test func aQueryFunctionThrowingCancelledErrorEndsInError() async {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    for (i, thrown) in [CancelledError(), CancelledError(revert: true), CancelledError(silent: true)].enumerated() {
      var options = QueryOptions(queryKey: ["thrown", .number(Double(i))])
      options.queryFn = .fn { _ in throw thrown }
      let task = Task(executorPreference: scheduler) { try await client.fetchQuery(options) }
      scheduler.advance(by: 0)
      await #expect(throws: CancelledError.self) { try await task.value }
      let state = client.getQueryState(["thrown", .number(Double(i))])
      #expect(state?.fetchStatus == .idle)
      #expect(state?.status == .error)
    }
  }

  // MARK: The lock

  @Test func removingAnotherClientsQueryIsIgnored() {
    let a = QueryClient(scheduler: VirtualScheduler())
    let b = QueryClient(scheduler: VirtualScheduler())
    a.setQueryData(["k"], value: 0)
    b.setQueryData(["k"], value: 1)
    let events = Log()
    let unsubscribe = a.queryCache.subscribe { events.append("\($0.type) \($0.query.state.data ?? "nil")") }
    let foreign = b.queryCache.find(QueryFilters(queryKey: ["k"]))!
    a.queryCache.remove(foreign)  // used to destroy B's query under A's lock
    unsubscribe()
    #expect(events.entries == [])
    #expect(a.getQueryData(["k"]) as? Int == 0)
    #expect(b.queryCache.find(QueryFilters(queryKey: ["k"])) === foreign)
  }

  @Test func aListenerWaitingForAnotherThreadThatUsesTheClientDoesNotDeadlock() {
    let client = QueryClient(scheduler: ClockScheduler(clock: ContinuousClock()))
    let handedOff = DispatchSemaphore(value: 0)
    let timedOut = Log()
    let unsubscribe = client.queryCache.subscribe { event in
      guard case .added = event, event.query.queryKey == ["source"] else { return }
      // A UIKit-style synchronous hand-off to another thread that touches the client.
      DispatchQueue.global().async {
        client.setQueryData(["other"], value: 2)
        handedOff.signal()
      }
      if handedOff.wait(timeout: .now() + 5) == .timedOut { timedOut.append("deadlock") }
    }
    client.setQueryData(["source"], value: 1)
    unsubscribe()
    #expect(timedOut.entries == [])
    #expect(client.getQueryData(["other"]) as? Int == 2)
  }

  @Test func aQueryFunctionsSynchronousPrefixDoesNotHoldTheLock() async throws {
    let client = QueryClient(scheduler: ClockScheduler(clock: ContinuousClock()))
    client.setQueryData(["other"], value: 1)
    let readElsewhere = DispatchSemaphore(value: 0)
    var options = QueryOptions(queryKey: ["prefix"])
    options.queryFn = .fn { _ in
      // Before its first suspension, the function waits for another thread to read the client.
      DispatchQueue.global().async {
        _ = client.getQueryData(["other"])
        readElsewhere.signal()
      }
      return readElsewhere.wait(timeout: .now() + 5) == .timedOut ? "blocked" : "free"
    }
    let value = try await client.fetchQuery(options)
    #expect(value as? String == "free")
  }
}

/// A one-shot latch tests wait on with a timeout.
final class Gate: @unchecked Sendable {
  // Safe: `isOpen` is guarded by `lock`.
  private let lock = NSLock()
  private var isOpen = false

  func open() { lock.withLock { isOpen = true } }

  /// Whether the gate opened within `seconds` (polls every millisecond, real time).
  func wait(seconds: Double) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
      if lock.withLock({ isOpen }) { return true }
      try? await Task.sleep(for: .milliseconds(1))
    }
    return lock.withLock { isOpen }
  }
}
