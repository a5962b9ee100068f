/// A page-parameter function: `(page, allPages, pageParam, allPageParams) -> param`. Returning
/// `nil` or `.null` means there is no such page (TanStack's `getNextPageParam`).
public typealias PageParamFunction = FunctionBox<@Sendable (_ page: any Sendable, _ allPages: [any Sendable], _ pageParam: JSONValue?, _ allPageParams: [JSONValue?]) -> JSONValue?>

/// The options only infinite queries read, stored in ``QueryOptions``; every member is optional
/// and merges member by member, like the rest of the options.
struct InfiniteOptionsStorage: Sendable {
  @DeepReleased var initialPageParam: JSONValue? = nil
  var getNextPageParam: PageParamFunction?
  var getPreviousPageParam: PageParamFunction?
  var maxPages: Int?
  var pages: Int?
  /// TanStack's `_type: 'infinite'`: makes the query infinite (sticky).
  var isInfinite = false

  func merged(over base: InfiniteOptionsStorage) -> InfiniteOptionsStorage {
    InfiniteOptionsStorage(
      initialPageParam: initialPageParam ?? base.initialPageParam,
      getNextPageParam: getNextPageParam ?? base.getNextPageParam,
      getPreviousPageParam: getPreviousPageParam ?? base.getPreviousPageParam,
      maxPages: maxPages ?? base.maxPages,
      pages: pages ?? base.pages,
      isInfinite: isInfinite || base.isInfinite)
  }

  /// `shallowEqualObjects`: primitives by value, containers never, functions by identity.
  func isShallowEqual(to o: InfiniteOptionsStorage) -> Bool {
    identityEqual(initialPageParam, o.initialPageParam) && getNextPageParam === o.getNextPageParam
      && getPreviousPageParam === o.getPreviousPageParam && maxPages == o.maxPages && pages == o.pages
      && isInfinite == o.isInfinite
  }
}

extension Optional where Wrapped == PageParamFunction {
  static func === (a: PageParamFunction?, b: PageParamFunction?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case (let x?, let y?): return x === y
    default: return false
    }
  }
}

extension QueryOptions {
  /// The page parameter of the first page (TanStack's `initialPageParam`).
  public var initialPageParam: JSONValue? {
    get { infinite.initialPageParam }
    set { infinite.initialPageParam = newValue }
  }
  /// Computes the parameter of the page after the last one; `nil` or `.null`: no next page.
  public var getNextPageParam: PageParamFunction? {
    get { infinite.getNextPageParam }
    set { infinite.getNextPageParam = newValue }
  }
  /// Computes the parameter of the page before the first one; `nil` or `.null`: none.
  public var getPreviousPageParam: PageParamFunction? {
    get { infinite.getPreviousPageParam }
    set { infinite.getPreviousPageParam = newValue }
  }
  /// The most pages kept; fetching past it drops a page from the other end (0 or unset: no limit).
  public var maxPages: Int? {
    get { infinite.maxPages }
    set { infinite.maxPages = newValue }
  }
  /// How many pages `fetchInfiniteQuery` fetches (TanStack's `pages`); unset: as many as cached.
  public var pages: Int? {
    get { infinite.pages }
    set { infinite.pages = newValue }
  }
  /// Whether these options make their query infinite (TanStack's `_type: 'infinite'`).
  var isInfinite: Bool {
    get { infinite.isInfinite }
    set { infinite.isInfinite = newValue }
  }

  /// Typed options for an infinite query whose pages are `Page` (TanStack's
  /// `infiniteQueryOptions`): the page function and the page-parameter functions see `Page`.
  ///
  /// ```swift
  /// let options = QueryOptions.infinite(
  ///   queryKey: ["feed"], as: [Int].self, initialPageParam: 0,
  ///   getNextPageParam: { lastPage, _, lastParam, _ in
  ///     lastPage.isEmpty ? nil : .number((lastParam?.numberValue ?? 0) + 1)
  ///   },
  ///   queryFn: { context in try await api.feed(page: Int(context.pageParam?.numberValue ?? 0)) })
  /// ```
  public static func infinite<Page: Sendable>(
    queryKey: QueryKey, as type: Page.Type, initialPageParam: JSONValue?,
    getNextPageParam: @escaping @Sendable (Page, [Page], JSONValue?, [JSONValue?]) -> JSONValue?,
    getPreviousPageParam: (@Sendable (Page, [Page], JSONValue?, [JSONValue?]) -> JSONValue?)? = nil,
    maxPages: Int? = nil,
    queryFn: @escaping @Sendable (QueryFunctionContext) async throws -> Page
  ) -> QueryOptions {
    var options = QueryOptions(queryKey: queryKey)
    options.queryFn = .fn { try await queryFn($0) }
    options.initialPageParam = initialPageParam
    options.getNextPageParam = typedPageParamFunction(getNextPageParam)
    options.getPreviousPageParam = getPreviousPageParam.map(typedPageParamFunction)
    options.maxPages = maxPages
    options.isInfinite = true
    return options
  }
}

/// Wraps a typed page-parameter function; pages of another type mean "no page".
private func typedPageParamFunction<Page>(
  _ body: @escaping @Sendable (Page, [Page], JSONValue?, [JSONValue?]) -> JSONValue?
) -> PageParamFunction {
  PageParamFunction { page, pages, param, params in
    guard let typed = page as? Page else { return nil }
    return body(typed, pages.compactMap { $0 as? Page }, param, params)
  }
}
