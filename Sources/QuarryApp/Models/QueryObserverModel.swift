import Observation

/// An observable query for a view or a view model, with observer options: the app-level face of
/// a ``QueryObserver`` (TanStack's `useQuery` with `enabled`, `select`, `placeholderData`, …).
/// ``QueryModel`` is this model without `select`.
///
/// Set the variables (or call ``fetch(_:)``) and the model watches that query: it fetches when
/// TanStack would (mount, stale data, focus, reconnect, invalidation, interval; never while
/// `enabled` is `false`) and its properties change exactly when TanStack's observer notifies.
/// Changes are applied on the main actor; engine work never waits for it. Given a
/// ``RestoreGate`` that is restoring, the model shows the result mounting would give, idle, and
/// subscribes only once the gate opens (TanStack's `isRestoring`).
///
/// ```swift
/// struct FetchTodos: QueryFunc {
///   func run(_ variables: QueryVoid) async throws -> [Todo] { try await api.todos() }
/// }
/// let count = QueryObserverModel(FetchTodos(), client: client,
///   options: QueryObserverOptions(select: { $0.count }, placeholderData: .value([])))
/// count.setVariables(.value)
/// print(count.value ?? 0, count.isPlaceholderData)   // 0 true, until the todos arrive
/// ```
@MainActor @Observable
public final class QueryObserverModel<F: QueryFunc, Selected: Sendable> {
  /// What to show.
  public private(set) var state: QueryViewState<Selected> = .stale
  /// The latest value, kept while refetching and after a failed refetch (stale-while-revalidate).
  public private(set) var value: Selected?
  /// The last error, if the query is in error.
  public private(set) var error: (any Error)?
  /// Whether a fetch is running.
  public private(set) var isFetching = false
  /// Whether a fetch waits for connectivity.
  public private(set) var isPaused = false
  /// Whether ``value`` is placeholder data.
  public private(set) var isPlaceholderData = false
  /// Whether the value is stale.
  public private(set) var isStale = true
  /// Whether the model waits for its ``RestoreGate`` before subscribing.
  public private(set) var isRestoring = false
  /// The engine's full result, for anything the properties above hide.
  public private(set) var result: QueryObserverResult?
  /// The variables being watched.
  public private(set) var variables: F.Variables?
  /// The observer options in use.
  public private(set) var options: QueryObserverOptions<F.Value, Selected>

  @ObservationIgnored private let queryFunc: F
  @ObservationIgnored private let client: QueryClient
  @ObservationIgnored private let restoreGate: RestoreGate?
  @ObservationIgnored private var observer: QueryObserver?
  @ObservationIgnored private let subscription = Subscription()
  @ObservationIgnored private let waiters = SettledWaiters()

  /// A model for `queryFunc` on `client` with `options`; it does nothing until variables are
  /// set. With `restoreGate`, it subscribes only once the gate has finished restoring.
  public init(
    _ queryFunc: F, client: QueryClient, options: QueryObserverOptions<F.Value, Selected>,
    restoreGate: RestoreGate? = nil
  ) {
    self.queryFunc = queryFunc
    self.client = client
    self.options = options
    self.restoreGate = restoreGate
  }

  /// Watches `variables`' query: the first call subscribes (mounting the observer), later
  /// calls switch keys as TanStack's `setOptions` does.
  public func setVariables(_ variables: F.Variables) {
    self.variables = variables
    var engineOptions = client.queryOptions(queryFunc, variables)
    options.apply(to: &engineOptions)
    if let observer {
      observer.setOptions(engineOptions)
      if isRestoring { apply(observer.getOptimisticResult(observer.options, optimistic: true, isRestoring: true)) }
      return
    }
    let observer = QueryObserver(client: client, options: engineOptions)
    self.observer = observer
    watch(
      observer, after: restoreGate, into: subscription, isCurrent: { [weak self] in self?.observer === $0 },
      restoring: { [weak self] in self?.isRestoring = $0 }, apply: { [weak self] result in self?.apply(result) })
  }

  /// Replaces the observer options (TanStack's re-render with new options): enabling a query
  /// fetches it if needed, and a new `select` maps the current data again.
  public func setOptions(_ options: QueryObserverOptions<F.Value, Selected>) {
    self.options = options
    if let variables { setVariables(variables) }
  }

  /// Takes `options`' values (`enabled`, `staleTime`, `refetchInterval`,
  /// `refetchIntervalInBackground`, `refetchOnMount`) and keeps this model's `select` and
  /// `placeholderData`; does nothing when the values are the ones in use. A view wrapper calls
  /// it on every update with the options its view was made with: values follow the view (as
  /// TanStack's options follow each render), functions stay the first ones (as stable function
  /// references do), so a re-render never re-runs `select` nor loops.
  public func setOptionValues(from options: QueryObserverOptions<F.Value, Selected>) {
    var next = self.options
    next.enabled = options.enabled
    next.staleTime = options.staleTime
    next.refetchInterval = options.refetchInterval
    next.refetchIntervalInBackground = options.refetchIntervalInBackground
    next.refetchOnMount = options.refetchOnMount
    let current = self.options
    guard next.enabled != current.enabled || next.staleTime != current.staleTime
      || next.refetchInterval != current.refetchInterval
      || next.refetchIntervalInBackground != current.refetchIntervalInBackground
      || next.refetchOnMount != current.refetchOnMount
    else { return }
    setOptions(next)
  }

  /// Watches `variables` and waits until the query is not fetching (SwiftQuery's `fetch`);
  /// while the restore gate is restoring, waits for it first.
  public func fetch(_ variables: F.Variables) async {
    setVariables(variables)
    if let restoreGate { await restoreGate.restored() }
    await waiters.wait(isFetching: isFetching)
  }

  /// Refetches and waits for the outcome, even when disabled; errors end up in ``state``.
  public func refetch() async {
    guard let observer else { return }
    _ = try? await observer.refetchPromise().value
  }

  /// Stops watching: unsubscribes the observer (a running fetch goes on unless cancelled).
  public func stop() {
    subscription.replace(with: nil)
    observer = nil
    isRestoring = false
    waiters.resumeAll()
  }

  private func apply(_ result: QueryObserverResult) {
    let value = result.data as? Selected
    // Data of another type under this key is reported, never cast by force.
    let mismatch: (any Error)? = result.data.flatMap { data in
      value == nil
        ? QuarryError.typeMismatch(key: observer?.options.queryHash ?? "", expected: String(describing: Selected.self), actual: String(describing: type(of: data)))
        : nil
    }
    self.result = result
    self.value = value
    error = mismatch ?? result.error
    isFetching = result.isFetching
    isPaused = result.isPaused
    isPlaceholderData = result.isPlaceholderData
    isStale = result.isStale
    state = mismatch.map { .error($0) }
      ?? QueryViewState(status: result.status, fetchStatus: result.fetchStatus, value: value, error: result.error)
    if !result.isFetching { waiters.resumeAll() }
  }
}

extension QueryObserverModel where Selected == F.Value {
  /// A model showing `queryFunc`'s value as it is (``QueryModel``).
  public convenience init(_ queryFunc: F, client: QueryClient, restoreGate: RestoreGate? = nil) {
    self.init(queryFunc, client: client, options: QueryObserverOptions(), restoreGate: restoreGate)
  }
}

extension QueryObserverModel where F.Variables == QueryVoid {
  /// Watches the query of a function that takes no variables and waits for it to settle.
  public func fetch() async { await fetch(.value) }
}
