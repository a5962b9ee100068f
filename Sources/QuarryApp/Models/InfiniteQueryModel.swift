import Observation

/// An observable paged list: the app-level face of an ``InfiniteQueryObserver`` (SwiftQuery's
/// `@InfiniteQuery`).
///
/// ```swift
/// struct FetchFeed: InfiniteQueryFunc {
///   let initialPageParam = 0
///   func run(variables: QueryVoid, pageParam: Int) async throws -> [Int] { try await api.feed(page: pageParam) }
///   func nextPageParam(lastPage: [Int], allPages: [[Int]], lastPageParam: Int, allPageParams: [Int]) -> Int? {
///     lastPage.isEmpty ? nil : lastPageParam + 1
///   }
/// }
/// let feed = InfiniteQueryModel(FetchFeed(), client: client)
/// await feed.fetch()
/// while feed.hasNextPage { await feed.fetchNextPage() }
/// if case .success(let data) = feed.state { print(data.pages.flatMap { $0 }) }
/// ```
@MainActor @Observable
public final class InfiniteQueryModel<F: InfiniteQueryFunc> {
  /// What to show; `.fetchingNextPage(data)` keeps the pages while the next one loads.
  public private(set) var state: InfiniteQueryState<F.Value, F.PageParam> = .stale
  /// The pages loaded so far, kept through refetches and errors.
  public private(set) var data: InfiniteQueryData<F.Value, F.PageParam>?
  /// Whether there is a page after the last one.
  public private(set) var hasNextPage = false
  /// Whether there is a page before the first one.
  public private(set) var hasPreviousPage = false
  /// Whether any fetch runs (first load, refetch of all pages, or a page).
  public private(set) var isFetching = false
  /// Whether the next page is loading.
  public private(set) var isFetchingNextPage = false
  /// Whether the previous page is loading.
  public private(set) var isFetchingPreviousPage = false
  /// Whether the model waits for its ``RestoreGate`` before subscribing.
  public private(set) var isRestoring = false
  /// The engine's full result.
  public private(set) var result: QueryObserverResult?

  @ObservationIgnored private let queryFunc: F
  @ObservationIgnored private let client: QueryClient
  @ObservationIgnored private var observer: InfiniteQueryObserver?
  @ObservationIgnored private let subscription = Subscription()
  @ObservationIgnored private let waiters = SettledWaiters()
  @ObservationIgnored private let restoreGate: RestoreGate?

  /// A model for `queryFunc` on `client`; it does nothing until variables are set. With
  /// `restoreGate`, it subscribes only once the gate has finished restoring.
  public init(_ queryFunc: F, client: QueryClient, restoreGate: RestoreGate? = nil) {
    self.queryFunc = queryFunc
    self.client = client
    self.restoreGate = restoreGate
  }

  /// Engine options for these variables.
  private func options(_ variables: F.Variables) -> QueryOptions {
    let queryFunc = self.queryFunc
    var options = QueryOptions(queryKey: InfiniteQueryCacheKey<F>(variables: variables).queryKey)
    options.queryFn = .fn { context in
      let param = JSONValueDecoding.decode(context.pageParam, as: F.PageParam.self) ?? queryFunc.initialPageParam
      return try await queryFunc.run(variables: variables, pageParam: param)
    }
    options.initialPageParam = try? JSONValueEncoder.encode(queryFunc.initialPageParam)
    options.getNextPageParam = PageParamFunction { page, pages, param, params in
      guard let page = page as? F.Value,
        let param = JSONValueDecoding.decode(param, as: F.PageParam.self)
      else { return nil }
      let next = queryFunc.nextPageParam(
        lastPage: page, allPages: pages.compactMap { $0 as? F.Value }, lastPageParam: param,
        allPageParams: params.compactMap { JSONValueDecoding.decode($0, as: F.PageParam.self) })
      return next.flatMap { try? JSONValueEncoder.encode($0) }
    }
    options.getPreviousPageParam = PageParamFunction { page, pages, param, params in
      guard let page = page as? F.Value,
        let param = JSONValueDecoding.decode(param, as: F.PageParam.self)
      else { return nil }
      let previous = queryFunc.previousPageParam(
        firstPage: page, allPages: pages.compactMap { $0 as? F.Value }, firstPageParam: param,
        allPageParams: params.compactMap { JSONValueDecoding.decode($0, as: F.PageParam.self) })
      return previous.flatMap { try? JSONValueEncoder.encode($0) }
    }
    queryFunc.options.apply(to: &options)
    return options
  }

  /// Watches `variables`' pages, fetching the first page if needed.
  public func setVariables(_ variables: F.Variables) {
    let options = options(variables)
    if let observer {
      observer.setOptions(options)
      if isRestoring { apply(observer.getOptimisticResult(observer.options, optimistic: true, isRestoring: true)) }
      return
    }
    let observer = InfiniteQueryObserver(client: client, options: options)
    self.observer = observer
    watch(
      observer, after: restoreGate, into: subscription, isCurrent: { [weak self] in self?.observer === $0 },
      restoring: { [weak self] in self?.isRestoring = $0 }, apply: { [weak self] result in self?.apply(result) })
  }

  /// Watches `variables` and waits until the first load (or refetch) settles; while the
  /// restore gate is restoring, waits for it first.
  public func fetch(_ variables: F.Variables) async {
    setVariables(variables)
    if let restoreGate { await restoreGate.restored() }
    await waiters.wait(isFetching: isFetching)
  }

  /// Loads the page after the last one; errors end up in ``state``.
  public func fetchNextPage() async {
    guard let observer else { return }
    _ = try? await observer.fetchNextPagePromise().value
  }

  /// Loads the page before the first one.
  public func fetchPreviousPage() async {
    guard let observer else { return }
    _ = try? await observer.fetchPreviousPagePromise().value
  }

  /// Refetches every page.
  public func refetch() async {
    guard let observer else { return }
    _ = try? await observer.refetchPromise().value
  }

  private func apply(_ result: QueryObserverResult) {
    self.result = result
    let infinite = result.infiniteData
    let typed = infinite.flatMap { data -> InfiniteQueryData<F.Value, F.PageParam>? in
      guard let pages = try? data.pages(as: F.Value.self) else { return nil }
      let params = data.pageParams.compactMap { JSONValueDecoding.decode($0, as: F.PageParam.self) }
      return InfiniteQueryData(pages: pages, pageParams: params)
    }
    data = typed
    hasNextPage = result.hasNextPage
    hasPreviousPage = result.hasPreviousPage
    isFetching = result.isFetching
    isFetchingNextPage = result.isFetchingNextPage
    isFetchingPreviousPage = result.isFetchingPreviousPage
    if let typed, result.isFetchingNextPage || result.isFetchingPreviousPage {
      state = .fetchingNextPage(typed)
    } else {
      switch result.status {
      case .success:
        state = typed.map { .success($0) }
          ?? .error(QuarryError.typeMismatch(
            key: observer?.options.queryHash ?? "", expected: "pages of \(F.Value.self)",
            actual: String(describing: result.data.map { type(of: $0) })))
      case .error: state = .error(result.error ?? QueryFailure())
      case .pending: state = result.fetchStatus == .idle ? .stale : .fetching
      }
    }
    if !result.isFetching { waiters.resumeAll() }
  }
}

extension InfiniteQueryModel where F.Variables == QueryVoid {
  /// Watches the pages of a function that takes no variables and waits for the first load.
  public func fetch() async { await fetch(.value) }
}
