import Testing
@testable import Quarry

@Suite struct QueryObserverDeliveryTests {
  @Test func resultsYieldTheCurrentResultThenEachChangeInOrder() async {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var options = QueryOptions(queryKey: ["todos"])
    options.queryFn = .fn { _ in await scheduler.sleep(10); return ["milk"] }
    let observer = QueryObserver(client: client, options: options)
    var iterator = observer.results().makeAsyncIterator()
    let first = await iterator.next()
    scheduler.advance(by: 10)
    let second = await iterator.next()
    #expect(first.map { "\($0.status) \($0.fetchStatus)" } == "pending fetching")
    #expect(second.map { "\($0.status) \($0.fetchStatus)" } == "success idle")
    #expect(observer.hasListeners)
  }

  @Test func endingTheIterationUnsubscribes() async {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    client.setQueryData(["k"], value: 1)
    var options = QueryOptions(queryKey: ["k"])
    options.staleTime = .value(.milliseconds(.infinity))
    let observer = QueryObserver(client: client, options: options)
    for await result in observer.results() {
      #expect(result.data as? Int == 1)
      break
    }
    #expect(!observer.hasListeners)
  }
}
