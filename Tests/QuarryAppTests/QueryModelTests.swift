import Observation
import Testing
import QuarryApp

/// Whether reading `properties` of a model is followed by a change notification.
@MainActor final class ChangeProbe {
  private(set) var fired = false
  init(_ read: @escaping @MainActor () -> Void) {
    withObservationTracking(read) { [weak self] in
      MainActor.assumeIsolated { self?.fired = true }
    }
  }
}

@MainActor @Suite struct QueryModelTests {
  @Test func loadsThenRefetchesWhileShowingTheOldValue() async throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let server = FakeServer(scheduler: scheduler)
    let todos = QueryModel(FetchTodos(server: server), client: client)
    #expect(todos.state.isStale)

    todos.setVariables(.value)
    #expect(todos.state.isFetching)
    #expect(todos.isFetching)

    var probe = ChangeProbe { _ = todos.state }
    scheduler.advance(by: 99)
    #expect(!probe.fired)  // nothing happened yet: no notification
    scheduler.advance(by: 1)
    #expect(probe.fired)
    #expect(todos.state.value == [Todo(id: 1, title: "milk")])
    #expect(!todos.isFetching)

    // Invalidate: a background refetch keeps the old value on screen.
    probe = ChangeProbe { _ = todos.isFetching }
    let invalidation = Task(executorPreference: scheduler) { try await client.invalidateQueries(QueryCacheKey<FetchTodos>.all) }
    scheduler.advance(by: 0)
    #expect(probe.fired)
    #expect(todos.isFetching)
    #expect(todos.state.value == [Todo(id: 1, title: "milk")])
    scheduler.advance(by: 100)
    try await invalidation.value
    #expect(!todos.isFetching)
    #expect(server.callLog == ["GET /todos", "GET /todos"])
  }

  @Test func aFailedFirstLoadIsAnErrorState() async {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    struct Failing: QueryFunc {
      var options: QueryFuncOptions { QueryFuncOptions(retry: 0) }
      func run(_ variables: QueryVoid) async throws -> Int { throw ServerError.unavailable }
    }
    let model = QueryModel(Failing(), client: client)
    model.setVariables(.value)
    scheduler.advance(by: 0)
    guard case .error(let error) = model.state else {
      Issue.record("expected an error state, got \(model.state)")
      return
    }
    #expect(error as? ServerError == .unavailable)
  }

  @Test func switchingVariablesWatchesTheNewKey() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let server = FakeServer(scheduler: scheduler)
    let todo = QueryModel(FetchTodo(server: server), client: client)
    todo.setVariables(1)
    scheduler.advance(by: 100)
    #expect(todo.value == Todo(id: 1, title: "milk"))
    todo.setVariables(2)
    #expect(todo.state.isFetching)
    #expect(todo.value == nil)  // another key: the old value is not shown as this one's
    scheduler.advance(by: 100)
    guard case .error(let error) = todo.state else {
      Issue.record("expected not found, got \(todo.state)")
      return
    }
    #expect(error as? ServerError == .notFound)
    #expect(client.queryCache.findAll(QueryFilters(queryKey: QueryCacheKey<FetchTodo>.all)).count == 2)
  }

  @Test func anEntryOfAnotherTypeIsAnErrorNotATrap() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let server = FakeServer(scheduler: scheduler)
    client.setQueryData(QueryCacheKey<FetchTodos>(variables: .value).queryKey, value: 42)
    let todos = QueryModel(FetchTodos(server: server), client: client)
    todos.setVariables(.value)
    guard case .error(let error) = todos.state else {
      Issue.record("expected a type-mismatch error, got \(todos.state)")
      return
    }
    #expect(error is QuarryError)
  }
}

extension QueryViewState {
  var isStale: Bool { if case .stale = self { return true } else { return false } }
  var isFetching: Bool { if case .fetching = self { return true } else { return false } }
}
