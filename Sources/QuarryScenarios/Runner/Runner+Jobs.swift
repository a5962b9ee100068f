import Dispatch
import Synchronization

extension Runner {
  /// Evaluates the fixtures, `options.jobs` at once, and hands each evaluation to `deliver` in
  /// the fixtures' order. `duplicates[i]`, when not `nil`, is fixture `i`'s error instead.
  /// The first error (in the fixtures' order) is thrown after every evaluation before it was
  /// delivered.
  func replay(
    _ fixtures: [FixtureFile], duplicates: [String?], context: Context,
    deliver: (ScenarioEvaluation) -> Void
  ) throws(RunnerError) {
    let jobs = min(options.jobs, fixtures.count)
    guard jobs > 1 else {
      for index in fixtures.indices { deliver(try evaluate(fixtures[index], duplicate: duplicates[index], context: context)) }
      return
    }
    let outcomes = JobOutcomes(count: fixtures.count)
    DispatchQueue.concurrentPerform(iterations: jobs) { _ in
      while let index = outcomes.claim() {
        let outcome: Result<ScenarioEvaluation, RunnerError>
        do throws(RunnerError) {
          outcome = .success(try evaluate(fixtures[index], duplicate: duplicates[index], context: context))
        } catch {
          outcome = .failure(error)
        }
        outcomes.finish(index, outcome)
      }
    }
    for outcome in outcomes.take() { deliver(try outcome.get()) }
  }

  /// One fixture's evaluation, or the error for a duplicate ID.
  private func evaluate(_ fixture: FixtureFile, duplicate: String?, context: Context) throws(RunnerError) -> ScenarioEvaluation {
    if let duplicate {
      return ScenarioEvaluation(result: ScenarioResult(id: fixture.id, title: "", status: .error, details: [duplicate]), area: fixture.area)
    }
    return try evaluateWithTraces(fixture, context: context)
  }
}

/// The fixtures the jobs of one run claim, one at a time in order, and what each came to.
///
/// Its lock tells the thread sanitizer the order it gives (`withLock(orderingFor:)`, as the
/// engine's locks do: on Linux a contended `Mutex` waits in the kernel, where the sanitizer
/// does not see it), so the outcomes read after the jobs return are ordered after their writes.
private final class JobOutcomes: Sendable {
  private struct State {
    var next = 0
    var outcomes: [Result<ScenarioEvaluation, RunnerError>?]
  }
  private let state: Mutex<State>

  init(count: Int) {
    state = Mutex(State(outcomes: Array(repeating: nil, count: count)))
  }

  /// The next unclaimed fixture's index, `nil` when every one is claimed.
  func claim() -> Int? {
    state.withLock(orderingFor: self) { state in
      guard state.next < state.outcomes.count else { return nil }
      defer { state.next += 1 }
      return state.next
    }
  }

  /// Records what fixture `index` came to.
  func finish(_ index: Int, _ outcome: sending Result<ScenarioEvaluation, RunnerError>) {
    state.withLock(orderingFor: self) { $0.outcomes[index] = outcome }
  }

  /// Every outcome, in the fixtures' order (call once every job has returned).
  func take() -> [Result<ScenarioEvaluation, RunnerError>] {
    state.withLock(orderingFor: self) { state in state.outcomes.map { $0! } }
  }
}
