/// The options of a mutation and its observers (TanStack's `MutationOptions`).
///
/// Every member is optional: options merge like TanStack's object spread (client defaults, then
/// `setMutationDefaults` for the key, then these).
///
/// ```swift
/// var options = MutationOptions(mutationKey: ["addTodo"])
/// options.mutationFn = .typed { (title: String, _) in try await api.addTodo(title) }
/// options.onSettled = .async { _ in  // awaited: the mutation settles after the refetch
///   try await client.invalidateQueries(InvalidateQueryFilters(QueryFilters(queryKey: ["todos"])))
///   return nil
/// }
/// ```
public struct MutationOptions: Sendable {
  /// The key (for defaults, filters and `isMutating`).
  public var mutationKey: QueryKey?
  /// The mutation function.
  public var mutationFn: MutationFunction?
  /// Runs before the mutation function; what it returns is the `context` of the later callbacks.
  public var onMutate: MutationCallback?
  /// Runs after success.
  public var onSuccess: MutationCallback?
  /// Runs after failure.
  public var onError: MutationCallback?
  /// Runs after either.
  public var onSettled: MutationCallback?
  /// How many times to retry (default 0: mutations do not retry).
  public var retry: RetryOption?
  /// The delay before a retry (default exponential backoff capped at 30 s).
  public var retryDelay: RetryDelayOption?
  /// Connectivity rule (default `.online`).
  public var networkMode: NetworkMode?
  /// How long a finished, unobserved mutation stays cached, in ms (default 5 minutes).
  public var gcTime: Double?
  /// Mutations of one scope run one at a time.
  public var scope: MutationScope?
  /// Application metadata.
  @DeepReleased public var meta: JSONValue? = nil

  var defaulted = false

  /// Creates options, all unset but the key.
  public init(mutationKey: QueryKey? = nil) { self.mutationKey = mutationKey }

  /// These options over `base`: a member set here wins (TanStack's `{...base, ...self}`).
  public func merged(over base: MutationOptions) -> MutationOptions {
    var r = self
    r.mutationKey = mutationKey ?? base.mutationKey
    r.mutationFn = mutationFn ?? base.mutationFn
    r.onMutate = onMutate ?? base.onMutate
    r.onSuccess = onSuccess ?? base.onSuccess
    r.onError = onError ?? base.onError
    r.onSettled = onSettled ?? base.onSettled
    r.retry = retry ?? base.retry
    r.retryDelay = retryDelay ?? base.retryDelay
    r.networkMode = networkMode ?? base.networkMode
    r.gcTime = gcTime ?? base.gcTime
    r.scope = scope ?? base.scope
    r.meta = meta ?? base.meta
    r.defaulted = defaulted || base.defaulted
    return r
  }

  /// TanStack's `shallowEqualObjects` over options: primitives by value, functions by identity,
  /// and objects (the key, scope, `meta`) never equal, as a caller passes fresh ones in JavaScript.
  func isShallowEqual(to o: MutationOptions) -> Bool {
    mutationKey == nil && o.mutationKey == nil && scope == nil && o.scope == nil
      && mutationFn === o.mutationFn && onMutate === o.onMutate && onSuccess === o.onSuccess
      && onError === o.onError && onSettled === o.onSettled && retry == o.retry
      && retryDelay == o.retryDelay && networkMode == o.networkMode && gcTime == o.gcTime
      && identityEqual(meta, o.meta) && defaulted == o.defaulted
  }
}

/// Per-call callbacks of `MutationObserver.mutate` (TanStack's `MutateOptions`): only the latest
/// `mutate` call of an observer gets them, and only while the observer has listeners.
public struct MutateOptions: Sendable {
  /// Called after success.
  public var onSuccess: MutationCallback?
  /// Called after failure.
  public var onError: MutationCallback?
  /// Called after either.
  public var onSettled: MutationCallback?
  /// Creates per-call callbacks.
  public init(onSuccess: MutationCallback? = nil, onError: MutationCallback? = nil, onSettled: MutationCallback? = nil) {
    self.onSuccess = onSuccess
    self.onError = onError
    self.onSettled = onSettled
  }
}

/// Which mutations an operation applies to (TanStack's `MutationFilters`).
public struct MutationFilters: Sendable {
  /// Match keys that start with this key (or equal it, with `exact`).
  public var mutationKey: QueryKey?
  /// Match the key exactly.
  public var exact: Bool?
  /// Match by status.
  public var status: MutationStatus?
  /// Match by a custom test.
  public var predicate: (@Sendable (Mutation) -> Bool)?

  /// Creates filters.
  public init(mutationKey: QueryKey? = nil, exact: Bool? = nil, status: MutationStatus? = nil, predicate: (@Sendable (Mutation) -> Bool)? = nil) {
    self.mutationKey = mutationKey
    self.exact = exact
    self.status = status
    self.predicate = predicate
  }

  /// TanStack's `matchMutation`.
  public func matches(_ mutation: Mutation) -> Bool {
    let options = mutation.options
    if let mutationKey {
      guard let key = options.mutationKey else { return false }
      if exact == true {
        if key.queryHash != mutationKey.queryHash { return false }
      } else if !partialMatchKey(key, mutationKey) {
        return false
      }
    }
    if let status, mutation.state.status != status { return false }
    if let predicate, !predicate(mutation) { return false }
    return true
  }
}
