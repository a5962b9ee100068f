import Testing
@testable import Quarry

/// Data and errors have JavaScript's identity: shared where TanStack shares a reference, new where
/// it creates an object, and compared by value for primitives.
@Suite struct IdentityTests {
  struct Todo: Sendable, Equatable { var title: String }

  @Test func setQueriesDataWithOneBoxWritesOneObjectToEveryQuery() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["todos", 1], value: Todo(title: "a"))
    client.setQueryData(["todos", 2], value: Todo(title: "b"))
    let shared = DataBox(Todo(title: "same"))
    client.setQueriesData(QueryFilters(queryKey: ["todos"])) { _ in shared }
    let first = client.getQueryState(["todos", 1])?.dataBox
    let second = client.getQueryState(["todos", 2])?.dataBox
    #expect(first === shared && second === shared)
    #expect(client.getQueryData(["todos", 1]) as? Todo == Todo(title: "same"))
  }

  @Test func equalValuesFromAnUpdaterAreNewObjectsUnlessStructurallyShared() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: Todo(title: "x"))
    client.setQueryData(["b"], value: Todo(title: "x"))
    let a = client.getQueryState(["a"])?.dataBox
    #expect(a !== client.getQueryState(["b"])?.dataBox)
    client.setQueryData(["a"], value: Todo(title: "x"))  // equal: structural sharing keeps the object
    #expect(client.getQueryState(["a"])?.dataBox === a)
  }

  @Test func primitivesCompareByValue() {
    #expect(sameData(DataBox(JSONValue.number(4)), DataBox(JSONValue.number(4))))
    #expect(sameData(DataBox("s"), DataBox("s")))
    #expect(!sameData(DataBox(JSONValue.array([1])), DataBox(JSONValue.array([1]))))
    #expect(!sameData(DataBox(JSONValue.number(.nan)), DataBox(JSONValue.number(.nan))))
    #expect(sameData(nil, nil))
  }

  @Test func initialDataGivenAsAValueIsOneObjectInEveryQuery() {
    let client = QueryClient(scheduler: VirtualScheduler())
    var defaults = QueryOptions()
    defaults.initialData = .value(Todo(title: "init"))
    client.setQueryDefaults(["todos"], defaults)
    let first = QueryObserver(client: client, options: QueryOptions(queryKey: ["todos", 1]))
    let second = QueryObserver(client: client, options: QueryOptions(queryKey: ["todos", 2]))
    #expect(first.getCurrentResult().dataBox === second.getCurrentResult().dataBox)
    #expect(first.getCurrentResult().data as? Todo == Todo(title: "init"))
  }

  @Test func everyFailureIsANewErrorEvenWithAnEqualValue() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    client.setQueryData(["k"], value: 1)
    var options = QueryOptions(queryKey: ["k"])
    options.retry = .bool(false)
    options.notifyOnChangeProps = .props(["error"])
    let observer = QueryObserver(client: client, options: options)
    let log = Log()
    let unsubscribe = observer.subscribe { result in log.append("\(result.error.map { "\($0)" } ?? "nil")") }
    scheduler.advance(by: 1)
    _ = observer.refetchPromise()
    scheduler.advance(by: 1)
    unsubscribe()
    // No query function: each fetch fails with its own `Missing queryFn` error.
    #expect(log.entries == [#"Missing queryFn: '["k"]'"#, #"Missing queryFn: '["k"]'"#])
  }

  @Test func aStructuralSharingFunctionDecidesTheObjectKept() {
    let client = QueryClient(scheduler: VirtualScheduler())
    var defaults = QueryOptions()
    defaults.structuralSharing = .function(FunctionBox { @Sendable previous, data in previous ?? data })
    client.setQueryDefaults(["k"], defaults)  // options are set when the query is built
    client.setQueryData(["k"], value: Todo(title: "old"))
    let old = client.getQueryState(["k"])?.dataBox
    client.setQueryData(["k"], value: Todo(title: "new"))
    #expect(client.getQueryState(["k"])?.dataBox === old)
    #expect(client.getQueryState(["k"])?.dataUpdateCount == 2)
  }

  @Test func queryKeyHashFnNamesTheCacheEntry() {
    let client = QueryClient(scheduler: VirtualScheduler())
    var defaults = QueryOptions()
    defaults.queryKeyHashFn = FunctionBox { @Sendable key in key.parts.map { $0.stringValue ?? "?" }.joined(separator: "/") }
    client.setQueryDefaults(["users"], defaults)
    client.setQueryData(["users", "ada"], value: "Ada")
    #expect(client.queryCache.get("users/ada") != nil)
    #expect(client.getQueryData(["users", "ada"]) as? String == "Ada")
    #expect(client.queryCache.find(QueryFilters(queryKey: ["users", "ada"], exact: true)) != nil)
  }
}
