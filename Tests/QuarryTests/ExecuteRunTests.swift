import Testing
@testable import Quarry

/// A mutation's `ExecuteRun` is its retryer, held by the mutation until the run's `finish`;
/// then it must be freed, whether the mutation succeeded or failed after retries, and the
/// retryer's callbacks (`onFail`) must still reach the mutation.
@Suite struct ExecuteRunTests {
  private final class Weak: @unchecked Sendable {
    // Safe: written once on the test's thread before being read there.
    weak var retryer: Retryer?
  }

  private func run(fails: Bool) -> (freed: Bool, status: MutationStatus, failureCount: Int) {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var options = MutationOptions()
    options.retry = .count(2)
    options.retryDelay = .milliseconds(10)
    options.mutationFn = .typed { (n: Int, _) in
      if fails { throw QuarryError.missingMutationFn }
      return n * 2
    }
    let weak = Weak()
    let mutation: Mutation
    do {
      _ = client.mutatePromise(options, variables: 21)
      mutation = client.mutationCache.getAll()[0]
      weak.retryer = client.engine.lock.sync { mutation.retryer }
      #expect(weak.retryer is ExecuteRun)
    }
    scheduler.advance(by: 1000)
    let state = client.engine.lock.sync { mutation.stateStorage }
    return (weak.retryer == nil, state.status, state.failureCount)
  }

  @Test func aSucceededMutationFreesItsRetryer() {
    let outcome = run(fails: false)
    #expect(outcome.freed)
    #expect(outcome.status == .success)
    #expect(outcome.failureCount == 0)
  }

  @Test func aFailedMutationFreesItsRetryerAfterItsRetries() {
    let outcome = run(fails: true)
    #expect(outcome.freed)
    #expect(outcome.status == .error)
    // Two retries reported through the host, then the final failure.
    #expect(outcome.failureCount == 3)
  }
}
