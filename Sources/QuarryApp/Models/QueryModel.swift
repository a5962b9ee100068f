import Observation

/// An observable query for a view or a view model: the app-level face of a ``QueryObserver``.
///
/// Set the variables (or call ``fetch(_:)``) and the model watches that query: it fetches when
/// TanStack would (mount, stale data, focus, reconnect, invalidation) and its properties change
/// exactly when TanStack's observer notifies. Changes are applied on the main actor; engine work
/// never waits for it.
///
/// ```swift
/// struct FetchTodos: QueryFunc {
///   func run(_ variables: QueryVoid) async throws -> [Todo] { try await api.todos() }
/// }
/// let todos = QueryModel(FetchTodos(), client: client)
/// todos.setVariables(.value)            // starts watching, fetching if needed
/// if case .success(let items) = todos.state { print(items.count) }
/// await todos.fetch(.value)             // or: start and wait for the fetch to settle
/// ```
@MainActor @Observable
public final class QueryModel<F: QueryFunc> {
  /// What to show.
  public private(set) var state: QueryViewState<F.Value> = .stale
  /// The latest value, kept while refetching and after a failed refetch (stale-while-revalidate).
  public private(set) var value: F.Value?
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
  /// The engine's full result, for anything the properties above hide.
  public private(set) var result: QueryObserverResult?
  /// The variables being watched.
  public private(set) var variables: F.Variables?

  @ObservationIgnored private let queryFunc: F
  @ObservationIgnored private let client: QueryClient
  @ObservationIgnored private var observer: QueryObserver?
  @ObservationIgnored private let subscription = Subscription()
  @ObservationIgnored private let waiters = SettledWaiters()

  /// A model for `queryFunc` on `client`; it does nothing until variables are set.
  public init(_ queryFunc: F, client: QueryClient) {
    self.queryFunc = queryFunc
    self.client = client
  }

  /// Watches `variables`' query: the first call subscribes (mounting the observer), later
  /// calls switch keys as TanStack's `setOptions` does.
  public func setVariables(_ variables: F.Variables) {
    self.variables = variables
    let options = client.queryOptions(queryFunc, variables)
    if let observer {
      observer.setOptions(options)
      return
    }
    let observer = QueryObserver(client: client, options: options)
    self.observer = observer
    watch(observer, into: subscription) { [weak self] result in self?.apply(result) }
  }

  /// Watches `variables` and waits until the query is not fetching (SwiftQuery's `fetch`).
  public func fetch(_ variables: F.Variables) async {
    setVariables(variables)
    await waiters.wait(isFetching: isFetching)
  }

  /// Refetches and waits for the outcome; errors end up in ``state``.
  public func refetch() async {
    guard let observer else { return }
    _ = try? await observer.refetchPromise().value
  }

  /// Stops watching: unsubscribes the observer (a running fetch goes on unless cancelled).
  public func stop() {
    subscription.replace(with: nil)
    observer = nil
    waiters.resumeAll()
  }

  private func apply(_ result: QueryObserverResult) {
    let value = result.data as? F.Value
    // Data of another type under this key is reported, never cast by force.
    let mismatch: (any Error)? = result.data.flatMap { data in
      value == nil
        ? QuarryError.typeMismatch(key: observer?.options.queryHash ?? "", expected: String(describing: F.Value.self), actual: String(describing: type(of: data)))
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

extension QueryModel where F.Variables == QueryVoid {
  /// Watches the query of a function that takes no variables and waits for it to settle.
  public func fetch() async { await fetch(.value) }
}
