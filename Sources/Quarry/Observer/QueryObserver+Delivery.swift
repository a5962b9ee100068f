/// Safe delivery: results as an `AsyncSequence`, consumed on any actor.
extension QueryObserver {
  /// The observer's results as an async sequence: the result it will have once mounted first
  /// (TanStack's `getOptimisticResult`, as the framework bindings read it), then every changed
  /// result, in order. Iterating subscribes (mounting the observer, which may fetch); ending
  /// the iteration or cancelling its task unsubscribes.
  ///
  /// The stream is the safe way to bring results to the main actor: the engine only enqueues
  /// into the buffer, and the consumer runs wherever it iterates.
  ///
  /// ```swift
  /// var options = QueryOptions(queryKey: ["todos"])
  /// options.queryFn = .fn { _ in try await api.todos() }
  /// let observer = QueryObserver(client: client, options: options)
  /// Task { @MainActor in
  ///   for await result in observer.results() {
  ///     print(result.status, result.fetchStatus)
  ///   }
  /// }
  /// ```
  public func results(
    bufferingPolicy: AsyncStream<QueryObserverResult>.Continuation.BufferingPolicy = .unbounded
  ) -> AsyncStream<QueryObserverResult> {
    AsyncStream(bufferingPolicy: bufferingPolicy) { continuation in
      let unsubscribe: @Sendable () -> Void = engine.lock.sync {
        // Under the lock, so no change can slip between the first result and the subscription.
        continuation.yield(getOptimisticResult(optionsStorage, optimistic: true))
        return subscribe { continuation.yield($0) }
      }
      continuation.onTermination = { _ in unsubscribe() }
    }
  }
}
