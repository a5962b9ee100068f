extension QueryFnOption {
  /// A query function that streams its data from an `AsyncSequence`, folding each element into
  /// the cached data as it arrives (TanStack's `streamedQuery`).
  ///
  /// The query is pending until the first chunk, then `success` with each new value while its
  /// `fetchStatus` stays `fetching` until the sequence ends; an empty sequence gives
  /// `initialValue`. A sequence that throws fails the fetch (chunks so far stay in the cache) and
  /// the query retries like any other.
  ///
  /// ```swift
  /// var options = QueryOptions(queryKey: ["answer"])
  /// options.queryFn = .streamedQuery(initialValue: "", reducer: { $0 + $1 }) { _ in
  ///   AsyncStream { continuation in
  ///     for token in ["Hello", ", ", "world"] { continuation.yield(token) }
  ///     continuation.finish()
  ///   }
  /// }
  /// let observer = QueryObserver(client: client, options: options)
  /// let unsubscribe = observer.subscribe { result in print(result.data ?? "…") }
  /// unsubscribe()
  /// ```
  ///
  /// - Parameters:
  ///   - refetchMode: what a refetch does with the previous data (default ``StreamedQueryRefetchMode/reset``).
  ///   - initialValue: the value the first chunk is folded into, and the data of an empty stream.
  ///   - reducer: folds one chunk into the data; it runs under the engine lock, so keep it quick.
  ///   - streamFn: makes the sequence for one fetch. Reading `context.signal` lets the engine
  ///     cancel the fetch when its last observer leaves; a cancelled fetch cancels the task that
  ///     iterates the sequence.
  public static func streamedQuery<Stream: StreamedQuerySequence, Data: Sendable>(
    refetchMode: StreamedQueryRefetchMode = .reset,
    initialValue: Data,
    reducer: @escaping @Sendable (Data, Stream.Element) -> Data,
    streamFn: @escaping @Sendable (QueryFunctionContext) async throws -> Stream
  ) -> QueryFnOption {
    let streamed = StreamedQuery(refetchMode: refetchMode, initialValue: initialValue, reducer: reducer, streamFn: streamFn)
    return .fn { context in try await streamed.run(context) }
  }

  /// A query function whose data is the array of every element an `AsyncSequence` produced so
  /// far (TanStack's `streamedQuery` with its default reducer and `initialValue: []`).
  ///
  /// ```swift
  /// var options = QueryOptions(queryKey: ["numbers"])
  /// options.queryFn = .streamedQuery { _ in
  ///   AsyncStream { continuation in
  ///     for n in 1...3 { continuation.yield(n) }
  ///     continuation.finish()
  ///   }
  /// }
  /// // observers see [1], [1, 2], [1, 2, 3]
  /// ```
  public static func streamedQuery<Stream: StreamedQuerySequence>(
    refetchMode: StreamedQueryRefetchMode = .reset,
    streamFn: @escaping @Sendable (QueryFunctionContext) async throws -> Stream
  ) -> QueryFnOption where Stream.Element: Sendable {
    streamedQuery(refetchMode: refetchMode, initialValue: [Stream.Element](), reducer: { $0 + [$1] }, streamFn: streamFn)
  }
}
