import Synchronization
import Testing
@testable import Quarry

/// An observer stores its next result in its current result's box only while nothing else holds
/// that box (`QueryObserver.storeResult`): a result held by a caller, a listener call waiting
/// for delivery or a batch is never changed.
@Suite struct ObserverResultBoxReuseTests {
  /// What each listener call heard.
  private final class Heard: Sendable {
    let values = Mutex<[String]>([])
    func append(_ value: String) { values.withLock { $0.append(value) } }
    var all: [String] { values.withLock { $0 } }
  }

  private func observed(_ client: QueryClient, notifyOnChangeProps: NotifyOnChangeProps? = nil) -> (QueryObserver, Heard, @Sendable () -> Void) {
    client.setQueryData(["k"], value: 1)
    var options = QueryOptions(queryKey: ["k"])
    options.staleTime = .value(.milliseconds(.infinity))
    options.notifyOnChangeProps = notifyOnChangeProps
    let observer = QueryObserver(client: client, options: options)
    let heard = Heard()
    let unsubscribe = observer.subscribe { result in heard.append("\(result.data as? Int ?? 0)") }
    return (observer, heard, unsubscribe)
  }

  /// Without `notifyOnChangeProps`, and with it (those observers compare the named properties
  /// before storing the result).
  @Test(arguments: [nil, NotifyOnChangeProps.props(["data"])])
  func aDeliveredResultsBoxIsReusedForTheNext(notifyOnChangeProps: NotifyOnChangeProps?) {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let (observer, heard, unsubscribe) = observed(client, notifyOnChangeProps: notifyOnChangeProps)
    defer { unsubscribe() }
    let first = ObjectIdentifier(observer.currentResultBox!)
    client.setQueryData(["k"], value: 2)
    client.setQueryData(["k"], value: 3)
    #expect(ObjectIdentifier(observer.currentResultBox!) == first)
    #expect(observer.getCurrentResult().data as? Int == 3)
    #expect(heard.all == ["2", "3"])
  }

  @Test func aResultHeldElsewhereIsNeverChanged() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let (observer, heard, unsubscribe) = observed(client)
    defer { unsubscribe() }
    let held = observer.currentResultBox!
    client.setQueryData(["k"], value: 2)
    #expect(held.result.data as? Int == 1)
    #expect(observer.currentResultBox !== held)
    #expect(observer.getCurrentResult().data as? Int == 2)
    #expect(heard.all == ["2"])
  }

  @Test func resultsHeldByABatchKeepTheirValues() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let (observer, heard, unsubscribe) = observed(client)
    defer { unsubscribe() }
    client.batch {
      client.setQueryData(["k"], value: 2)
      client.setQueryData(["k"], value: 3)
      client.setQueryData(["k"], value: 4)
      #expect(heard.all.isEmpty)
    }
    #expect(heard.all == ["2", "3", "4"])
    #expect(observer.getCurrentResult().data as? Int == 4)
  }

  @Test func anInvalidationsRefetchReportsEachStep() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    client.setQueryData(["k"], value: 1)
    var options = QueryOptions(queryKey: ["k"])
    options.queryFn = .fn { _ in 2 }
    options.staleTime = .value(.milliseconds(.infinity))
    let observer = QueryObserver(client: client, options: options)
    let heard = Heard()
    let unsubscribe = observer.subscribe { result in
      heard.append("\(result.data as? Int ?? 0) \(result.fetchStatus) \(result.isStale)")
    }
    defer { unsubscribe() }
    _ = client.invalidateQueriesPromise(InvalidateQueryFilters(QueryFilters(queryKey: ["k"])))
    scheduler.runUntilIdle()
    #expect(heard.all == ["1 idle true", "1 fetching true", "2 idle false"])
    #expect(observer.getCurrentResult().data as? Int == 2)
  }
}
