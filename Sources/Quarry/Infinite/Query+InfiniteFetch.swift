import Synchronization

/// The progress of one infinite fetch that outlives its attempts: a retry of a refetch of all
/// pages resumes at the failed page (TanStack keeps `result` and `currentPage` outside `fetchFn`).
private final class InfiniteFetchProgress: @unchecked Sendable {
  // Safe: only touched under the owning engine's lock (or from jobs the lock orders).
  var result = InfiniteData()
  var currentPage = 0
}

/// What one attempt of a refetch of all pages works with.
private struct RefetchAll: Sendable {
  let old: InfiniteData
  let options: QueryOptions
  let remainingPages: Int
  let progress: InfiniteFetchProgress
  let attempt: AttemptCancellation
  let signal: AbortSignal
  let fetchOptions: FetchOptions?
  let done: Promise<any Sendable>
}

/// Whether one attempt's signal was aborted after a page function read it (TanStack's
/// consume-aware signal: `cancelled` is per attempt, "consumed" per page context).
private final class AttemptCancellation: Sendable {
  let isCancelled = Atomic<Bool>(false)
}

/// Whether a page function's context has had its signal read (TanStack's per-context `consumed`).
private final class PageSignalState: Sendable {
  let isConsumed = Atomic<Bool>(false)
}

extension Query {
  /// TanStack's `infiniteQueryBehavior(pages).onFetch`: the fetch function of an infinite
  /// query. A directional fetch (`fetchMeta.fetchMore.direction`) with cached pages fetches
  /// one page at the end it names; any other fetch refetches every page from the first
  /// cached parameter, computing the following ones from the new pages.
  func infiniteFetchFn(signal: AbortSignal, fetchOptions: FetchOptions?) -> () -> Promise<any Sendable> {
    let options = optionsStorage
    let direction = FetchDirection(fetchMeta: fetchOptions?.meta)
    let old = InfiniteData(stateStorage.data) ?? InfiniteData()
    let progress = InfiniteFetchProgress()
    return { [self] in
      let attempt = AttemptCancellation()
      if let direction, !old.pages.isEmpty {
        let previous = direction == .backward
        let param = previous ? previousPageParam(options, old) : nextPageParam(options, old)
        return fetchPage(old, param, previous: previous, options, signal, attempt, fetchOptions)
          .then { $0 as any Sendable }
      }
      let done = Promise<any Sendable>(scheduler: engine.scheduler)
      refetchPage(
        RefetchAll(old: old, options: options, remainingPages: options.pages ?? old.pages.count, progress: progress,
          attempt: attempt, signal: signal, fetchOptions: fetchOptions, done: done))
      return done
    }
  }

  /// One pass of TanStack's refetch-all loop: fetches the page at `progress.currentPage`, then
  /// the next one once it is in, until the count is reached or a parameter is missing.
  private func refetchPage(_ run: RefetchAll) {
    let progress = run.progress
    let param: JSONValue?
    if progress.currentPage == 0 {
      let first = run.old.pageParams.first ?? nil
      param = isNullishParam(first) ? run.options.initialPageParam : first
    } else {
      param = nextPageParam(run.options, progress.result)
    }
    if progress.currentPage > 0 && isNullishParam(param) {
      run.done.resolve(progress.result)
      return
    }
    fetchPage(progress.result, param, previous: false, run.options, run.signal, run.attempt, run.fetchOptions)
      .whenSettled { [self] outcome in
        engine.lock.sync {
          switch outcome {
          case .success(let data):
            progress.result = data
            progress.currentPage += 1
            if progress.currentPage < run.remainingPages { refetchPage(run) } else { run.done.resolve(data) }
          case .failure(let error):
            run.done.reject(error)
          }
        }
      }
  }

  /// TanStack's `fetchPage`: runs the page function and adds its page at one end.
  private func fetchPage(
    _ data: InfiniteData, _ param: JSONValue?, previous: Bool, _ options: QueryOptions,
    _ signal: AbortSignal, _ attempt: AttemptCancellation, _ fetchOptions: FetchOptions?
  ) -> Promise<InfiniteData> {
    // An async function returning a settled promise settles two jobs later.
    func twoJobsLater(_ outcome: Result<InfiniteData, any Error>) -> Promise<InfiniteData> {
      Promise<Void>.resolved((), scheduler: engine.scheduler).then { _ in () }.then { _ in try outcome.get() }
    }
    if attempt.isCancelled.load(ordering: .relaxed) {
      // TanStack rejects with the signal's reason (reading it marks the signal consumed); the
      // retryer has already settled by then, so the reason is never seen.
      abortSignalConsumed = true
      return twoJobsLater(.failure(CancelledError()))
    }
    if isNullishParam(param) && !data.pages.isEmpty { return twoJobsLater(.success(data)) }
    let pageSignal = PageSignalState()
    let context = QueryFunctionContext(
      queryKey: queryKey, meta: options.meta, pageParam: param, direction: previous ? .backward : .forward,
      signal: signal,
      onSignalRead: { [weak self] in
        guard pageSignal.isConsumed.exchange(true, ordering: .relaxed) == false else { return }
        self?.engine.lock.sync { self?.abortSignalConsumed = true }
        if signal.isAborted {
          attempt.isCancelled.store(true, ordering: .relaxed)
        } else {
          signal.onAbort { attempt.isCancelled.store(true, ordering: .relaxed) }
        }
      })
    let maxPages = options.maxPages ?? 0
    return runQueryFn(consume context, fetchOptions, queryFn: options.queryFn).then { page in
      var next = data
      if previous {
        next.pages.insert(page, at: 0)
        next.pageParams.insert(param, at: 0)
        if maxPages > 0 && next.pages.count > maxPages {
          next.pages.removeLast()
          next.pageParams.removeLast()
        }
      } else {
        next.pages.append(page)
        next.pageParams.append(param)
        if maxPages > 0 && next.pages.count > maxPages {
          next.pages.removeFirst()
          next.pageParams.removeFirst()
        }
      }
      return next
    }
  }
}

/// TanStack's `getNextPageParam(options, data)`: `nil` without pages.
func nextPageParam(_ options: QueryOptions, _ data: InfiniteData) -> JSONValue? {
  guard let last = data.pages.last, let fn = options.getNextPageParam else { return nil }
  return fn.call(last, data.pages, data.pageParams.last ?? nil, data.pageParams)
}

/// TanStack's `getPreviousPageParam(options, data)`: `nil` without pages or function.
func previousPageParam(_ options: QueryOptions, _ data: InfiniteData) -> JSONValue? {
  guard let first = data.pages.first, let fn = options.getPreviousPageParam else { return nil }
  return fn.call(first, data.pages, data.pageParams.first ?? nil, data.pageParams)
}

/// TanStack's `hasNextPage`: data whose next page parameter is not `null`/`undefined`.
func hasNextPage(_ options: QueryOptions, _ data: (any Sendable)?) -> Bool {
  guard let infinite = InfiniteData(data) else { return false }
  return !isNullishParam(nextPageParam(options, infinite))
}

/// TanStack's `hasPreviousPage`: false without `getPreviousPageParam` or data.
func hasPreviousPage(_ options: QueryOptions, _ data: (any Sendable)?) -> Bool {
  guard options.getPreviousPageParam != nil, let infinite = InfiniteData(data) else { return false }
  return !isNullishParam(previousPageParam(options, infinite))
}
