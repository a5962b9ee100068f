/// Runs a fetch function with retries, pausing while unfocused or offline (TanStack's
/// `createRetryer`), and is the promise of its outcome (TanStack's `retryer.promise`: one
/// allocation fewer per fetch; a holder of the promise keeps the retryer with it). All members
/// added here are used under the engine lock.
final class Retryer: Promise<any Sendable>, @unchecked Sendable {
  // Safe: every mutable member added here is only touched under the owning engine's lock; the
  // promise's own are guarded as its are.
  enum Status { case pending, resolved, rejected }

  /// What the retryer runs and tells: the closures (a mutation's), or a ``RetryerHost`` (a
  /// query's fetch), which then answers for `fn`, `onCancel`, `onFail`, `onPause` and
  /// `onContinue`.
  struct Config {
    var fn: (() -> Promise<any Sendable>)?
    var initialPromise: Promise<any Sendable>?
    var onCancel: ((any Error) -> Void)?
    var onFail: ((Int, any Error) -> Void)?
    var onPause: (() -> Void)?
    var onContinue: (() -> Void)?
    var retry: RetryOption?
    var retryDelay: RetryDelayOption?
    var networkMode: NetworkMode?
    var canRun: () -> Bool = { true }
    /// Answers for the five callbacks above when set (one reference instead of five closures).
    var host: (any RetryerHost)?
  }

  let engine: Engine
  let config: Config
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
  init(engine: Engine, config: consuming Config) {
    self.engine = engine
    self.config = config
    super.init(scheduler: engine.scheduler)
  }

  private var isResolved: Bool { status != .pending }

  func cancel(_ options: CancelOptions = CancelOptions()) {
    if !isResolved {
      isCancelled = true
      let error = CancelledError(revert: options.revert ?? false, silent: options.silent ?? false)
      settleFailed(error)
      if let host = config.host { host.retryerCancelled(error) } else { config.onCancel?(error) }
    }
  }

  func cancelRetry() { isRetryCancelled = true }
  func continueRetry() { isRetryCancelled = false }

  private func canContinue() -> Bool {
    engine.focusManager.isFocused
      && (config.networkMode == .always || engine.onlineManager.isOnline)
      && config.canRun()
  }

  func canStart() -> Bool { engine.canFetch(config.networkMode) && config.canRun() }

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
    if let host = config.host { host.retryerPaused() } else { config.onPause?() }
    return paused.then { [self] _ in
      engine.lock.sync {
        continueFn = nil
        if !isResolved {
          if let host = config.host { host.retryerContinued() } else { config.onContinue?() }
        }
      }
    }
  }

  private func run() {
    if isResolved { return }
    let initial = failureCount == 0 ? config.initialPromise : nil
    // `nil`: the host runs the attempt and calls `attemptSettled` in its delivery job.
    guard let attempt = initial ?? callFn() else { return }
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

  /// One attempt of the function: the host's, or `config.fn`; `nil` when the host runs it
  /// without a promise (it then calls ``attemptSettled(_:)``).
  private func callFn() -> Promise<any Sendable>? {
    if let host = config.host { return host.retryerAttempt(of: self) }
    guard let fn = config.fn else { preconditionFailure("a retryer has a host or a function") }
    return fn()
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
    if let host = config.host { host.retryerFailed(failureCount, error) } else { config.onFail?(failureCount, error) }
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

/// What a query's fetch (``QueryFetchRun``) does for its retryer: the retryer holds it as one
/// reference where a mutation's holds five closures (each a reference retained and released,
/// stored and destroyed with the retryer).
protocol RetryerHost: AnyObject {
  /// One attempt of the fetch function (the config's `fn`): its promise, or `nil` when the host
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
}

private func pow2(_ n: Int) -> Double {
  var r = 1.0
  for _ in 0..<max(0, min(n, 64)) { r *= 2 }
  return r
}
