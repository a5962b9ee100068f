import Foundation
import Testing
@testable import Quarry

/// Listener calls of all threads are delivered in the order their operations committed, even
/// when a thread is descheduled between releasing the engine lock and performing what it
/// recorded (ARCHITECTURE.md, "Threading", "Order across threads").
@Suite struct CommitOrderTests {
  /// An observer of `key` with data, recording each result's data.
  private func observe(_ client: QueryClient, _ key: QueryKey, into log: Log) -> @Sendable () -> Void {
    var options = QueryOptions(queryKey: key)
    options.queryFn = .fn { _ in 0 }
    options.staleTime = .value(.milliseconds(.infinity))
    let observer = QueryObserver(client: client, options: options)
    return observer.subscribe { result in log.append("\(result.data as? Int ?? -1)") }
  }

  /// Thread A writes 1 and stalls between its commit and its delivery; the test's thread then
  /// writes 2. The listener must hear 1 before 2: the order the writes committed in.
  @Test func aWriteIsHeardBeforeALaterOneWhileItsThreadStallsAfterCommitting() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["counter"], value: 0)
    let log = Log()
    let unsubscribe = observe(client, ["counter"], into: log)
    let (release, done) = runStalledAfterFirstCommit(of: client) {
      client.setQueryData(["counter"], value: 1)
    }
    client.setQueryData(["counter"], value: 2)
    #expect(client.getQueryData(["counter"]) as? Int == 2)
    release.signal()
    done.wait()
    client.engine.lock.setAfterCommit(nil)
    #expect(log.entries == ["1", "2"])
    unsubscribe()
  }

  /// The same with a batch: the listener calls a batch kept commit when it ends, so they come
  /// before those of a write made after it ended.
  @Test func aBatchsCallsAreHeardBeforeALaterWriteWhileItsThreadStallsAfterItEnds() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["counter"], value: 0)
    let log = Log()
    let unsubscribe = observe(client, ["counter"], into: log)
    let (release, done) = runStalledAfterFirstCommit(of: client) {
      client.batch { client.setQueryData(["counter"], value: 1) }
    }
    client.setQueryData(["counter"], value: 2)
    release.signal()
    done.wait()
    client.engine.lock.setAfterCommit(nil)
    #expect(log.entries == ["1", "2"])
    unsubscribe()
  }
}

/// Runs `operation` on a thread of its own and returns once that thread has made its first commit
/// on `client` and stalls there, before delivering (``stallFirstCommit(of:stalled:release:)``):
/// signal `release` to let it go on; `done` is signalled once `operation` has returned.
func runStalledAfterFirstCommit(
  of client: QueryClient, _ operation: @escaping @Sendable () -> Void
) -> (release: DispatchSemaphore, done: DispatchSemaphore) {
  let stalled = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
  stallFirstCommit(of: client, stalled: stalled, release: release)
  Thread {
    operation()
    done.signal()
  }.start()
  stalled.wait()
  return (release, done)
}

/// Stalls the first thread that commits effects on `client` right after it released the lock,
/// until `release` is signalled; `stalled` is signalled once it is there.
func stallFirstCommit(of client: QueryClient, stalled: DispatchSemaphore, release: DispatchSemaphore) {
  let first = Log()
  client.engine.lock.setAfterCommit {
    first.append("commit")
    guard first.entries.count == 1 else { return }
    stalled.signal()
    release.wait()
  }
}
