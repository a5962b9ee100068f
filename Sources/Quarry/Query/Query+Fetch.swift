import Synchronization

/// One fetch, its retryer, and the promise of its result (TanStack's `fetch` returns one):
/// what the fetch's closures share (TanStack's closure over `fetch`'s locals): the query, the
/// abort signal's state and the fetch options. Being the retryer (its function and callbacks,
/// the overridden `retryer…` members) and the result promise itself, the run is one object
/// where the run, the retryer and five closures were; a caller holding the promise also keeps
/// the query, the signal and the options until it lets go. It also runs each attempt of the
/// query function (``startAttempt()``) where a ``QueryFunctionCall`` was one more object.
///
/// The run is the fetch's ``AbortSignalSource``: TanStack's `AbortController` is made per fetch,
/// but the ``AbortSignal`` object is made only when something asks for it (a query function
/// reading `context.signal`, an infinite query's pages, a streamed query). Until then the run
/// keeps what the signal would: whether the fetch was aborted, and the attempt's task to cancel
/// (the signal's only handler then). Most fetches never make one: one allocation fewer each.
final class QueryFetchRun: Retryer, AbortSignalSource, @unchecked Sendable {
  // Safe: `fetchFn` is only read and written under the query's engine lock;
  // `abortState` is a `Mutex`, reached only through `withLock(orderingFor:)`; `attemptOptions`
  // is written under the engine lock by `runQueryFn(of:)` and taken by the start it records, on
  // the same thread after the transaction; the other members added here are immutable; the
  // retryer's and the promise's own are guarded as theirs are. The attempt's task reads
  // `attemptOptions` as it starts: after the transaction that wrote it (its creation orders the
  // two), and before the write of the next attempt, which comes after this task left its
  // outcome under `abortState`'s lock.
  let query: Query
  let fetchOptions: FetchOptions?
  /// The signal once made; before, whether the fetch was aborted and the task to cancel then.
  /// With them, the outcome of the query function's attempt, from its task until its delivery
  /// job (``attemptSettled(_:)``; `.pending` between attempts).
  private struct AbortState {
    var signal: AbortSignal?
    var aborted = false
    var task: Task<Void, any Error>?
    var attemptOutcome = PromiseState.pending
    /// The attempt's function has returned (its task left the outcome), and its delivery job
    /// has not run yet. Its task is then not kept: cancelling it would change nothing, and a
    /// kept task held its allocator's first slab (about 1.3 KB with the task) until the fetch
    /// ended, so every pending refetch of an invalidation held one. A function that returns
    /// at once returns before `Task.immediate` does, before ``cancelOnAbort(_:)``.
    var attemptReturned = false
  }
  private let abortState = Mutex(AbortState())
  /// The attempt's options, whose `queryFn` is a function, from `runQueryFn(of:)` until the
  /// next attempt's (read by the attempt's task as it starts, ``startAttempt()``, with its
  /// function: the box is immutable, so the function read then is the one checked when the
  /// attempt was prepared; kept apart as well, the function was copied out of the option twice).
  private var attemptOptions: QueryOptionsBox?
  /// An infinite query's fetch function; `nil` calls the query function (`runQueryFn`).
  var fetchFn: (() -> Promise<any Sendable>)?

  /// Inlined, as the retryer's init is (its config moves in).
  @inline(__always)
  init(query: Query, fetchOptions: FetchOptions?, config: consuming Retryer.Config) {
    self.query = query
    self.fetchOptions = fetchOptions
    super.init(engine: query.engine, config: config)
  }

  override func retryerAttempt() -> Promise<any Sendable>? {
    if let fetchFn { return fetchFn() }
    return query.runQueryFn(of: self)
  }

  /// Holds the attempt's options (their `queryFn` a function) for its recorded start
  /// (TanStack's call of the query function; see ``startAttempt()``). Under the engine lock.
  func prepareAttempt(_ options: QueryOptionsBox) {
    attemptOptions = options
  }

  /// Starts the attempt's query function at once (`Task.immediate`, like a JavaScript call) on
  /// the scheduler's executor, as ``QueryFunctionCall/start()`` does; the run stands in for the
  /// call's promise (one allocation fewer per fetch): the task leaves the outcome here and
  /// queues the job in which that promise would have delivered it to the retryer. Attempts run
  /// one after another (the next starts from that job's retryer), so one slot each suffices.
  ///
  /// The function's context is built in the task (``Query/functionContext(meta:run:)``) from the
  /// options, the query's key (immutable) and its client (set once): the values TanStack's
  /// context holds, and the context is not moved through an optional member (its value
  /// witnesses cost ~1,000 instructions per fetch).
  ///
  /// The task's operation captures the run alone and reads the options, and the function in
  /// them, from it as it starts (captured too, they were retained into the closure's context
  /// and released with it; the async closure still gets a context object of its own, 40
  /// bytes). They stay there until the next attempt's ``prepareAttempt(_:)`` (after this task
  /// has left its outcome, under `abortState`'s lock) or the run's end; the query holds the same
  /// options.
  func startAttempt() {
    let task = Task<Void, any Error>.immediate(executorPreference: engine.scheduler.taskExecutor) { [self] () async throws -> Void in
      guard let options = attemptOptions, case .function(let fn)? = options.options.queryFn else {
        preconditionFailure("an attempt starts once prepared")
      }
      let context = query.functionContext(meta: options.options.meta, run: self)
      do {
        attemptSettled(.fulfilled(try await fn.call(context)))
      } catch {
        attemptSettled(.rejected(error))
      }
    }
    cancelOnAbort(task)
  }

  /// The attempt's task is done: keeps the outcome and queues its delivery job (the job a
  /// promise queues as it settles with a callback registered).
  private func attemptSettled(_ outcome: consuming PromiseState) {
    // A kept task (its function suspended first) is let go, after the lock: it frees itself
    // as it ends.
    _ = abortState.withLock(orderingFor: self) { state -> Task<Void, any Error>? in
      swap(&state.attemptOutcome, &outcome)
      state.attemptReturned = true
      return state.task.take()
    }
    scheduler.enqueue { [self] in deliverAttempt() }
  }

  /// The attempt's delivery job: tells the retryer the outcome, swapped through to the
  /// retryer's ``Retryer/outcome`` as it is (``Retryer/attemptSettled(swapping:)``): bound out
  /// of the state into a `Result`, a fulfilled value was copied twice on the way.
  private func deliverAttempt() {
    var settled = PromiseState.pending
    abortState.withLock(orderingFor: self) { state in
      swap(&settled, &state.attemptOutcome)
      state.attemptReturned = false
    }
    attemptSettled(swapping: &settled)
  }

  override func retryerCancelled(_ error: any Error) { query.onFetchCancel(error, run: self) }

  /// The query's cache link: a fetch's context reads its client through it.
  var fetchLink: QueryCacheLink? { query.link }

  /// The fetch's context's signal was read: its query's signal is consumed.
  func fetchSignalRead() { query.engine.lock.sync { query.abortSignalConsumed = true } }

  override func retryerSettled() { query.fetchSettled(run: self) }

  /// The fetch's signal, made now if it has not been: aborted if the fetch was, else holding the
  /// current attempt's task as its first handler, where the task would have registered it.
  var abortSignal: AbortSignal {
    abortState.withLock(orderingFor: self) { state in
      if let signal = state.signal { return signal }
      let signal = AbortSignal(aborted: state.aborted)
      if let task = state.task {
        state.task = nil
        signal.onAbort { task.cancel() }
      }
      state.signal = signal
      return signal
    }
  }

  /// Whether the run keeps its current attempt's task (to cancel it if the fetch aborts). Tests
  /// read it: a task whose function has returned is not kept (``AbortState/attemptReturned``).
  var keepsAttemptTask: Bool { abortState.withLock(orderingFor: self) { $0.task != nil } }

  /// Cancels the attempt's `task` when the fetch aborts (at once if it has).
  ///
  /// Without a signal only the latest task is kept: attempts run one after another (the next
  /// starts once the last one's promise has settled, its function returned), and cancelling a
  /// task whose operation has returned changes nothing. For that reason a task whose function
  /// has already returned (``AbortState/attemptReturned``) is not kept at all.
  func cancelOnAbort(_ task: Task<Void, any Error>) {
    let (signal, abortedAlready) = abortState.withLock(orderingFor: self) { state -> (AbortSignal?, Bool) in
      if state.attemptReturned { return (nil, false) }
      if let signal = state.signal { return (signal, false) }
      if state.aborted { return (nil, true) }
      state.task = task
      return (nil, false)
    }
    if let signal {
      signal.onAbort { task.cancel() }
    } else if abortedAlready {
      task.cancel()
    }
  }

  /// Aborts the fetch (TanStack's `abortController.abort()`): the signal if made (its handlers
  /// run after the engine transaction), else the task, in the same place.
  func abort(via engineLock: EngineLock) {
    let (signal, task) = abortState.withLock(orderingFor: self) { state -> (AbortSignal?, Task<Void, any Error>?) in
      if let signal = state.signal { return (signal, nil) }
      if state.aborted { return (nil, nil) }
      state.aborted = true
      defer { state.task = nil }
      return (nil, state.task)
    }
    if let signal {
      signal.abort(via: engineLock)
    } else if let task {
      engineLock.record(.plumbing) { task.cancel() }
    }
  }

  override func retryerFailed(_ failureCount: Int, _ error: any Error) {
    query.dispatch(.failed(failureCount: failureCount, error: error))
  }

  override func retryerPaused() { query.dispatch(.pause) }

  override func retryerContinued() { query.dispatch(.continue) }
}

/// Options for one fetch (TanStack's `FetchOptions`).
///
/// An immutable object rather than a struct: a fetch keeps its options for the fetch's life
/// (``QueryFetchRun``) and reads them in several places, and `refetchQueries` hands the same
/// options to every query it refetches. As a struct (its `meta` a `DeepReleased` enum and the
/// whole an `Optional`) each copy went through the runtime's value witnesses, about 550
/// instructions per fetch; now a copy is a retain. Nothing ever changed a `FetchOptions` after
/// building it, so sharing one changes nothing.
final class FetchOptions: Sendable {
  let cancelRefetch: Bool?
  private let metaStorage: DeepReleased<JSONValue?>
  let initialPromise: Promise<any Sendable>?
  let throwOnError: Bool?

  /// The fetch's `meta` (kept `@DeepReleased`: released without recursion however deep).
  var meta: JSONValue? { metaStorage.wrappedValue }

  init(cancelRefetch: Bool? = nil, meta: JSONValue? = nil, initialPromise: Promise<any Sendable>? = nil, throwOnError: Bool? = nil) {
    self.cancelRefetch = cancelRefetch
    self.metaStorage = DeepReleased(wrappedValue: meta)
    self.initialPromise = initialPromise
    self.throwOnError = throwOnError
  }
}

/// Whether a value is a nil `Optional` in disguise: TanStack's `undefined` data.
func isUndefined(_ value: any Sendable) -> Bool {
  // A plain struct or enum is never a nil `Optional`: skip the runtime's conformance search.
  // The stored type (read from the existential) answers as `type(of:)` does here: it is the
  // exact type of a struct or enum, and any class passes.
  guard castMaySeeThrough(storedType(of: value)) else { return false }
  guard let optional = value as? any OptionalValue else { return false }
  return optional.isNone
}

/// Lets `isUndefined` see through an `Optional` boxed as `any Sendable` without reflection.
protocol OptionalValue {
  var isNone: Bool { get }
}

extension Optional: OptionalValue {
  var isNone: Bool {
    guard case .some(let wrapped) = self else { return true }
    // A nested optional (`Int??`) is undefined when its inner value is.
    return (wrapped as? any OptionalValue)?.isNone ?? false
  }
}

extension Query {
  /// Fetches the query, deduplicating onto a running fetch (TanStack's `Query.fetch`).
  func fetch(_ options: QueryOptions? = nil, _ fetchOptions: FetchOptions? = nil) -> Promise<any Sendable> {
    fetch(sharing: options.map(QueryOptionsBox.init), fetchOptions)
  }

  /// ``fetch(_:_:)`` with the options on the heap (an observer's: see ``setOptions(sharing:)``).
  func fetch(sharing options: QueryOptionsBox?, _ fetchOptions: FetchOptions? = nil) -> Promise<any Sendable> {
    if stateStorage.fetchStatus != .idle, retryer?.status != .rejected {
      if stateStorage.dataBox != nil, fetchOptions?.cancelRefetch == true {
        _ = cancel(CancelOptions(silent: true))
      } else if let retryer {
        retryer.continueRetry()
        let joined = Promise<any Sendable>(scheduler: engine.scheduler)
        joined.adopt(retryer.promise)  // `return this.#retryer.promise` from an async function
        return joined
      }
    }
    if let options { setOptions(sharing: options) }
    if sharedOptions.queryFn == nil,
      let observer = observersStorage.first(where: { $0.optionsBox.options.queryFn != nil })
    {
      setOptions(sharing: observer.optionsBox)
    }

    // The run is the retryer (its function and callbacks) and the fetch's result.
    let run = QueryFetchRun(query: self, fetchOptions: fetchOptions, config: Retryer.Config(
      initialPromise: fetchOptions?.initialPromise,
      retry: sharedOptions.retry,
      retryDelay: sharedOptions.retryDelay,
      networkMode: sharedOptions.networkMode
    ))
    if isInfiniteQuery { run.fetchFn = infiniteFetchFn(signal: run.abortSignal, fetchOptions: fetchOptions) }

    // The members `.fetch` writes (and the fetch's other actions), not the whole state: what
    // the fetch reverts to is the current state with them put back (``FetchRevert``).
    fetchRevert = stateStorage.fetchRevert
    if revertStateBox != nil { revertStateBox = nil }
    dispatch(.fetch(meta: fetchOptions?.meta))

    self.retryer = run
    run.start()
    return run
  }

  /// The fetch function of a query that is not infinite: calls the query function. With a
  /// function, the run starts it and tells itself (``QueryFetchRun/startAttempt()``: `nil`);
  /// without one, the promise ``runQueryFn(_:_:queryFn:)`` answers.
  func runQueryFn(of run: QueryFetchRun) -> Promise<any Sendable>? {
    // Read through the box: `sharedOptions.meta` copied all the options (and destroyed the copy).
    let options = sharedOptionsBox
    abortSignalConsumed = false
    // Asked, not bound: the attempt's task reads the function from the same (immutable) box.
    guard case .function? = options.options.queryFn else {
      return runQueryFn(functionContext(meta: options.options.meta, run: run), run.fetchOptions, queryFn: options.options.queryFn)
    }
    // The run builds the context in the attempt's task, as above (`startAttempt`).
    run.prepareAttempt(options)
    // Started after the transaction: the function's synchronous prefix never runs under the lock.
    engine.lock.record(.plumbing) { [run] in run.startAttempt() }
    return nil
  }

  /// The context of a query function call of `run` (TanStack's): the key, `meta`, the client,
  /// and the run's signal, whose first read marks it consumed. The client and that mark are
  /// reached through the run (``QueryFetchRun/fetchLink``, ``QueryFetchRun/fetchSignalRead()``),
  /// which holds the query strongly, as TanStack's getter holds `this`.
  func functionContext(meta: JSONValue?, run: QueryFetchRun) -> QueryFunctionContext {
    QueryFunctionContext(queryKey: queryKey, meta: meta, fetch: run)
  }

  /// The retryer's `onCancel`: reverts a reverting cancellation, and aborts the signal.
  func onFetchCancel(_ error: any Error, run: QueryFetchRun) {
    if let cancelled = error as? CancelledError, cancelled.revert, var reverted = revertState {
      reverted.fetchStatus = .idle
      setState(reverted)
    }
    run.abort(via: engine.lock)
  }

  /// The run's retryer settled (in the job of TanStack's `then` on `retryer.promise`): settles
  /// the fetch's result and lets go of the fetch.
  func fetchSettled(run: QueryFetchRun) {
    engine.lock.sync {
      settleFetch(run)
      if self.retryer === run { self.retryer = nil }
      scheduleGc()
    }
  }

  /// Settles `run`'s result (the promise it is) from its retryer's ``Retryer/outcome``.
  private func settleFetch(_ run: QueryFetchRun) {
    let result: Promise<any Sendable> = run
    var failure: any Error
    switch run.outcome {
    case .pending: preconditionFailure("a fetch settles once its retryer has")
    case .fulfilled(let returned):
      // A plain struct or enum (an `Int`, a `String`, a model) is neither a box nor an undefined
      // `Optional`: `unboxed` returns it and `isUndefined` says no, so neither is asked (each
      // opened the value again; `isUndefined` asked the runtime for its dynamic type).
      let plain = !castMaySeeThrough(storedType(of: returned))
      let data = plain ? returned : unboxed(returned)
      if !plain && isUndefined(data) {
        failure = QuarryError.undefinedData(queryHash: queryHash)
      } else {
        setData(returned, manual: false)
        // Recorded only when there is a callback to call (an empty effect cost a closure context
        // per fetch; effects and jobs keep their order either way).
        if link.hasFetchCallbacks, let config = cache?.config, config.onSuccess != nil || config.onSettled != nil {
          let error = stateStorage.error
          engine.lock.record(.listener) {
            config.onSuccess?(data, self)
            config.onSettled?(data, error, self)
          }
        }
        result.resolve(data)
        return
      }
    case .rejected(let error):
      failure = error
      // Only the engine's own cancellations are special: a `CancelledError` that the query
      // function throws is an ordinary failure. (TanStack treats a thrown one with `silent` or
      // `revert` like its own and leaves the query pending and fetching forever.)
      if let cancelled = error as? CancelledError, run.isCancelled {
        if cancelled.silent {
          if let current = self.retryer {
            result.adopt(current.promise)  // `return this.#retryer.promise` from an async function
          } else {
            result.reject(error)
          }
          return
        } else if cancelled.revert {
          if let data = stateStorage.data {
            result.resolve(data)
          } else {
            result.reject(error)
          }
          return
        }
      }
    }
    dispatch(.error(failure))
    if link.hasFetchCallbacks, let config = cache?.config, config.onError != nil || config.onSettled != nil {
      let data = stateStorage.data
      engine.lock.record(.listener) {
        config.onError?(failure, self)
        config.onSettled?(data, failure, self)
      }
    }
    result.reject(failure)
  }

  /// TanStack's `ensureQueryFn` and the call itself: starts the query function at once
  /// (`Task.immediate`, like a JavaScript call) on the scheduler's executor.
  ///
  /// `context` is consumed: it moves into the call (passed borrowed, it was copied there, its
  /// weak `client` and two `DeepReleased` members through their value witnesses, and the
  /// caller's copy destroyed after).
  ///
  /// `queryFn` is consumed too: matched borrowed, the option was copied (its function retained,
  /// through an outlined copy) and the caller's destroyed after.
  func runQueryFn(_ context: consuming QueryFunctionContext, _ fetchOptions: FetchOptions?, queryFn: consuming QueryFnOption?) -> Promise<any Sendable> {
    let fn: QueryFunction
    switch consume queryFn {
    case .function(let function)?:
      fn = function
    case nil:
      if let initial = fetchOptions?.initialPromise { return initial }
      fallthrough
    case .skipToken?:
      let promise = Promise<any Sendable>(scheduler: engine.scheduler)
      promise.reject(QuarryError.missingQueryFn(queryHash: queryHash))
      return promise
    }
    let call = QueryFunctionCall(fn: fn, context: consume context, executor: engine.scheduler.taskExecutor, scheduler: engine.scheduler)
    // Started after the transaction: the function's synchronous prefix never runs under the lock.
    engine.lock.record(.plumbing) { [call] in call.start() }
    return call
  }
}

/// One call of a query function, and the promise of its outcome (an infinite query's page, and
/// a query without a function's initial path: a query's own attempts run on its
/// ``QueryFetchRun``, without a promise per call): what its recorded start and its task share. The recorded start captures this object alone (no closure context of its
/// own), the function's context is copied once, into it, and the promise is this object (one
/// allocation: the promise, the recorded start's closure context and the task's each held a
/// copy of the promise, the function and the context before).
final class QueryFunctionCall: Promise<any Sendable>, @unchecked Sendable {
  // Safe: the members added here are immutable; the promise's own are guarded as its are.
  let fn: QueryFunction
  let context: QueryFunctionContext
  let executor: (any TaskExecutor)?

  init(fn: QueryFunction, context: consuming QueryFunctionContext, executor: (any TaskExecutor)?, scheduler: any QueryScheduler) {
    self.fn = fn
    self.context = context
    self.executor = executor
    super.init(scheduler: scheduler)
  }

  /// Starts the function at once (`Task.immediate`, like a JavaScript call) on the executor;
  /// when TanStack would abort the signal, the Swift task is cancelled too.
  ///
  /// The task is a `Task<Void, any Error>` although its operation never throws: the standard
  /// library's non-throwing `Task.immediate` converts the operation to the throwing one the
  /// runtime takes, through a thunk whose context is one more allocation per call.
  func start() {
    let task = Task<Void, any Error>.immediate(executorPreference: executor) { [self] () async throws -> Void in
      do {
        resolve(try await fn.call(context))
      } catch {
        reject(error)
      }
    }
    context.signalSource.cancelOnAbort(task)
  }
}
