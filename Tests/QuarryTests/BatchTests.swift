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

  /// A client whose `keys` each hold data (`0`) and have a subscribed observer recording into
  /// `log` (``observe(_:_:into:)``); `unsubscribe` ends every subscription.
  private func observedClient(_ keys: [QueryKey], into log: Log) -> (client: QueryClient, unsubscribe: () -> Void) {
    let client = QueryClient(scheduler: VirtualScheduler())
    for key in keys { client.setQueryData(key, value: 0) }
    let unsubscribes = keys.map { observe(client, $0, into: log) }
    return (client, { for unsubscribe in unsubscribes { unsubscribe() } })
  }

  @Test func listenerCallsWaitForTheEndOfTheBatchInCommitOrder() {
    let log = Log()
    let (client, unsubscribe) = observedClient([["a"], ["b"]], into: log)
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
    unsubscribe()
    unsubscribeCache()
  }

  @Test func theOutermostOfNestedBatchesDelivers() {
    let log = Log()
    let (client, unsubscribe) = observedClient([["a"]], into: log)
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
    let log = Log()
    let (client, unsubscribe) = observedClient([["a"]], into: log)
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
    let log = Log()
    let (client, unsubscribe) = observedClient([["a"]], into: log)
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

  /// Two threads' batches open at once, the first to begin ending first: each thread's writes
  /// are held for its own batch's end, also a write made after the other thread's batch (the
  /// earlier entry of the lock's batches) ended.
  @Test func overlappingBatchesOfTwoThreadsEachHoldTheirOwnCalls() {
    let log = Log()
    let (client, unsubscribe) = observedClient([["a"], ["b"]], into: log)
    let bInBatch = DispatchSemaphore(value: 0)
    let aEnded = DispatchSemaphore(value: 0)
    let bDone = DispatchSemaphore(value: 0)
    let seenInB = Log()
    client.batch {
      client.setQueryData(["a"], value: 1)
      DispatchQueue.global().async {
        client.batch {
          client.setQueryData(["b"], value: 1)
          bInBatch.signal()
          aEnded.wait()
          client.setQueryData(["b"], value: 2)
          for entry in log.entries { seenInB.append(entry) }
        }
        bDone.signal()
      }
      bInBatch.wait()
      client.setQueryData(["a"], value: 2)
      #expect(log.entries.isEmpty)
    }
    #expect(log.entries == [#"["a"]=1"#, #"["a"]=2"#])
    aEnded.signal()
    bDone.wait()
    #expect(seenInB.entries == [#"["a"]=1"#, #"["a"]=2"#])
    #expect(log.entries == [#"["a"]=1"#, #"["a"]=2"#, #"["b"]=1"#, #"["b"]=2"#])
    // Both batches ended: calls are delivered at once again.
    client.setQueryData(["b"], value: 3)
    #expect(log.entries.last == #"["b"]=3"#)
    unsubscribe()
  }

  /// A batch holding more listener calls than one block of the lock's batch buffer (512) delivers
  /// them all at its end, in commit order, none before.
  @Test func aBatchLargerThanABlockDeliversAllInOrder() {
    let keys: [QueryKey] = (0..<3).map { ["k", .number(Double($0))] }
    let log = Log()
    let (client, unsubscribe) = observedClient(keys, into: log)
    var expected: [String] = []
    client.batch {
      for i in 1...700 {
        for key in keys {
          client.setQueryData(key, value: i)
          expected.append("\(key.queryHash)=\(i)")
        }
      }
      #expect(log.entries.isEmpty)
    }
    #expect(log.entries.count == 2_100)
    #expect(log.entries == expected)
    unsubscribe()
  }

  /// A batch larger than a block that a listener runs (while its thread delivers) delivers all
  /// its calls, in order, when it ends, before the delivery goes on.
  @Test func aLargeBatchInsideAListenerDeliversAllAtItsEnd() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["trigger"], value: 0)
    client.setQueryData(["b"], value: 0)
    let log = Log()
    let unsubscribeB = observe(client, ["b"], into: log)
    var options = QueryOptions(queryKey: ["trigger"])
    options.queryFn = .fn { _ in 0 }
    options.staleTime = .value(.milliseconds(.infinity))
    let trigger = QueryObserver(client: client, options: options)
    let unsubscribeTrigger = trigger.subscribe { _ in
      client.batch { for i in 1...600 { client.setQueryData(["b"], value: i) } }
      log.append("after batch")
    }
    client.setQueryData(["trigger"], value: 1)
    #expect(log.entries == (1...600).map { #"["b"]="# + "\($0)" } + ["after batch"])
    unsubscribeTrigger()
    unsubscribeB()
  }
}
