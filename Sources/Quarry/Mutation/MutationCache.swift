/// Holds a client's mutations, runs scoped ones one at a time, and tells listeners what happens
/// to them (TanStack's `MutationCache`).
///
/// ```swift
/// let unsubscribe = client.mutationCache.subscribe { event in print(event.type) }
/// ```
public final class MutationCache: @unchecked Sendable {
  // Safe: every mutable member is guarded by the engine lock.
  /// Callbacks for every mutation (TanStack's `MutationCacheConfig`), called before the
  /// mutation's own callbacks of the same name, with ``MutationCallbackInput/mutation`` set.
  public struct Config: Sendable {
    /// Before the options' `onMutate`; its result is awaited and dropped.
    public var onMutate: MutationCallback?
    /// After success.
    public var onSuccess: MutationCallback?
    /// After failure.
    public var onError: MutationCallback?
    /// After either.
    public var onSettled: MutationCallback?
    /// Creates a configuration.
    public init(onMutate: MutationCallback? = nil, onSuccess: MutationCallback? = nil, onError: MutationCallback? = nil, onSettled: MutationCallback? = nil) {
      self.onMutate = onMutate
      self.onSuccess = onSuccess
      self.onError = onError
      self.onSettled = onSettled
    }
  }

  let engine: Engine
  let config: Config
  private var mutations: [Mutation] = []
  private var scopes: [String: [Mutation]] = [:]
  private var lastMutationId = 0
  private var listeners = ListenerRegistry<MutationCacheEvent>()

  init(engine: Engine, config: Config) {
    self.engine = engine
    self.config = config
  }

  /// Creates a mutation with the client's defaults applied and adds it (TanStack's `build`).
  func build(_ client: QueryClient, _ options: MutationOptions, state: MutationState? = nil) -> Mutation {
    lastMutationId += 1
    let mutation = Mutation(client: client, cache: self, mutationId: lastMutationId, options: client.defaultMutationOptions(options), state: state)
    add(mutation)
    return mutation
  }

  func add(_ mutation: Mutation) {
    mutations.append(mutation)
    if let scope = mutation.optionsStorage.scope?.id { scopes[scope, default: []].append(mutation) }
    notify(.added(mutation))
  }

  /// Removes `mutation`; listeners hear of it even if it was already gone (as in TanStack).
  public func remove(_ mutation: Mutation) {
    engine.lock.sync {
      if let i = mutations.firstIndex(where: { $0 === mutation }) {
        mutations.remove(at: i)
        if let scope = mutation.optionsStorage.scope?.id, var scoped = scopes[scope] {
          if scoped.count > 1 {
            scoped.removeAll { $0 === mutation }
            scopes[scope] = scoped
          } else if scoped.first === mutation {
            scopes[scope] = nil
          }
        }
      }
      notify(.removed(mutation))
    }
  }

  /// Whether `mutation` may run now: unscoped ones always; scoped ones when no other mutation of
  /// the scope is pending before it.
  func canRun(_ mutation: Mutation) -> Bool {
    guard let scope = mutation.optionsStorage.scope?.id else { return true }
    guard let first = scopes[scope]?.first(where: { $0.stateStorage.status == .pending }) else { return true }
    return first === mutation
  }

  /// Continues the next paused mutation of `mutation`'s scope.
  func runNext(_ mutation: Mutation) -> Promise<any Sendable> {
    if let scope = mutation.optionsStorage.scope?.id,
      let next = scopes[scope]?.first(where: { $0 !== mutation && $0.stateStorage.isPaused })
    {
      return next.continueMutation()
    }
    return Promise.resolved(Optional<JSONValue>.none, scheduler: engine.scheduler)
  }

  /// Removes every mutation.
  public func clear() {
    engine.lock.sync {
      for mutation in mutations { notify(.removed(mutation)) }
      mutations.removeAll()
      scopes.removeAll()
    }
  }

  /// Every mutation, in creation order.
  public func getAll() -> [Mutation] { engine.lock.sync { mutations } }

  /// The first mutation matching `filters`, matching keys exactly unless `exact` is `false`.
  public func find(_ filters: MutationFilters) -> Mutation? {
    var defaulted = filters
    if defaulted.exact == nil { defaulted.exact = true }
    return engine.lock.sync { getAll().first { defaulted.matches($0) } }
  }

  /// Every mutation matching `filters`.
  public func findAll(_ filters: MutationFilters = MutationFilters()) -> [Mutation] {
    engine.lock.sync { getAll().filter { filters.matches($0) } }
  }

  /// Calls `listener` for every event until the returned function is called.
  public func subscribe(_ listener: @escaping @Sendable (MutationCacheEvent) -> Void) -> @Sendable () -> Void {
    engine.lock.sync {
      let id = listeners.add(listener)
      return { [weak self] in
        guard let self else { return }
        // Freed after unlocking (the listener's captures may run user code in `deinit`).
        self.engine.lock.syncReleasing { self.listeners.take(id) }
      }
    }
  }

  /// Sends `event` to every listener, synchronously.
  func notify(_ event: MutationCacheEvent) {
    engine.lock.sync { listeners.notify(event, via: engine.lock) }
  }

  /// Continues every paused mutation; settles when they all have (TanStack's
  /// `resumePausedMutations`).
  func resumePausedMutations() -> Promise<[Void]> {
    engine.lock.sync {
      let paused = getAll().filter { $0.stateStorage.isPaused }
      return promiseAll(paused.map { $0.continueMutation().ignoringResult() }, scheduler: engine.scheduler)
    }
  }
}

/// Something that happened in a ``MutationCache`` (TanStack's `MutationCacheNotifyEvent`).
public enum MutationCacheEvent: Sendable {
  /// A mutation was added.
  case added(Mutation)
  /// A mutation was removed.
  case removed(Mutation)
  /// A mutation's state changed by `action`.
  case updated(Mutation, MutationAction)
  /// An observer started watching a mutation.
  case observerAdded(Mutation, MutationObserver)
  /// An observer stopped watching a mutation.
  case observerRemoved(Mutation, MutationObserver)
  /// An observer's options changed (with its current mutation, if any).
  case observerOptionsUpdated(Mutation?, MutationObserver)

  /// TanStack's event `type` string.
  public var type: String {
    switch self {
    case .added: return "added"
    case .removed: return "removed"
    case .updated: return "updated"
    case .observerAdded: return "observerAdded"
    case .observerRemoved: return "observerRemoved"
    case .observerOptionsUpdated: return "observerOptionsUpdated"
    }
  }

  /// The mutation the event is about, if any.
  public var mutation: Mutation? {
    switch self {
    case .added(let m), .removed(let m), .updated(let m, _), .observerAdded(let m, _), .observerRemoved(let m, _): return m
    case .observerOptionsUpdated(let m, _): return m
    }
  }

  /// The observer the event is about, if any.
  public var observer: MutationObserver? {
    switch self {
    case .observerAdded(_, let o), .observerRemoved(_, let o), .observerOptionsUpdated(_, let o): return o
    default: return nil
    }
  }

  /// The action, for `updated`.
  public var action: MutationAction? {
    if case .updated(_, let a) = self { return a } else { return nil }
  }
}
