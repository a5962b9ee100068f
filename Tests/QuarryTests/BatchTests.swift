import Dispatch
import Testing
@testable import Quarry

@Suite struct BatchTests {
  /// An observer of `key` with data, recording each result's data.
  private func observe(_ client: QueryClient, _ key: QueryKey, into log: Log) -> @Sendable () -> Void {
    var options = QueryOptions(queryKey: key)
    options.queryFn = .fn { _ in 0 }
    options.staleTime = .value(.milliseconds(.infinity))
    let observer = QueryObserver(client: client, options: options)
    return observer.subscribe { result in log.append("\(key.queryHash)=\(result.data as? Int ?? -1)") }
  }

  @Test func listenerCallsWaitForTheEndOfTheBatchInCommitOrder() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 0)
    client.setQueryData(["b"], value: 0)
    let log = Log()
    let unsubscribeA = observe(client, ["a"], into: log)
    let unsubscribeB = observe(client, ["b"], into: log)
    let cacheEvents = Log()
    let unsubscribeCache = client.queryCache.subscribe { event in
      if case .added(let query) = event { cacheEvents.append("added \(query.queryHash)") }
    }
    let value = client.batch { () -> Int in
      client.setQueryData(["a"], value: 1)
      client.setQueryData(["b"], value: 2)
      client.setQueryData(["c"], value: 3)
      // Nothing delivered yet, but the writes are done.
      #expect(log.entries.isEmpty)
      #expect(cacheEvents.entries.isEmpty)
      #expect(client.getQueryData(["b"]) as? Int == 2)
      return 42
    }
    #expect(value == 42)
    #expect(log.entries == [#"["a"]=1"#, #"["b"]=2"#])
    #expect(cacheEvents.entries == [#"added ["c"]"#])
    // After the batch, calls are delivered at once again.
    client.setQueryData(["a"], value: 5)
    #expect(log.entries.last == #"["a"]=5"#)
    unsubscribeA()
    unsubscribeB()
    unsubscribeCache()
  }

  @Test func theOutermostOfNestedBatchesDelivers() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 0)
    let log = Log()
    let unsubscribe = observe(client, ["a"], into: log)
    client.batch {
      client.batch { client.setQueryData(["a"], value: 1) }
      #expect(log.entries.isEmpty)
      client.setQueryData(["a"], value: 2)
    }
    #expect(log.entries == [#"["a"]=1"#, #"["a"]=2"#])
    unsubscribe()
  }

  @Test func aThrowingBatchStillDelivers() {
    struct Failure: Error {}
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 0)
    let log = Log()
    let unsubscribe = observe(client, ["a"], into: log)
    #expect(throws: Failure.self) {
      try client.batch {
        client.setQueryData(["a"], value: 1)
        throw Failure()
      }
    }
    #expect(log.entries == [#"["a"]=1"#])
    unsubscribe()
  }

  @Test func anotherThreadIsNotHeldBackByABatch() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 0)
    let log = Log()
    let unsubscribe = observe(client, ["a"], into: log)
    client.batch {
      let done = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        client.setQueryData(["a"], value: 7)
        done.signal()
      }
      done.wait()
      #expect(log.entries == [#"["a"]=7"#])
    }
    #expect(log.entries == [#"["a"]=7"#])
    unsubscribe()
  }
}
