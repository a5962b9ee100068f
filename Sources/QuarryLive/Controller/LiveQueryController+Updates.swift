extension LiveQueryController {
  /// Calls `didChange` after each change of state or results (and `willChange` just before it),
  /// until the subscription is cancelled; starts the controller.
  ///
  /// Calls run after the change is applied, with no lock held, one at a time in the order changes
  /// were applied, on the thread that applied them. No call starts after `cancel()` returns.
  public func observe(
    willChange: (@Sendable () -> Void)? = nil, didChange: @escaping @Sendable (LiveChange<Record>) -> Void
  ) -> LiveSubscription {
    let token = lock.withLock {
      nextToken += 1
      observers[nextToken] = Observer(willChange: willChange, didChange: didChange)
      return nextToken
    }
    start()
    return LiveSubscription { [weak self] in
      guard let self else { return }
      self.lock.withLock { _ = self.observers.removeValue(forKey: token) }
    }
  }

  /// The results as an `AsyncSequence`: each call makes its own stream, which buffers only the
  /// newest value, so a slow consumer skips to the latest results and never misses the last one.
  /// Starts the controller; one fetch feeds every stream.
  ///
  /// With `withCurrentValue` true the stream begins with the current results if they have loaded
  /// (or failed), otherwise with the first load. Errors arrive as `.failure` elements and do not
  /// end the stream; loading states are not delivered (read ``state`` for them). Identical
  /// results are not delivered twice. The stream ends when the controller is stopped or released.
  ///
  /// ```swift
  /// struct Note: Identifiable, Equatable, Sendable { var id: Int; var text: String }
  /// struct AllNotes: LiveDescriptor {
  ///   func fetch(_ snapshot: InMemoryStore<Note>.Snapshot) -> [Note] { snapshot.records }
  /// }
  /// let store = InMemoryStore<Note>()
  /// let controller = LiveQueryController(store: store, descriptor: AllNotes())
  /// for await update in controller.updates(withCurrentValue: true) {
  ///   let notes = try update.get()  // [] first, then after every commit that changes them
  ///   if notes.isEmpty { try store.write { try $0.insert(Note(id: 1, text: "milk")) } } else { break }
  /// }
  /// ```
  public func updates(withCurrentValue: Bool = true) -> AsyncStream<Result<[Record], any Error>> {
    let (stream, continuation) = AsyncStream<Result<[Record], any Error>>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let token = lock.withLock {
      nextToken += 1
      streams[nextToken] = continuation
      // Under the lock, so that no change can fall between the current value and the next.
      if withCurrentValue, let current = settledValue(currentState) { continuation.yield(current) }
      return nextToken
    }
    continuation.onTermination = { [weak self] _ in
      guard let self else { return }
      self.lock.withLock { _ = self.streams.removeValue(forKey: token) }
    }
    start()
    return stream
  }

  /// Queues a change for observers and yields to streams (under the lock).
  func enqueueChange(diff: LiveDiff?) {
    let change = LiveChange(state: currentState, results: currentResults, sections: currentSections, diff: diff)
    if let value = settledValue(currentState) {
      for stream in streams.values { stream.yield(value) }
    }
    for (token, observer) in observers.sorted(by: { $0.key < $1.key }) {
      deliveries.append { [weak self] in
        // Skipped when the observer was removed before its turn.
        guard let self, self.lock.withLock({ self.observers[token] != nil }) else { return }
        observer.willChange?()
        observer.didChange(change)
      }
    }
  }

  /// What a stream delivers for a state: results or an error; nothing while not settled.
  private func settledValue(_ state: Loadable<[Record], any Error>) -> Result<[Record], any Error>? {
    switch state {
    case .loaded(let records): .success(records)
    case .failed(let error, _): .failure(error)
    case .notStarted, .loading: nil
    }
  }
}
