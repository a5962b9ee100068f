/// Runs a fetch function with retries, pausing while unfocused or offline (TanStack's
/// `createRetryer`), and is the promise of its outcome (TanStack's `retryer.promise`: one
/// allocation fewer per fetch; a holder of the promise keeps the retryer with it). All members
/// added here are used under the engine lock.
final class Retryer: Promise<any Sendable>, @unchecked Sendable {
  // Safe: every mutable member added here is only touched under the owning engine's lock; the
  // promise's own are guarded as its are.
  enum Status { case pending, resolved, rejected }

  /// What the retryer runs and tells is its ``RetryerHost`` (a query's fetch run, a mutation's
  /// execute run): one reference where five closures each held the run or its owner.
  struct Config {
    var initialPromise: Promise<any Sendable>?
    var retry: RetryOption?
    var retryDelay: RetryDelayOption?
    var networkMode: NetworkMode?
  }

  let engine: Engine
  let config: Config
  /// Runs the attempts and hears the retryer's events. Held strongly: the host and the retryer
  /// hold each other until the host lets go of the retryer once it has settled.
  let host: any RetryerHost
  /// The promise of the retryer's outcome: the retryer itself.
  var promise: Promise<any Sendable> { self }
  private(set) var status: Status = .pending
  /// Whether the engine cancelled this retryer (as opposed to the function throwing a
  /// `CancelledError` of its own).
  private(set) var isCancelled = false
  private var isRetryCancelled = false
  private var failureCount = 0
  private var continueFn: (() -> Void)?

  /// `config` is consumed: taken by value, it was copied into the member and then destroyed
  /// (about 230 instructions each, per fetch). Inlined, so that the caller's temporary moves in:
  /// the optimizer turned the consumed argument of the out-of-line init back into a borrowed
  /// one, and copied it again (about 400 instructions per fetch).
  @inline(__always)
  init(engine: Engine, config: consuming Config, host: any RetryerHost) {
    self.engine = engine
    self.config = config
    self.host = host
    super.init(scheduler: engine.scheduler)
  }

  private var isResolved: Bool { status != .pending }

  func cancel(_ options: CancelOptions = CancelOptions()) {
    if !isResolved {
      isCancelled = true
      let error = CancelledError(revert: options.revert ?? false, silent: options.silent ?? false)
      settleFailed(error)
      host.retryerCancelled(error)
    }
  }

  func cancelRetry() { isRetryCancelled = true }
  func continueRetry() { isRetryCancelled = false }

  private func canContinue() -> Bool {
    engine.focusManager.isFocused
      && (config.networkMode == .always || engine.onlineManager.isOnline)
      && host.retryerCanRun()
  }

  func canStart() -> Bool { engine.canFetch(config.networkMode) && host.retryerCanRun() }

  private func settleSucceeded(_ value: any Sendable) {
    if !isResolved {
      continueFn?()
      status = .resolved
      resolve(value)
    }
  }

  private func settleFailed(_ error: any Error) {
    if !isResolved {
      continueFn?()
      status = .rejected
      reject(error)
    }
  }

  /// TanStack's `pause()`: a promise that settles when continued.
  private func pause() -> Promise<Void> {
    let paused = Promise<Void>(scheduler: engine.scheduler)
    continueFn = { [unowned self] in
      if self.isResolved || self.canContinue() { paused.resolve(()) }
    }
    host.retryerPaused()
    return paused.then { [self] _ in
      engine.lock.sync {
        continueFn = nil
        if !isResolved { host.retryerContinued() }
      }
    }
  }

  private func run() {
    if isResolved { return }
    let initial = failureCount == 0 ? config.initialPromise : nil
    // `nil`: the host runs the attempt and calls `attemptSettled` in its delivery job.
    guard let attempt = initial ?? host.retryerAttempt(of: self) else { return }
    // TanStack's `.then(resolve).catch(handleFailure)`: `resolve` one job after the attempt
    // fulfils; `handleFailure` two jobs after it rejects (the rejection passes through the
    // `then` promise first), so its job is queued at the moment that promise would settle.
    // The `catch` promise's no-op job after a success ran nothing observable: left out, with
    // the two intermediate promises and their closures.
    attempt.whenSettled { [self] outcome in attemptSettled(outcome) }
  }

  /// What the retryer does when an attempt settles, in the job in which the attempt's promise
  /// delivers its outcome (a ``RetryerHost`` that runs the attempt itself calls it there).
  func attemptSettled(_ outcome: Result<any Sendable, any Error>) {
    switch outcome {
    case .success(let value): engine.lock.sync { settleSucceeded(value) }
    case .failure(let error): engine.scheduler.enqueue { [self] in engine.lock.sync { handleFailure(error) } }
    }
  }

  private func handleFailure(_ error: any Error) {
    if isResolved { return }
    let retry = config.retry ?? .count(engine.isServer ? 0 : 3)
    let delay: Double
    switch config.retryDelay {
    case nil: delay = min(1000 * pow2(failureCount), 30_000)
    case .milliseconds(let ms)?: delay = ms
    case .function(let f)?: delay = f.call(failureCount, error)
    }
    let shouldRetry: Bool
    switch retry {
    case .bool(let b): shouldRetry = b
    case .count(let n): shouldRetry = failureCount < n
    case .function(let f): shouldRetry = f.call(failureCount, error)
    }
    if isRetryCancelled || !shouldRetry {
      settleFailed(error)
      return
    }
    failureCount += 1
    host.retryerFailed(failureCount, error)
    engine.sleep(delay)
      .flatThen { [self] _ -> Promise<Void> in
        engine.lock.sync { canContinue() ? Promise.resolved((), scheduler: engine.scheduler) : pause() }
      }
      .then { [self] _ in
        engine.lock.sync {
          if isRetryCancelled { settleFailed(error) } else { run() }
        }
      }
  }

  /// Continues a paused fetch; returns the retryer's promise.
  @discardableResult
  func continueFetch() -> Promise<any Sendable> {
    continueFn?()
    return promise
  }

  func start() -> Promise<any Sendable> {
    if canStart() {
      run()
    } else {
      pause().then { [self] _ in engine.lock.sync { run() } }
    }
    return promise
  }
}

/// What a retryer runs and tells (TanStack's `fn`, `onCancel`, `onFail`, `onPause`,
/// `onContinue` and `canRun` of the retryer's config): a query's fetch (``QueryFetchRun``) or a
/// mutation's execute run (``ExecuteRun``).
protocol RetryerHost: AnyObject {
  /// One attempt of the function (`fn`): its promise, or `nil` when the host
  /// runs the attempt itself and calls `retryer.attemptSettled(_:)` in a job queued as the
  /// attempt settles (where the promise's delivery job would run).
  func retryerAttempt(of retryer: Retryer) -> Promise<any Sendable>?
  /// The retryer was cancelled (`onCancel`).
  func retryerCancelled(_ error: any Error)
  /// An attempt failed and will be retried (`onFail`).
  func retryerFailed(_ failureCount: Int, _ error: any Error)
  /// The retryer paused (`onPause`).
  func retryerPaused()
  /// The retryer continued after a pause (`onContinue`).
  func retryerContinued()
  /// Whether the retryer may run now, besides focus and network (`canRun`).
  func retryerCanRun() -> Bool
}

extension RetryerHost {
  /// A query's fetch may always run, focus and network permitting.
  func retryerCanRun() -> Bool { true }
}

private func pow2(_ n: Int) -> Double {
  var r = 1.0
  for _ in 0..<max(0, min(n, 64)) { r *= 2 }
  return r
}
