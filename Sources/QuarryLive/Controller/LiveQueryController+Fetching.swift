extension LiveQueryController {
  /// Performs a start action after the lock is released, then delivers what was queued.
  func perform(_ action: LiveFetchMachine.StartAction) {
    deliveries.drain()
    guard case .fetch(let id) = action else { return }
    let descriptor = lock.withLock {
      fetchCount += 1
      return currentDescriptor
    }
    Task { await self.runFetch(id: id, descriptor: descriptor) }
  }

  /// Fetch `id`: read, diff off the lock, then apply if it is still the current fetch.
  func runFetch(id: Int, descriptor: Descriptor) async {
    let outcome: Result<[Record], any Error>
    do {
      outcome = .success(try await read { reader in try descriptor.fetch(reader) })
    } catch {
      outcome = .failure(error)
    }
    // The diff is computed without the lock (it may take a while on large results). Only the
    // current fetch applies results, so `previous` cannot change before the result is applied.
    let previous = lock.withLock { machine.isCurrent(id) ? currentResults : nil }
    var diff: LiveDiff?
    if let previous, case .success(let records) = outcome {
      diff = LiveDiff.between(old: previous, new: records, reloadThreshold: reloadThreshold)
    }
    let (next, waiters) = lock.withLock { () -> (LiveFetchMachine.StartAction, [CheckedContinuation<Void, Never>]) in
      var next = LiveFetchMachine.StartAction.none
      switch machine.completed(id) {
      case .discard:
        break
      case .apply(let thenFetch):
        apply(outcome, diff: diff)
        if let thenFetch { next = .fetch(id: thenFetch) }
      }
      guard machine.isSettled else { return (next, []) }
      defer { settleWaiters = [] }
      return (next, settleWaiters)
    }
    perform(next)
    for waiter in waiters { waiter.resume() }
  }

  /// Applies a fetch result (under the lock): state, results, sections, deliveries.
  private func apply(_ outcome: Result<[Record], any Error>, diff: LiveDiff?) {
    switch outcome {
    case .success(let records):
      let diff = diff ?? .reload
      if currentState.isLoaded, diff.isEmpty { return }  // the same results: nothing to tell
      currentResults = records
      if let sectionKey { currentSections = LiveSection.sections(of: records, key: sectionKey) }
      currentState = .loaded(records)
      enqueueChange(diff: diff)
    case .failure(let error):
      currentState = .failed(error, previous: currentState.value)
      enqueueChange(diff: nil)
    }
  }
}
