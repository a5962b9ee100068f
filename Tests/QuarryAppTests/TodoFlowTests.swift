import Observation
import Testing
import QuarryApp

struct AddTodo: MutationFunc {
  let server: FakeServer
  func run(variables: String) async throws -> Todo { try await server.add(variables) }
}

struct FetchPages: InfiniteQueryFunc {
  let initialPageParam = 0
  var options: QueryFuncOptions { QueryFuncOptions(retry: 0) }
  func run(variables: QueryVoid, pageParam: Int) async throws -> [Int] {
    pageParam < 3 ? [pageParam * 10, pageParam * 10 + 1] : []
  }
  func nextPageParam(lastPage: [Int], allPages: [[Int]], lastPageParam: Int, allPageParams: [Int]) -> Int? {
    lastPage.isEmpty ? nil : lastPageParam + 1
  }
}

/// The whole flow of a to-do screen, on virtual time, checking what the models show at each step
/// and that each change is observed exactly when the engine notifies.
@MainActor @Suite struct TodoFlowTests {
  @Test func loadAddOptimisticallyRollBackAndInvalidate() throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let server = FakeServer(scheduler: scheduler)
    let list = QueryCacheKey<FetchTodos>(variables: .value)
    let todos = QueryModel(FetchTodos(server: server), client: client)
    let add = MutationModel(AddTodo(server: server), client: client)

    // Load.
    todos.setVariables(.value)
    scheduler.advance(by: 100)
    #expect(todos.state.value?.map(\.title) == ["milk"])

    // An optimistic add that fails: the list shows the new item at once, then rolls back.
    server.failNext()
    let optimistic: @Sendable (QueryClient) throws -> @Sendable () -> Void = { client in
      let previous = try client.getQueryData(list)
      try client.setQueryData(list) { old in (old ?? []) + [Todo(id: -1, title: "eggs")] }
      return { _ = try? client.setQueryData(list) { _ in previous } }
    }
    var probe = ChangeProbe { _ = todos.state }
    // The model starts the mutation synchronously; the virtual clock runs it.
    Task.immediate { await add.mutate(with: "eggs", optimistic: optimistic, invalidating: [list]) }
    scheduler.advance(by: 0)
    #expect(probe.fired)
    #expect(todos.state.value?.map(\.title) == ["milk", "eggs"])
    #expect(add.state.isPending)
    probe = ChangeProbe { _ = todos.state }
    scheduler.advance(by: 50)  // the server refuses: rollback, then the invalidation refetches
    #expect(probe.fired)
    #expect(todos.state.value?.map(\.title) == ["milk"])
    #expect(todos.isFetching)
    scheduler.advance(by: 100)
    guard case .error(let error) = add.state else {
      Issue.record("expected the mutation to fail, got \(add.state)")
      return
    }
    #expect(error as? ServerError == .unavailable)

    // The same add succeeds: optimistic item, then the server's list after the invalidation.
    Task.immediate { await add.mutate(with: "eggs", optimistic: optimistic, invalidating: [list]) }
    scheduler.advance(by: 0)
    #expect(todos.state.value?.map(\.id) == [1, -1])
    scheduler.advance(by: 150)
    #expect(todos.state.value?.map(\.id) == [1, 2])
    #expect(add.state.value == Todo(id: 2, title: "eggs"))
    #expect(server.callLog == ["GET /todos", "POST /todos eggs", "GET /todos", "POST /todos eggs", "GET /todos"])
  }

  @Test func pagesThroughAnInfiniteList() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let feed = InfiniteQueryModel(FetchPages(), client: client)
    feed.setVariables(.value)
    #expect(feed.state.isFetchingFirstPage)
    scheduler.advance(by: 0)
    #expect(feed.data?.pages == [[0, 1]])
    #expect(feed.hasNextPage)
    var pages = 1
    while feed.hasNextPage {
      // The model starts the fetch synchronously; the virtual clock runs it to completion.
      Task.immediate { await feed.fetchNextPage() }
      scheduler.advance(by: 0)
      pages += 1
      #expect(pages < 10)
    }
    #expect(feed.data?.pages == [[0, 1], [10, 11], [20, 21], []])
    #expect(feed.data?.pageParams == [0, 1, 2, 3])
    guard case .success(let data) = feed.state else {
      Issue.record("expected success, got \(feed.state)")
      return
    }
    #expect(data.pages.flatMap { $0 } == [0, 1, 10, 11, 20, 21])
  }

  @Test func aQueriesModelCombinesQueriesOfDifferentTypes() {
    struct Name: QueryFunc { func run(_ id: Int) async throws -> String { "user \(id)" } }
    struct Count: QueryFunc { func run(_ id: Int) async throws -> Int { id * 10 } }
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let model = QueriesModel(client: client, queries: [
      QueriesModelEntry(Name(), 1, client: client), QueriesModelEntry(Count(), 1, client: client),
    ]) { results in "\(results[0].data as? String ?? "…"): \(results[1].data as? Int ?? 0)" }
    #expect(model.combined == "…: 0")
    scheduler.advance(by: 0)
    #expect(model.combined == "user 1: 10")
  }
}

extension MutationViewState {
  var isPending: Bool { if case .pending = self { return true } else { return false } }
  var value: Value? { if case .success(let v) = self { return v } else { return nil } }
}

extension InfiniteQueryState {
  var isFetchingFirstPage: Bool { if case .fetching = self { return true } else { return false } }
}
