/// Watches an infinite query: a ``QueryObserver`` whose query is infinite, with
/// `fetchNextPage`/`fetchPreviousPage` and page flags in its results (TanStack's
/// `InfiniteQueryObserver`).
///
/// ```swift
/// let options = QueryOptions.infinite(
///   queryKey: ["feed"], as: [Int].self, initialPageParam: 0,
///   getNextPageParam: { _, _, lastParam, _ in .number((lastParam?.numberValue ?? 0) + 1) },
///   queryFn: { context in try await api.feed(page: Int(context.pageParam?.numberValue ?? 0)) })
/// let observer = InfiniteQueryObserver(client: client, options: options)
/// let unsubscribe = observer.subscribe { result in print(result.hasNextPage) }
/// let next = try await observer.fetchNextPage()
/// print(try next.infiniteData?.pages(as: [Int].self) ?? [])
/// unsubscribe()
/// ```
public final class InfiniteQueryObserver: QueryObserver, @unchecked Sendable {
  // Safe: no state of its own; QueryObserver's members are guarded by the engine lock.

  /// Replaces the options, making them infinite (TanStack sets `_type: 'infinite'`).
  public override func setOptions(_ options: consuming QueryOptions) {
    options.isInfinite = true
    super.setOptions(options)
  }

  package override func getOptimisticResult(_ options: QueryOptions, optimistic: Bool, isRestoring: Bool = false) -> QueryObserverResult {
    var infinite = options
    infinite.isInfinite = true
    return super.getOptimisticResult(infinite, optimistic: optimistic, isRestoring: isRestoring)
  }

  /// Fetches the page after the last one; resolves with the result after the fetch. Errors
  /// are swallowed unless `throwOnError`; `cancelRefetch` (default `true`) cancels a running
  /// fetch first when there is data.
  public func fetchNextPage(_ options: RefetchOptions = RefetchOptions()) async throws -> QueryObserverResult {
    try await fetchNextPagePromise(options).value
  }

  /// Fetches the page before the first one (see ``fetchNextPage(_:)``).
  public func fetchPreviousPage(_ options: RefetchOptions = RefetchOptions()) async throws -> QueryObserverResult {
    try await fetchPreviousPagePromise(options).value
  }

  package func fetchNextPagePromise(_ options: RefetchOptions = RefetchOptions()) -> Promise<QueryObserverResult> {
    refetchPromise(options, meta: FetchDirection.forward.fetchMeta)
  }

  package func fetchPreviousPagePromise(_ options: RefetchOptions = RefetchOptions()) -> Promise<QueryObserverResult> {
    refetchPromise(options, meta: FetchDirection.backward.fetchMeta)
  }

  override func createResult(_ query: Query, _ options: QueryOptions, optimistic: Bool, isRestoring: Bool) -> QueryObserverResult {
    var result = super.createResult(query, options, optimistic: optimistic, isRestoring: isRestoring)
    let state = query.stateStorage
    let direction = FetchDirection(fetchMeta: state.fetchMeta)
    result.infinite = InfiniteQueryFlags(
      hasNextPage: hasNextPage(options, state.data),
      hasPreviousPage: hasPreviousPage(options, state.data),
      isFetchingNextPage: result.isFetching && direction == .forward,
      isFetchingPreviousPage: result.isFetching && direction == .backward,
      isFetchNextPageError: result.isError && direction == .forward,
      isFetchPreviousPageError: result.isError && direction == .backward)
    return result
  }
}
