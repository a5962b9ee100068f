import Testing
import QuarryApp

@Suite struct TypedClientTests {
  @Test func fetchQueryReturnsTheFunctionsValueAndCachesItUnderItsKey() async throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let server = FakeServer(scheduler: scheduler)
    let task = Task(executorPreference: scheduler) { try await client.fetchQuery(FetchTodos(server: server)) }
    scheduler.advance(by: 100)
    #expect(try await task.value == [Todo(id: 1, title: "milk")])
    #expect(try client.getQueryData(QueryCacheKey<FetchTodos>(variables: .value)) == [Todo(id: 1, title: "milk")])
  }

  @Test func readingAnEntryOfAnotherTypeThrowsAndWritingNeverOverwritesIt() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    let key = QueryCacheKey<FetchTodo>(variables: 1)
    client.setQueryData(key.queryKey, value: "not a todo")
    #expect(throws: QuarryError.self) { try client.getQueryData(key) }
    #expect(throws: QuarryError.self) { try client.setQueryData(key) { _ in Todo(id: 1, title: "x") } }
    #expect(client.getQueryData(key.queryKey) as? String == "not a todo")
  }

  @Test func invalidatingATypeReachesEveryVariable() async throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    for id in 1...3 { try client.setQueryData(QueryCacheKey<FetchTodo>(variables: id)) { _ in Todo(id: id, title: "\(id)") } }
    client.setQueryData(["other"], value: 0)
    let task = Task(executorPreference: scheduler) { try await client.invalidateQueries(QueryCacheKey<FetchTodo>.all) }
    scheduler.advance(by: 0)
    try await task.value
    let invalidated = client.queryCache.findAll().filter { $0.state.isInvalidated }.map(\.queryHash)
    #expect(invalidated.count == 3)
    #expect(client.getQueryState(["other"])?.isInvalidated == false)
  }
}
