/// The query function `QueryFnOption.streamedQuery` builds: it reads an `AsyncSequence` and
/// writes each chunk into the cache as it arrives (TanStack's `streamedQuery`).
struct StreamedQuery<Stream: StreamedQuerySequence, Data: Sendable>: Sendable {
  let refetchMode: StreamedQueryRefetchMode
  let initialValue: Data
  let reducer: @Sendable (Data, Stream.Element) -> Data
  let streamFn: @Sendable (QueryFunctionContext) async throws -> Stream

  /// One fetch: reset the query on a `reset` refetch, then fold each chunk into the cache (or, on a
  /// `replace` refetch, into a local value written once at the end).
  ///
  /// The sequence is read one element at a time, each written before the next is requested, so
  /// a fast stream is consumed at the pace the engine writes and nothing is buffered here. When
  /// the fetch is cancelled the task running this function is cancelled, which ends a sequence
  /// that honours cancellation; if the stream function read its signal, the loop also stops at
  /// the next chunk, as TanStack's does.
  func run(_ context: QueryFunctionContext) async throws -> any Sendable {
    guard let client = context.client else { throw CancellationError() }
    let queryKey = context.queryKey
    let isRefetch = client.engine.lock.sync { () -> Bool in
      guard let query = client.queryCache.find(QueryFilters(queryKey: queryKey, exact: true)) else { return false }
      let isRefetch = query.isFetched()
      if isRefetch, refetchMode == .reset {
        var reset = query.initialState
        reset.fetchStatus = .fetching
        query.setState(reset)
      }
      return isRefetch
    }

    let cancellation = StreamCancellation()
    let streamContext = QueryFunctionContext(
      queryKey: queryKey, meta: context.meta, pageParam: context.pageParam, client: client,
      signal: context.abortSignal, onSignalRead: { cancellation.signalWasRead(context) })
    let stream = try await streamFn(streamContext)

    let isReplaceRefetch = isRefetch && refetchMode == .replace
    var result = initialValue
    for try await chunk in stream {
      if cancellation.isCancelled { break }
      if isReplaceRefetch {
        result = reducer(result, chunk)
      } else {
        try client.setQueryData(queryKey) { (previous: Data?) in reducer(previous ?? initialValue, chunk) }
      }
    }
    // A sequence that ends because its task was cancelled ended early: never write a partial
    // replacement (TanStack, whose stream cannot see the abort unless it read the signal, does).
    if isReplaceRefetch, !cancellation.isCancelled, !Task.isCancelled {
      client.setQueryData(queryKey, value: result)
    }
    return client.getQueryData(queryKey) ?? initialValue
  }
}
