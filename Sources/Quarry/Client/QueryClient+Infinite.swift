extension QueryClient {
  // MARK: Promise forms (used by the async API and the scenario runner)

  package func fetchInfiniteQueryPromise(_ options: QueryOptions) -> Promise<any Sendable> {
    fetchQueryPromise(infinite(options))
  }

  package func prefetchInfiniteQueryPromise(_ options: QueryOptions) -> Promise<Void> {
    fetchInfiniteQueryPromise(options).thenNoopCatchNoop()
  }

  package func ensureInfiniteQueryDataPromise(_ options: QueryOptions, revalidateIfStale: Bool = false) -> Promise<any Sendable> {
    ensureQueryDataPromise(infinite(options), revalidateIfStale: revalidateIfStale)
  }

  private func infinite(_ options: QueryOptions) -> QueryOptions {
    var marked = options
    marked.isInfinite = true
    return marked
  }

  // MARK: Async API

  /// Fetches an infinite query (or returns fresh cached pages): the first page, or as many
  /// pages as cached (`options.pages` to choose), each from the previous page's parameter
  /// (TanStack's `fetchInfiniteQuery`). No retries unless `options.retry` says so.
  ///
  /// ```swift
  /// let feed = try await client.fetchInfiniteQuery(.infinite(
  ///   queryKey: ["feed"], as: [Int].self, initialPageParam: 0,
  ///   getNextPageParam: { _, _, lastParam, _ in .number((lastParam?.numberValue ?? 0) + 1) },
  ///   queryFn: { context in try await api.feed(page: Int(context.pageParam?.numberValue ?? 0)) }))
  /// print(try feed.pages(as: [Int].self))
  /// ```
  public func fetchInfiniteQuery(_ options: QueryOptions) async throws -> InfiniteData {
    try infiniteData(await fetchInfiniteQueryPromise(options).value, options)
  }

  /// Like `fetchInfiniteQuery`, but never throws and returns nothing.
  public func prefetchInfiniteQuery(_ options: QueryOptions) async {
    _ = try? await prefetchInfiniteQueryPromise(options).value
  }

  /// Returns the cached pages if any, else fetches them; optionally refetches stale pages in
  /// the background (TanStack's `ensureInfiniteQueryData`).
  public func ensureInfiniteQueryData(_ options: QueryOptions, revalidateIfStale: Bool = false) async throws -> InfiniteData {
    try infiniteData(await ensureInfiniteQueryDataPromise(options, revalidateIfStale: revalidateIfStale).value, options)
  }

  private func infiniteData(_ value: any Sendable, _ options: QueryOptions) throws -> InfiniteData {
    guard let data = InfiniteData(value) else {
      throw QuarryError.typeMismatch(key: options.queryKey?.queryHash ?? "", expected: "InfiniteData", actual: String(describing: type(of: value)))
    }
    return data
  }
}
