import Testing
@testable import Quarry

/// The outbox keeps its buffer between transactions, and listener calls recorded as a listener
/// and a result box (not a closure) behave as closures did.
@Suite struct EngineLockOutboxTests {
  /// An object that counts its deinits, captured by recorded effects.
  private final class Token: @unchecked Sendable {
    // Safe: `freed` is a `Log`, which locks.
    let freed: Log
    init(_ freed: Log) { self.freed = freed }
    deinit { freed.append("freed") }
  }

  @Test func aDeliveredCommitsBufferIsTheNextOutboxAndEveryEffectRunsInOrder() {
    let lock = EngineLock()
    let log = Log()
    // A delivered commit's buffer becomes the outbox at the next commit (under the FIFO's lock),
    // so the transaction after a first one starts with it.
    lock.sync { for _ in 0..<10 { lock.record(.listener) {} } }
    for round in 0..<3 {
      lock.sync {
        for i in 0..<10 { lock.record(i.isMultiple(of: 2) ? .listener : .plumbing) { log.append("\(round).\(i)") } }
      }
      // The emptied buffer of ten effects is kept for a next transaction.
      #expect(lock.outboxCapacityForTesting >= 10)
    }
    #expect(log.entries == (0..<3).flatMap { round in (0..<10).map { "\(round).\($0)" } })
  }

  @Test func theKeptBufferHoldsNoEffect() {
    let lock = EngineLock()
    let freed = Log()
    let ran = Log()
    lock.sync { for _ in 0..<5 { lock.record(.listener) {} } }
    do {
      let token = Token(freed)
      lock.sync {
        for _ in 0..<5 { lock.record(.listener) { [token] in ran.append("\(ObjectIdentifier(token))") } }
      }
    }
    // Every effect ran and was freed with its captures, though its buffer is kept (the one
    // this transaction started with).
    #expect(ran.entries.count == 5)
    #expect(freed.entries == ["freed"])
    #expect(lock.outboxCapacityForTesting >= 5)
  }

  @Test func aListenerCommittingWhileDeliveringIsDeliveredNestedAndLaterCommitsKeepOrder() {
    let lock = EngineLock()
    let log = Log()
    lock.sync {
      lock.record(.listener) {
        log.append("a")
        lock.sync {
          lock.record(.listener) { log.append("a.1") }
          lock.record(.listener) { log.append("a.2") }
        }
        log.append("a done")
      }
      lock.record(.listener) { log.append("b") }
    }
    lock.sync { lock.record(.listener) { log.append("c") } }
    #expect(log.entries == ["a", "a.1", "a.2", "a done", "b", "c"])
  }

  @Test func observerListenersGetEachResultInOrderAndNoneAfterUnsubscribing() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["k"], value: 0)
    let log = Log()
    var options = QueryOptions(queryKey: ["k"])
    options.staleTime = .value(.milliseconds(.infinity))
    let observers = (0..<3).map { _ in QueryObserver(client: client, options: options) }
    var unsubscribes = observers.enumerated().map { i, observer in
      observer.subscribe { result in log.append("\(i)=\(result.data as? Int ?? -1)") }
    }
    client.setQueryData(["k"], value: 1)
    #expect(log.entries == ["0=1", "1=1", "2=1"])
    // A listener removed inside the transaction that recorded its call is not called.
    client.batch {
      client.setQueryData(["k"], value: 2)
      unsubscribes.removeFirst()()
    }
    #expect(log.entries == ["0=1", "1=1", "2=1", "1=2", "2=2"])
    for unsubscribe in unsubscribes { unsubscribe() }
  }
}
