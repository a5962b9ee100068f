extension LiveQueryController {
  /// Starts observing the store and fetches (again: after ``stop()``). Does nothing when started.
  public func start() {
    // Atomic registration: the commit observer is installed before the first fetch is decided, so
    // no commit between the two is missed. The store never calls it under its own lock.
    let subscription = observeCommits { [weak self] commit in self?.storeCommitted(commit) }
    let (action, unused) = lock.withLock { () -> (LiveFetchMachine.StartAction, LiveSubscription?) in
      guard machine.phase == .stopped else { return (.none, subscription) }
      commitSubscription = subscription
      let action = machine.start()
      if case .fetch = action { setState(.loading(previous: currentState.value)) }
      return (action, nil)
    }
    unused?.cancel()
    perform(action)
  }

  /// Stops observing. A fetch under way is dropped; streams end; the results stay.
  public func stop() {
    let (subscription, ended, waiters) = lock.withLock {
      machine.stop()
      defer {
        commitSubscription = nil
        streams = [:]
        settleWaiters = []
      }
      return (commitSubscription, Array(streams.values), settleWaiters)
    }
    subscription?.cancel()
    for stream in ended { stream.finish() }
    for waiter in waiters { waiter.resume() }
  }

  /// Stops fetching and delivering; commits meanwhile are remembered. A fetch under way is dropped.
  public func pause() {
    lock.withLock { machine.pause() }
  }

  /// Fetches once if anything changed while paused, and delivers it (one change).
  public func resume() {
    perform(lock.withLock { machine.resume() })
  }

  /// Fetches again now (as if the store had committed): after writes the store could not report,
  /// or to retry a failure.
  public func refresh() {
    perform(lock.withLock { machine.changed() })
  }

  /// Replaces the descriptor. Fetches only if it differs (`!=`) from the current one; the state is
  /// then ``Loadable/loading(previous:)`` until the new results arrive, and a fetch for the old
  /// descriptor still under way can no longer win.
  public func setDescriptor(_ descriptor: Descriptor) {
    let action = lock.withLock { () -> LiveFetchMachine.StartAction in
      guard descriptor != currentDescriptor else { return .none }
      currentDescriptor = descriptor
      let action = machine.restart()
      if machine.phase != .stopped { setState(.loading(previous: currentState.value)) }
      return action
    }
    perform(action)
  }

  /// Waits until no fetch is under way (every commit reported so far is applied, or the controller
  /// is paused or stopped) and every applied change was delivered to observers; returns the state.
  /// The condition tests wait on.
  @discardableResult
  public func settled() async -> Loadable<[Record], any Error> {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let isSettled = lock.withLock {
        if machine.isSettled { return true }
        settleWaiters.append(continuation)
        return false
      }
      if isSettled { continuation.resume() }
    }
    await deliveries.waitUntilIdle()
    return state
  }

  /// A commit of the store (on the committing thread).
  func storeCommitted(_ commit: StoreCommit) {
    perform(lock.withLock { () -> LiveFetchMachine.StartAction in
      guard commit.affects(currentDescriptor.entities) else { return .none }
      return machine.changed()
    })
  }

  /// Sets the state (under the lock) and tells observers.
  func setState(_ state: Loadable<[Record], any Error>) {
    currentState = state
    enqueueChange(diff: nil)
  }
}
