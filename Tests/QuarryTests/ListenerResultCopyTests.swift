import Synchronization
import Testing
@testable import Quarry

/// A listener is handed a copy of its observer's result whose references are its box's, not
/// retained for the call (`QueryObserverResultBox.withUnretainedCopy`): a listener that keeps the
/// result keeps what it refers to (its copy retains), and one that keeps nothing leaves no
/// reference behind. A retain too few frees a kept result's data under it; one too many never
/// frees the data.
@Suite struct ListenerResultCopyTests {
  /// Data whose lifetime a test watches.
  private final class Payload: Sendable {
    let n: Int
    init(_ n: Int) { self.n = n }
  }

  /// The results a listener kept.
  private final class Kept: Sendable {
    let results = Mutex<[QueryObserverResult]>([])
    func append(_ result: QueryObserverResult) { results.withLock { $0.append(result) } }
    func removeAll() { results.withLock { $0.removeAll() } }
    var numbers: [Int] { results.withLock { $0.map { ($0.data as? Payload)?.n ?? -1 } } }
  }

  private func observer(_ client: QueryClient, _ listener: @escaping @Sendable (QueryObserverResult) -> Void)
    -> @Sendable () -> Void
  {
    var options = QueryOptions(queryKey: ["k"])
    options.staleTime = .value(.milliseconds(.infinity))
    let observer = QueryObserver(client: client, options: options)
    return observer.subscribe(listener)
  }

  @Test func aKeptResultHoldsItsDataUntilItIsDropped() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["k"], value: Payload(0))
    let kept = Kept()
    let unsubscribe = observer(client) { kept.append($0) }
    weak var first: Payload?
    weak var batched: Payload?
    do {
      let one = Payload(1)
      first = one
      client.setQueryData(["k"], value: one)
    }
    client.setQueryData(["k"], value: Payload(2))
    client.batch {
      let three = Payload(3)
      batched = three
      client.setQueryData(["k"], value: three)
      client.setQueryData(["k"], value: Payload(4))
    }
    client.setQueryData(["k"], value: Payload(5))
    unsubscribe()
    // Neither the query nor the observer holds 1 or 3 any more: only the kept results do.
    #expect(first != nil)
    #expect(batched != nil)
    #expect(kept.numbers == [1, 2, 3, 4, 5])
    kept.removeAll()
    #expect(first == nil)
    #expect(batched == nil)
  }

  @Test func aListenerThatKeepsNothingLeavesNoReference() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["k"], value: Payload(0))
    let heard = Mutex<[Int]>([])
    let unsubscribe = observer(client) { result in
      let n = (result.data as? Payload)?.n ?? -1
      heard.withLock { $0.append(n) }
    }
    defer { unsubscribe() }
    weak var first: Payload?
    weak var batched: Payload?
    do {
      let one = Payload(1)
      first = one
      client.setQueryData(["k"], value: one)
    }
    #expect(first != nil)  // the query's data and the observer's result
    client.setQueryData(["k"], value: Payload(2))
    #expect(first == nil)
    client.batch {
      let three = Payload(3)
      batched = three
      client.setQueryData(["k"], value: three)
      client.setQueryData(["k"], value: Payload(4))
      // Held by the batch's waiting call until its end.
      #expect(batched != nil)
    }
    #expect(batched == nil)
    #expect(heard.withLock { $0 } == [1, 2, 3, 4])
  }

  /// Many listeners of one observer, each called with its own copy of the same result.
  @Test func everyListenerOfAnObserverGetsTheResult() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["k"], value: Payload(0))
    var options = QueryOptions(queryKey: ["k"])
    options.staleTime = .value(.milliseconds(.infinity))
    let observer = QueryObserver(client: client, options: options)
    let kept = (0..<3).map { _ in Kept() }
    let unsubscribes = kept.map { k in observer.subscribe { k.append($0) } }
    weak var one: Payload?
    do {
      let payload = Payload(1)
      one = payload
      client.batch { client.setQueryData(["k"], value: payload) }
    }
    client.setQueryData(["k"], value: Payload(2))
    for unsubscribe in unsubscribes { unsubscribe() }
    #expect(kept.map(\.numbers) == [[1, 2], [1, 2], [1, 2]])
    #expect(one != nil)
    for k in kept { k.removeAll() }
    #expect(one == nil)
  }
}
