import Testing
import QuarryApp

/// `RestoreGate`: while a persisted cache is restored, models show the idle result mounting
/// would give and do not subscribe (TanStack's `useBaseQuery` with `isRestoring`); once the gate
/// opens they subscribe and see the restored data. The restore is simulated by writing the
/// data the persister would hydrate.
@MainActor @Suite struct RestoreGateTests {
  @Test func aModelWaitsForTheRestoreAndThenShowsFreshRestoredDataWithoutFetching() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let server = FakeServer(scheduler: scheduler)
    let gate = RestoreGate()
    let todos = QueryObserverModel(FetchTodos(server: server), client: client,
      options: QueryObserverOptions(staleTime: .seconds(60)), restoreGate: gate)
    todos.setVariables(.value)
    #expect(todos.isRestoring)
    #expect(todos.state.isStale)  // pending, idle: not `.fetching`
    #expect(todos.result?.fetchStatus == .idle)
    #expect(todos.result?.status == .pending)
    scheduler.advance(by: 1_000)
    #expect(server.callLog == [])

    // The restore hydrates the cache; the model is not subscribed yet, so it shows nothing new.
    client.setQueryData(QueryCacheKey<FetchTodos>(variables: .value).queryKey, value: [Todo(id: 7, title: "restored")])
    #expect(todos.value == nil)
    gate.finish()
    #expect(!gate.isRestoring)
    #expect(!todos.isRestoring)
    #expect(todos.value == [Todo(id: 7, title: "restored")])
    scheduler.advance(by: 1_000)
    #expect(server.callLog == [])  // fresh: no fetch
  }

  @Test func staleRestoredDataIsShownWhileItRefetches() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let server = FakeServer(scheduler: scheduler)
    let gate = RestoreGate()
    let todos = QueryModel(FetchTodos(server: server), client: client, restoreGate: gate)
    todos.setVariables(.value)
    client.setQueryData(QueryCacheKey<FetchTodos>(variables: .value).queryKey, value: [Todo(id: 7, title: "restored")])
    scheduler.advance(by: 10)
    gate.finish()
    #expect(todos.value == [Todo(id: 7, title: "restored")])
    #expect(todos.isFetching)
    scheduler.advance(by: 100)
    #expect(todos.value == [Todo(id: 1, title: "milk")])
    #expect(server.callLog == ["GET /todos"])
  }

  @Test func switchingVariablesWhileRestoringStaysIdleAndAnOpenGateHoldsNothingBack() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let gate = RestoreGate()
    let model = QueryModel(FetchTimesTen(scheduler: scheduler), client: client, restoreGate: gate)
    model.setVariables(1)
    model.setVariables(2)
    scheduler.advance(by: 100)
    #expect(model.state.isStale)
    #expect(client.queryCache.findAll().allSatisfy { $0.state.dataUpdateCount == 0 })
    gate.finish()
    #expect(model.state.isFetching)
    scheduler.advance(by: 10)
    #expect(model.value == 20)

    // A model made after the restore subscribes at once.
    let later = QueryModel(FetchTimesTen(scheduler: scheduler), client: client, restoreGate: gate)
    later.setVariables(3)
    #expect(!later.isRestoring)
    #expect(later.state.isFetching)
    let open = QueryModel(FetchTimesTen(scheduler: scheduler), client: client, restoreGate: RestoreGate(isRestoring: false))
    open.setVariables(4)
    #expect(open.state.isFetching)
  }

  @Test func infiniteAndQueriesModelsWaitToo() {
    struct Name: QueryFunc { func run(_ id: Int) async throws -> String { "user \(id)" } }
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let gate = RestoreGate()
    let feed = InfiniteQueryModel(FetchPages(), client: client, restoreGate: gate)
    feed.setVariables(.value)
    let names = QueriesModel(client: client, queries: [QueriesModelEntry(Name(), 1, client: client)], restoreGate: gate) { results in
      results.map { $0.data as? String ?? "…" }
    }
    scheduler.advance(by: 100)
    #expect(feed.isRestoring)
    #expect(feed.data == nil)
    #expect(!feed.isFetching)
    #expect(names.isRestoring)
    #expect(names.combined == ["…"])
    #expect(names.results.first?.fetchStatus == .idle)
    gate.finish()
    #expect(feed.isFetching)
    #expect(!names.isRestoring)
    scheduler.advance(by: 0)
    #expect(feed.data?.pages == [[0, 1]])
    #expect(names.combined == ["user 1"])
  }
}
