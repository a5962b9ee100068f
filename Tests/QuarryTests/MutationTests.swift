import Testing
@testable import Quarry

/// The Swift-facing mutation API: typed variables and results, Swift errors, callbacks and
/// observers, on the virtual clock.
@Suite struct MutationTests {
  struct Todo: Sendable, Equatable {
    var id: Int
    var title: String
  }

  struct ServerError: Error, Equatable {
    var code: Int
  }

  @Test func clientMutateTakesTypedVariablesAndReturnsATypedResult() async throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let task = Task(executorPreference: scheduler) {
      try await client.mutate("buy milk", as: Todo.self) { title, _ in
        await scheduler.sleep(10)
        return Todo(id: 1, title: title)
      }
    }
    scheduler.advance(by: 0)
    #expect(client.isMutating() == 1)
    #expect(client.mutationCache.getAll().first?.state.variables as? String == "buy milk")
    scheduler.advance(by: 10)
    #expect(try await task.value == Todo(id: 1, title: "buy milk"))
    #expect(client.isMutating() == 0)
    let state = try #require(client.mutationCache.getAll().first?.state)
    #expect(state.status == .success)
    #expect(try state.data(as: Todo.self) == Todo(id: 1, title: "buy milk"))
  }

  /// TanStack's `#mutationDefaults` is a `Map`: setting a key again keeps its position, so a
  /// narrower key registered in between still wins (TanStack 5.102.0 gives 2 here).
  @Test func settingMutationDefaultsAgainKeepsTheKeysPosition() {
    let client = QueryClient(scheduler: VirtualScheduler())
    var one = MutationOptions()
    one.retry = .count(1)
    var two = MutationOptions()
    two.retry = .count(2)
    var three = MutationOptions()
    three.retry = .count(3)
    client.setMutationDefaults(["a"], one)
    client.setMutationDefaults(["a", "b"], two)
    client.setMutationDefaults(["a"], three)
    #expect(client.getMutationDefaults(["a", "b"]).retry == .count(2))
    #expect(client.getMutationDefaults(["a"]).retry == .count(3))
  }

  @Test func aFailingMutationFunctionThrowsItsSwiftError() async {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let task = Task(executorPreference: scheduler) {
      try await client.mutate(1, as: Todo.self) { (_: Int, _) -> Todo in throw ServerError(code: 500) }
    }
    scheduler.advance(by: 0)
    await #expect(throws: ServerError(code: 500)) { try await task.value }
    let state = client.mutationCache.getAll().first?.state
    #expect(state?.status == .error)
    #expect(state?.error as? ServerError == ServerError(code: 500))
    #expect(state?.failureCount == 1)
  }

  @Test func aResultOfAnotherTypeIsAThrownTypeMismatch() async {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    // The key's defaults supply a function returning an Int; the caller asks for a String.
    var defaults = MutationOptions()
    defaults.mutationFn = .typed { (n: Int, _) in n * 2 }
    client.setMutationDefaults(["double"], defaults)
    let task = Task(executorPreference: scheduler) {
      try await client.mutate(21, as: String.self, options: MutationOptions(mutationKey: ["double"]))
    }
    scheduler.advance(by: 0)
    await #expect(throws: QuarryError.typeMismatch(key: "mutation data", expected: "String", actual: "Int")) { try await task.value }
    #expect(client.mutationCache.getAll().first?.state.data as? Int == 42)
  }

  @Test func variablesOfAnotherTypeAreAThrownTypeMismatch() async {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var options = MutationOptions()
    options.mutationFn = .typed { (title: String, _) in title }
    let task = Task(executorPreference: scheduler) { try await client.mutate(options, variables: 7) }
    scheduler.advance(by: 0)
    await #expect(throws: QuarryError.typeMismatch(key: "mutation variables", expected: "String", actual: "Int")) { try await task.value }
    #expect(client.mutationCache.getAll().first?.state.status == .error)
  }

  @Test func callbacksRunInTanStacksOrderWithTheContextFromOnMutate() async throws {
    let scheduler = VirtualScheduler()
    let log = Log()
    let cacheConfig = MutationCache.Config(
      onMutate: MutationCallback { _ in log.append("cache.onMutate"); return nil },
      onSuccess: MutationCallback { input in log.append("cache.onSuccess #\(input.mutation?.mutationId ?? 0)"); return nil },
      onSettled: MutationCallback { _ in log.append("cache.onSettled"); return nil })
    let client = QueryClient(scheduler: scheduler, mutationCacheConfig: cacheConfig)
    var options = MutationOptions()
    options.mutationFn = .typed { (title: String, _) in log.append("mutationFn \(title)"); return title.count }
    options.onMutate = MutationCallback { input in log.append("onMutate"); return "snapshot of \(input.variables as? String ?? "")" }
    options.onSuccess = .async { input in
      await scheduler.sleep(5)
      log.append("onSuccess \(input.data as? Int ?? -1) \(input.context as? String ?? "")")
      return nil
    }
    options.onSettled = MutationCallback { input in log.append("onSettled error=\(input.error == nil ? "nil" : "set")"); return nil }
    let task = Task(executorPreference: scheduler) { try await client.mutate(options, variables: "milk") }
    scheduler.advance(by: 0)
    #expect(client.mutationCache.getAll().first?.state.context as? String == "snapshot of milk")
    scheduler.advance(by: 5)
    #expect(try await task.value as? Int == 4)
    #expect(log.entries == [
      "cache.onMutate", "onMutate", "mutationFn milk", "cache.onSuccess #1", "onSuccess 4 snapshot of milk",
      "cache.onSettled", "onSettled error=nil",
    ])
  }

  @Test func anObserverReportsIdlePendingSuccessAndReturnsATypedResult() async throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let log = Log()
    var options = MutationOptions(mutationKey: ["addTodo"])
    options.mutationFn = .typed { (title: String, _) in
      await scheduler.sleep(10)
      return Todo(id: 7, title: title)
    }
    let observer = MutationObserver(client: client, options: options)
    #expect(observer.getCurrentResult().isIdle)
    let unsubscribe = observer.subscribe { log.append("\($0.status) paused=\($0.isPaused)") }
    let perCall = MutateOptions(onSuccess: MutationCallback { input in log.append("mutate.onSuccess \((input.data as? Todo)?.id ?? 0)"); return nil })
    let task = Task(executorPreference: scheduler) { try await observer.mutate("walk", as: Todo.self, options: perCall) }
    scheduler.advance(by: 10)
    #expect(try await task.value == Todo(id: 7, title: "walk"))
    #expect(try observer.getCurrentResult().data(as: Todo.self) == Todo(id: 7, title: "walk"))
    #expect(throws: QuarryError.self) { try observer.getCurrentResult().data(as: String.self) }
    #expect(log.entries == ["pending paused=false", "mutate.onSuccess 7", "success paused=false"])
    observer.reset()
    #expect(observer.getCurrentResult().isIdle)
    unsubscribe()
    #expect(client.isMutating(MutationFilters(mutationKey: ["addTodo"])) == 0)
  }

  @Test func offlineMutationsPauseAndResumeInOrder() async throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    client.mount()
    defer { client.unmount() }
    let log = Log()
    var options = MutationOptions()
    options.mutationFn = .typed { (n: Int, _) in log.append("run \(n)"); return n }
    client.onlineManager.setOnline(false)
    let first = Task(executorPreference: scheduler) { try await client.mutate(options, variables: 1) }
    let second = Task(executorPreference: scheduler) { try await client.mutate(options, variables: 2) }
    scheduler.advance(by: 0)
    #expect(client.mutationCache.getAll().map(\.state.isPaused) == [true, true])
    #expect(log.entries.isEmpty)
    client.onlineManager.setOnline(true)
    scheduler.advance(by: 0)
    #expect(try await first.value as? Int == 1)
    #expect(try await second.value as? Int == 2)
    #expect(log.entries == ["run 1", "run 2"])
  }
}

/// The README's mutation example, compiled and run against a fake API.
@Suite struct ReadmeMutationExampleTests {
  struct Todo: Sendable, Equatable { var title: String }
  struct API: Sendable {
    let scheduler: VirtualScheduler
    let fails: Bool
    func addTodo(_ title: String) async throws -> Todo {
      await scheduler.sleep(10)
      if fails { throw CancelledError() }
      return Todo(title: title)
    }
  }

  func run(fails: Bool) async -> (shown: [String]?, after: [String]?, result: Todo?) {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let api = API(scheduler: scheduler, fails: fails)
    client.setQueryData(["todos"], value: ["walk"])
    // README: begin
    var addTodo = MutationOptions(mutationKey: ["addTodo"])
    addTodo.mutationFn = .typed { (title: String, _) in try await api.addTodo(title) }
    addTodo.onMutate = MutationCallback { input in  // optimistic: show the new item at once
      let previous = try client.getQueryData(["todos"], as: [String].self)
      let title = input.variables as? String ?? ""
      client.setQueryData(["todos"], value: (previous ?? []) + [title])
      return previous  // becomes the `context` of the later callbacks
    }
    addTodo.onError = MutationCallback { input in  // roll back
      client.setQueryData(["todos"], value: input.context as? [String] ?? [])
      return nil
    }
    let task = Task(executorPreference: scheduler) { try await client.mutate("buy milk", as: Todo.self, options: addTodo) }
    // README: end
    scheduler.advance(by: 0)
    let shown = try? client.getQueryData(["todos"], as: [String].self)
    scheduler.advance(by: 10)
    let result = try? await task.value
    return (shown, try? client.getQueryData(["todos"], as: [String].self), result)
  }

  @Test func theOptimisticItemShowsAndStaysOnSuccess() async {
    let outcome = await run(fails: false)
    #expect(outcome.shown == ["walk", "buy milk"])
    #expect(outcome.after == ["walk", "buy milk"])
    #expect(outcome.result == Todo(title: "buy milk"))
  }

  @Test func theOptimisticItemIsRolledBackOnFailure() async {
    let outcome = await run(fails: true)
    #expect(outcome.shown == ["walk", "buy milk"])
    #expect(outcome.after == ["walk"])
    #expect(outcome.result == nil)
  }
}
