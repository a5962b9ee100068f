/// Runs a fetch function with retries, pausing while unfocused or offline (TanStack's
/// `createRetryer`). The base of the run that owns it: a query's fetch (``QueryFetchRun``) or a
/// mutation's execute run (``ExecuteRun``) is its retryer (one object where a run and a
/// retryer were two), and overrides the `retryer…` members to run the attempts and hear the
/// retryer's events (TanStack's `fn`, `onCancel`, `onFail`,
/// `onPause`, `onContinue`, `canRun`, and the `then` on `retryer.promise` that settles the
/// run). The promise this object is, is the run's own result (the fetch's, the execute's);
/// the retryer's outcome (TanStack's `retryer.promise`) is ``promise``, made only when
/// something other than the run asks for it. All members added here are used under the engine
/// lock.
class Retryer: Promise<any Sendable>, @unchecked Sendable {
  // Safe: every mutable member added here is only touched under the owning engine's lock, or
  // (`outcome`) written there once before the settle job that reads it is queued, and only read
  // after; the promise's own are guarded as its are.
  enum Status { case pending, resolved, rejected }

  /// The retryer's options.
  struct Config {
    var initialPromise: Promise<any Sendable>?
    var retry: RetryOption?
    var retryDelay: RetryDelayOption?
    var networkMode: NetworkMode?
  }

  final let engine: Engine
  final let config: Config
  final private(set) var status: Status = .pending
  /// The retryer's outcome once settled. `@exclusivity(unchecked)`: the dynamic checks cost
  /// about 240 instructions per fetch (three accesses). Safe: written once, under the engine
  /// lock, before the settle job that reads it is queued; read only after (that job, and
  /// ``promise`` under the engine lock), so no two accesses overlap.
  @exclusivity(unchecked) final private(set) var outcome = PromiseState.pending
  /// The promise of the retryer's outcome, once something asked for it (``promise``).
  final private var outcomePromise: Promise<any Sendable>?
  /// Whether the engine cancelled this retryer (as opposed to the function throwing a
  /// `CancelledError` of its own).
  final private(set) var isCancelled = false
  final private var isRetryCancelled = false
  final private var failureCount = 0
  final private var continueFn: (() -> Void)?

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

  // What the run does for its retryer (overridden by each run).

  /// One attempt of the function (`fn`): its promise, or `nil` when the run starts the attempt
  /// itself and calls ``attemptSettled(_:)`` in a job queued as the attempt settles (where the
  /// promise's delivery job would run).
  func retryerAttempt() -> Promise<any Sendable>? { preconditionFailure("a run overrides retryerAttempt") }
  /// The retryer was cancelled (`onCancel`).
  func retryerCancelled(_ error: any Error) {}
  /// An attempt failed and will be retried (`onFail`).
  func retryerFailed(_ failureCount: Int, _ error: any Error) {}
  /// The retryer paused (`onPause`).
  func retryerPaused() {}
  /// The retryer continued after a pause (`onContinue`).
  func retryerContinued() {}
  /// Whether the retryer may run now, besides focus and network (`canRun`; a query's fetch
  /// always may).
  func retryerCanRun() -> Bool { true }
  /// The retryer settled (``outcome``): called in the job in which ``promise`` would deliver
  /// its outcome to its first callback (TanStack's `then` on `retryer.promise` that the run
  /// registers first), outside the engine lock. The run reads ``outcome`` in place: handed over
  /// as a `Result`, it was copied into one, copied again where the run switched on it, and
  /// destroyed after (about 180 instructions per fetch).
  func retryerSettled() {}

  /// The promise of the retryer's outcome (TanStack's `retryer.promise`), made at the first
  /// request: settled already if the retryer has, else as it settles. Its callbacks run in a
  /// job queued right after the run's ``retryerSettled()`` job, where TanStack runs them
  /// (after the run's, which registered first), in the same order.
  final var promise: Promise<any Sendable> {
    if let outcomePromise { return outcomePromise }
    let made = Promise<any Sendable>(scheduler: scheduler)
    switch outcome {
    case .pending: break
    case .fulfilled(let value): made.resolve(value)
    case .rejected(let error): made.reject(error)
    }
    outcomePromise = made
    return made
  }

  private var isResolved: Bool { status != .pending }

  final func cancel(_ options: CancelOptions = CancelOptions()) {
    if !isResolved {
      isCancelled = true
      let error = CancelledError(revert: options.revert ?? false, silent: options.silent ?? false)
      settleFailed(error)
      retryerCancelled(error)
    }
  }

  final func cancelRetry() { isRetryCancelled = true }
  final func continueRetry() { isRetryCancelled = false }

  private func canContinue() -> Bool {
    engine.focusManager.isFocused
      && (config.networkMode == .always || engine.onlineManager.isOnline)
      && retryerCanRun()
  }

  final func canStart() -> Bool { engine.canFetch(config.networkMode) && retryerCanRun() }

  private func settleSucceeded(_ value: consuming any Sendable) {
    var settled = PromiseState.fulfilled(value)
    settleSucceeded(swapping: &settled)
  }

  /// Settles to the fulfilled `settled`, swapped into ``outcome`` (which is `.pending` until
  /// then) without copying its value: left `.pending`, or as it was when the retryer had
  /// settled already.
  private func settleSucceeded(swapping settled: inout PromiseState) {
    if !isResolved {
      continueFn?()
      status = .resolved
      swap(&outcome, &settled)
      outcomeSettled()
    }
  }

  private func settleFailed(_ error: consuming any Error) {
    if !isResolved {
      continueFn?()
      status = .rejected
      outcome = .rejected(error)
      outcomeSettled()
    }
  }

  /// Once ``outcome`` is written: queues the run's ``retryerSettled()`` job (the delivery job of
  /// a promise whose first callback the run registered before it could settle), and settles
  /// ``promise`` if it was made, which queues its own delivery job right after.
  ///
  /// The outcome was moved or swapped in; only a made ``promise`` copies its payload (copying
  /// it for every fetch, and destroying the argument after, cost about 140 instructions).
  private func outcomeSettled() {
    scheduler.enqueue { [self] in retryerSettled() }
    guard let outcomePromise else { return }
    switch outcome {
    case .pending: preconditionFailure("a retryer settles to an outcome")
    case .fulfilled(let value): outcomePromise.resolve(value)
    case .rejected(let error): outcomePromise.reject(error)
    }
  }

  /// TanStack's `pause()`: a promise that settles when continued.
  private func pause() -> Promise<Void> {
    let paused = Promise<Void>(scheduler: engine.scheduler)
    continueFn = { [unowned self] in
      if self.isResolved || self.canContinue() { paused.resolve(()) }
    }
    retryerPaused()
    return paused.then { [self] _ in
      engine.lock.sync {
        continueFn = nil
        if !isResolved { retryerContinued() }
      }
    }
  }

  private func run() {
    if isResolved { return }
    let initial = failureCount == 0 ? config.initialPromise : nil
    // `nil`: the run starts the attempt and calls `attemptSettled` in its delivery job.
    guard let attempt = initial ?? retryerAttempt() else { return }
    // TanStack's `.then(resolve).catch(handleFailure)`: `resolve` one job after the attempt
    // fulfils; `handleFailure` two jobs after it rejects (the rejection passes through the
    // `then` promise first), so its job is queued at the moment that promise would settle.
    // The `catch` promise's no-op job after a success ran nothing observable: left out, with
    // the two intermediate promises and their closures.
    attempt.whenSettled { [self] outcome in attemptSettled(outcome) }
  }

  /// What the retryer does when an attempt settles, in the job in which the attempt's promise
  /// delivers its outcome (a run that starts the attempt itself calls it there).
  ///
  /// `outcome` is consumed: switched on borrowed, it was copied (an outlined copy of the whole
  /// `Result`, about 100 instructions per attempt).
  final func attemptSettled(_ outcome: consuming Result<any Sendable, any Error>) {
    switch consume outcome {
    case .success(let value): engine.lock.sync { settleSucceeded(value) }
    case .failure(let error): engine.scheduler.enqueue { [self] in engine.lock.sync { handleFailure(error) } }
    }
  }

  /// ``attemptSettled(_:)`` of a settled `state` (a run that starts its attempts itself keeps
  /// their outcomes so): a fulfilled value is swapped into ``outcome`` as it is, where binding
  /// it out of the state, into a `Result` and again into the engine lock's closure copied it
  /// twice (outlined existential copies and the destroys of the originals, about 100
  /// instructions per fetch). `state` is left `.pending` (or as it was, if the retryer had
  /// settled already); a rejection is handled as ``attemptSettled(_:)`` handles it.
  final func attemptSettled(swapping state: inout PromiseState) {
    switch state {
    case .fulfilled: engine.lock.sync { settleSucceeded(swapping: &state) }
    case .rejected(let error): engine.scheduler.enqueue { [self] in engine.lock.sync { handleFailure(error) } }
    case .pending: preconditionFailure("an attempt delivers once settled")
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
    retryerFailed(failureCount, error)
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

  /// Continues a paused fetch (``promise`` is the retryer's outcome).
  final func continueFetch() {
    continueFn?()
  }

  /// Starts the retryer; its outcome comes to ``retryerSettled()``.
  final func start() {
    if canStart() {
      run()
    } else {
      pause().then { [self] _ in engine.lock.sync { run() } }
    }
  }
}

private func pow2(_ n: Int) -> Double {
  var r = 1.0
  for _ in 0..<max(0, min(n, 64)) { r *= 2 }
  return r
}
