/// One run of a mutation: its options, state and observers (TanStack's `Mutation`).
///
/// Mutations are created by the ``MutationCache`` (through ``QueryClient/mutate(_:variables:)``
/// or a ``MutationObserver``); each `mutate` call makes a new one.
public final class Mutation: @unchecked Sendable {
  // Safe: every mutable member is guarded by the owning client's engine lock.
  /// The mutation's number in its cache, from 1 in creation order.
  public let mutationId: Int
  let engine: Engine
  /// The client that built the mutation. Weak: a mutation may settle after its client is gone.
  weak var client: QueryClient?
  /// The cache that holds the mutation. Strong: a mutation settling after its client was released
  /// still finishes its bookkeeping (the cache and its mutations are freed once gc removes it).
  let cache: MutationCache
  var optionsStorage: MutationOptions
  var stateStorage: MutationState
  var observersStorage: [MutationObserver] = []
  var retryer: Retryer?
  var gcTime: Double = 0
  var gcTimeout: TimerID?

  init(client: QueryClient, cache: MutationCache, mutationId: Int, options: MutationOptions, state: MutationState?) {
    self.engine = client.engine
    self.client = client
    self.cache = cache
    self.mutationId = mutationId
    self.optionsStorage = options
    self.stateStorage = state ?? MutationState()
    setOptions(options)
    scheduleGc()
  }

  /// The current state.
  public var state: MutationState { engine.lock.sync { stateStorage } }
  /// The (defaulted) options.
  public var options: MutationOptions { engine.lock.sync { optionsStorage } }
  /// The mutation's `meta`.
  public var meta: JSONValue? { options.meta }
  /// How many observers watch the mutation.
  public var observerCount: Int { engine.lock.sync { observersStorage.count } }

  func setOptions(_ options: MutationOptions) {
    optionsStorage = options
    updateGcTime(options.gcTime)
  }

  func addObserver(_ observer: MutationObserver) {
    if !observersStorage.contains(where: { $0 === observer }) {
      observersStorage.append(observer)
      clearGcTimeout()
      cache.notify(.observerAdded(self, observer))
    }
  }

  func removeObserver(_ observer: MutationObserver) {
    observersStorage.removeAll { $0 === observer }
    scheduleGc()
    cache.notify(.observerRemoved(self, observer))
  }

  // MARK: Garbage collection (TanStack's `Removable`)

  func updateGcTime(_ newGcTime: Double?) {
    gcTime = max(gcTime, newGcTime ?? (engine.isServer ? .infinity : 5 * 60 * 1000))
  }

  func scheduleGc() {
    clearGcTimeout()
    if isValidTimeout(gcTime) {
      gcTimeout = engine.scheduler.setTimeout(gcTime) { [weak self] in
        guard let self else { return }
        self.engine.lock.sync { self.optionalRemove() }
      }
    }
  }

  func clearGcTimeout() {
    if let id = gcTimeout {
      engine.scheduler.clearTimeout(id)
      gcTimeout = nil
    }
  }

  func optionalRemove() {
    guard observersStorage.isEmpty else { return }
    if stateStorage.status == .pending {
      scheduleGc()
    } else {
      cache.remove(self)
    }
  }

  // MARK: Dispatch

  func dispatch(_ action: MutationAction) {
    stateStorage = action.reduce(stateStorage, now: engine.now)
    for observer in observersStorage { observer.onMutationUpdate(action) }
    cache.notify(.updated(self, action))
  }
}
