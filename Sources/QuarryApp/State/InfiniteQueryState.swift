/// The pages of an infinite query read as Swift types (SwiftQuery's `InfiniteQueryData`).
public struct InfiniteQueryData<Value, PageParam: Hashable> {
  /// The pages, first to last.
  public let pages: [Value]
  /// Each page's parameter, in step with `pages`.
  public let pageParams: [PageParam]

  /// Creates the data.
  public init(pages: [Value], pageParams: [PageParam]) {
    self.pages = pages
    self.pageParams = pageParams
  }
}

extension InfiniteQueryData: Sendable where Value: Sendable, PageParam: Sendable {}
extension InfiniteQueryData: Equatable where Value: Equatable {}

/// What a view shows for an infinite query (SwiftQuery's `InfiniteQueryState`).
///
/// ```swift
/// let state: InfiniteQueryState<[Todo], Int> = .fetchingNextPage(InfiniteQueryData(pages: [[]], pageParams: [1]))
/// if case .fetchingNextPage(let data) = state { print(data.pages.count) }  // 1
/// ```
public enum InfiniteQueryState<Value, PageParam: Hashable> {
  /// Never fetched, and not fetching.
  case stale
  /// Loading the first page.
  case fetching
  /// Pages are there and the next one is loading: keep showing `data`.
  case fetchingNextPage(InfiniteQueryData<Value, PageParam>)
  /// The last fetch failed and there are no pages.
  case error(any Error)
  /// The pages loaded so far.
  case success(InfiniteQueryData<Value, PageParam>)
}

extension InfiniteQueryState: Sendable where Value: Sendable, PageParam: Sendable {}
