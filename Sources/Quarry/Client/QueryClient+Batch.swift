extension QueryClient {
  /// Runs `body` and delivers the listener calls its operations cause (observer and cache
  /// listeners, cache callbacks) when it returns, in the order they were committed
  /// (TanStack's `notifyManager.batch`, with every listener held as TanStack holds those wrapped
  /// in `notifyManager.batchCalls`, which its framework adapters use; a plain TanStack listener
  /// would run inside the batch).
  ///
  /// ```swift
  /// client.batch {
  ///   client.setQueryData(["todos", 1], value: "milk")
  ///   client.setQueryData(["todos", 2], value: "bread")
  /// }  // listeners hear of both writes here, not in between
  /// ```
  /// Only calls made on the calling thread are held back; other threads' operations deliver
  /// theirs as usual. Fetches, jobs and timers start at once, as outside a batch. `body` runs
  /// without the engine lock held; batches nest (the outermost one delivers). A batch that ends
  /// inside a value callback delivers when that operation ends.
  @discardableResult
  public func batch<T>(_ body: () throws -> T) rethrows -> T {
    try engine.lock.batch(body)
  }
}
