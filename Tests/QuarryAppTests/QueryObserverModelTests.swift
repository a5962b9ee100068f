import Foundation
import Testing
import QuarryApp

/// Counts calls from any thread.
final class CallCounter: @unchecked Sendable {
  // Safe: `count` is only touched while `lock` is held.
  private let lock = NSLock()
  private var count = 0
  func increment() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}

/// Ten times its variable, after 10 ms of virtual time.
struct FetchTimesTen: QueryFunc {
  let scheduler: VirtualScheduler
  func run(_ n: Int) async throws -> Int {
    await scheduler.sleep(10)
    return n * 10
  }
}

/// `QueryObserverModel`: TanStack's observer options (`enabled`, `select`, `placeholderData`,
/// `staleTime`, `refetchInterval`) on the typed model.
@MainActor @Suite struct QueryObserverModelTests {
  @Test func aDisabledQueryDoesNotFetchUntilEnabled() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let server = FakeServer(scheduler: scheduler)
    var options = QueryObserverOptions<[Todo], [Todo]>(enabled: false)
    let todos = QueryObserverModel(FetchTodos(server: server), client: client, options: options)
    todos.setVariables(.value)
    scheduler.advance(by: 1_000)
    #expect(server.callLog == [])
    #expect(todos.state.isStale)
    #expect(!todos.isFetching)
    #expect(todos.result?.isEnabled == false)

    options.enabled = true
    todos.setOptions(options)
    #expect(todos.isFetching)
    #expect(todos.state.isFetching)
    scheduler.advance(by: 100)
    #expect(todos.value == [Todo(id: 1, title: "milk")])
    #expect(server.callLog == ["GET /todos"])

    // Disabled again: invalidation marks it stale but does not refetch it.
    options.enabled = false
    todos.setOptions(options)
    _ = client.invalidateQueriesPromise(keys: [QueryCacheKey<FetchTodos>.all.queryKey])
    scheduler.advance(by: 1_000)
    #expect(server.callLog == ["GET /todos"])
    #expect(client.queryCache.findAll().first?.state.isInvalidated == true)
    #expect(!todos.isStale)  // a disabled observer never reports stale (TanStack's `isStale`)
    #expect(todos.value == [Todo(id: 1, title: "milk")])
  }

  @Test func selectTransformsOncePerDataAndTheQueryIsShared() throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let server = FakeServer(scheduler: scheduler)
    let titleCalls = CallCounter()
    let titles = QueryObserverModel(FetchTodos(server: server), client: client, options: QueryObserverOptions(select: { todos in
      titleCalls.increment()
      return todos.map(\.title)
    }))
    let count = QueryObserverModel(FetchTodos(server: server), client: client, options: QueryObserverOptions(select: { $0.count }))
    titles.setVariables(.value)
    count.setVariables(.value)
    scheduler.advance(by: 100)
    #expect(titles.value == ["milk"])
    #expect(count.value == 1)
    #expect(server.callLog == ["GET /todos"])  // one query, one fetch, two selections
    #expect(titleCalls.value == 1)

    // A refetch: the fetching notification carries the same data, so `select` is not run again.
    _ = client.invalidateQueriesPromise(keys: [QueryCacheKey<FetchTodos>.all.queryKey])
    scheduler.advance(by: 0)
    #expect(titles.isFetching)
    #expect(titles.value == ["milk"])
    #expect(titleCalls.value == 1)
    // Equal data: structural sharing keeps the cached data, so the selection is kept too.
    scheduler.advance(by: 100)
    #expect(!titles.isFetching)
    #expect(titleCalls.value == 1)
    // New data: selected again.
    _ = Task(executorPreference: scheduler) { try await server.add("eggs") }
    scheduler.advance(by: 50)
    _ = client.invalidateQueriesPromise(keys: [QueryCacheKey<FetchTodos>.all.queryKey])
    scheduler.advance(by: 100)
    #expect(titles.value == ["milk", "eggs"])
    #expect(count.value == 2)
    #expect(titleCalls.value == 2)
    #expect(server.callLog == ["GET /todos", "GET /todos", "POST /todos eggs", "GET /todos"])
    // The cache keeps the function's value, not the selection.
    #expect(try client.getQueryData(QueryCacheKey<FetchTodos>(variables: .value))?.map(\.id) == [1, 2])
  }

  @Test func aPlaceholderIsShownWhilePendingFlaggedAndNeverCached() throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let server = FakeServer(scheduler: scheduler)
    let placeholder = [Todo(id: 0, title: "…")]
    let titles = QueryObserverModel(FetchTodos(server: server), client: client, options: QueryObserverOptions(
      select: { $0.map(\.title) }, placeholderData: .value(placeholder)))
    titles.setVariables(.value)
    #expect(titles.state.value == ["…"])  // through `select`, as TanStack's
    #expect(titles.isPlaceholderData)
    #expect(titles.isFetching)
    #expect(try client.getQueryData(QueryCacheKey<FetchTodos>(variables: .value)) == nil)
    scheduler.advance(by: 100)
    #expect(titles.state.value == ["milk"])
    #expect(!titles.isPlaceholderData)
  }

  @Test func keepPreviousDataShowsTheLastKeysValueUntilTheNewOneArrives() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let model = QueryObserverModel(FetchTimesTen(scheduler: scheduler), client: client, options: QueryObserverOptions(
      placeholderData: .keepPreviousData))
    model.setVariables(1)
    #expect(model.state.isFetching)  // no previous data yet: nothing to keep
    #expect(!model.isPlaceholderData)
    scheduler.advance(by: 10)
    #expect(model.value == 10)
    model.setVariables(2)
    #expect(model.value == 10)
    #expect(model.isPlaceholderData)
    #expect(model.isFetching)
    scheduler.advance(by: 10)
    #expect(model.value == 20)
    #expect(!model.isPlaceholderData)
  }

  @Test func staleTimeAndRefetchIntervalOverrideTheFunctionsOptions() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let server = FakeServer(scheduler: scheduler)
    let todos = QueryObserverModel(FetchTodos(server: server), client: client, options: QueryObserverOptions(
      staleTime: .seconds(60), refetchInterval: .seconds(1)))
    todos.setVariables(.value)
    scheduler.advance(by: 100)
    #expect(!todos.isStale)
    // The interval restarts at each update of the query (TanStack's `#updateTimers`): the first
    // load ends at 100, so the interval fetches at 1 100 (ending at 1 200) and 2 200.
    scheduler.advance(to: 2_199)
    #expect(server.callLog.count == 2)
    scheduler.advance(to: 2_200)
    #expect(server.callLog == ["GET /todos", "GET /todos", "GET /todos"])
    todos.stop()
    scheduler.advance(by: 10_000)
    #expect(server.callLog.count == 3)
    #expect(client.queryCache.findAll().allSatisfy { !$0.isActive() })
  }
}

/// What a SwiftUI wrapper does on each view update.
@MainActor @Suite struct QueryObserverModelOptionValuesTests {
  @Test func optionValuesFollowTheViewAndFunctionsStayTheFirstOnes() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let server = FakeServer(scheduler: scheduler)
    let firstSelect = CallCounter()
    let laterSelect = CallCounter()
    func options(enabled: Bool, _ counter: CallCounter) -> QueryObserverOptions<[Todo], Int> {
      QueryObserverOptions(enabled: enabled, select: { todos in
        counter.increment()
        return todos.count
      })
    }
    let count = QueryObserverModel(FetchTodos(server: server), client: client, options: options(enabled: false, firstSelect))
    count.setVariables(.value)
    count.setOptionValues(from: options(enabled: false, laterSelect))  // same values: nothing happens
    scheduler.advance(by: 100)
    #expect(server.callLog == [])
    count.setOptionValues(from: options(enabled: true, laterSelect))   // enabled flips: fetches
    #expect(count.isFetching)
    scheduler.advance(by: 100)
    #expect(count.value == 1)
    count.setOptionValues(from: options(enabled: true, laterSelect))
    #expect(firstSelect.value == 1)
    #expect(laterSelect.value == 0)
    #expect(count.options.enabled == true)
  }
}
