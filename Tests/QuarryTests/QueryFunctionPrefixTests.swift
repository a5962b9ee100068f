import Testing
@testable import Quarry

/// Client calls in a query function's synchronous prefix deliver their listener calls before the
/// function goes on, as in TanStack, where the function is called inside the operation.
@Suite struct QueryFunctionPrefixTests {
  @Test func aWriteInTheSynchronousPrefixIsDeliveredBeforeTheFunctionGoesOn() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let log = Log()
    let unsubscribeCache = client.queryCache.subscribe { event in
      if event.query.queryKey == ["side"] { log.append("cache \(event.type)") }
    }
    var options = QueryOptions(queryKey: ["main"])
    options.queryFn = .fn { context in
      context.client?.setQueryData(["side"], value: 1)
      log.append("function goes on")
      await scheduler.sleep(10)
      return 2
    }
    let observer = QueryObserver(client: client, options: options)
    let unsubscribe = observer.subscribe { _ in }
    #expect(log.entries == ["cache added", "cache updated", "function goes on"])
    _ = scheduler.advance(by: 10)
    #expect(observer.getCurrentResult().data as? Int == 2)
    unsubscribe()
    unsubscribeCache()
  }

  @Test func aListenerWritingToTheClientDeliversItsWriteNestedAsTanStackDoes() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let log = Log()
    let unsubscribeCache = client.queryCache.subscribe { event in
      log.append("\(event.query.queryKey) \(event.type)")
      if event.query.queryKey == ["a"], event.type == "added" { client.setQueryData(["b"], value: 1) }
    }
    client.setQueryData(["a"], value: 1)
    // The listener's own write delivers its calls at once, before the operation's next call, as
    // TanStack's synchronous listener would (callbacks-002).
    #expect(log.entries == [#"["a"] added"#, #"["b"] added"#, #"["b"] updated"#, #"["a"] updated"#])
    unsubscribeCache()
  }
}
