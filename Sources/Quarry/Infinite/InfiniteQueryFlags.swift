/// What an ``InfiniteQueryObserver``'s result adds to a query result (TanStack's
/// `InfiniteQueryObserverBaseResult` fields).
public struct InfiniteQueryFlags: Sendable, Equatable {
  /// The data has a next page: `getNextPageParam` gives neither `nil` nor `.null`.
  public var hasNextPage: Bool
  /// The data has a previous page (false without `getPreviousPageParam`).
  public var hasPreviousPage: Bool
  /// Fetching, started by `fetchNextPage`.
  public var isFetchingNextPage: Bool
  /// Fetching, started by `fetchPreviousPage`.
  public var isFetchingPreviousPage: Bool
  /// Failed, after a fetch started by `fetchNextPage`.
  public var isFetchNextPageError: Bool
  /// Failed, after a fetch started by `fetchPreviousPage`.
  public var isFetchPreviousPageError: Bool

  var isFetchingMore: Bool { isFetchingNextPage || isFetchingPreviousPage }
  var isFetchMoreError: Bool { isFetchNextPageError || isFetchPreviousPageError }

  /// The names of the flags that differ.
  static func changedProperties(_ a: InfiniteQueryFlags?, _ b: InfiniteQueryFlags?) -> Set<String> {
    guard let a, let b else { return Set(allNames) }
    var changed = Set<String>()
    if a.hasNextPage != b.hasNextPage { changed.insert("hasNextPage") }
    if a.hasPreviousPage != b.hasPreviousPage { changed.insert("hasPreviousPage") }
    if a.isFetchingNextPage != b.isFetchingNextPage { changed.insert("isFetchingNextPage") }
    if a.isFetchingPreviousPage != b.isFetchingPreviousPage { changed.insert("isFetchingPreviousPage") }
    if a.isFetchNextPageError != b.isFetchNextPageError { changed.insert("isFetchNextPageError") }
    if a.isFetchPreviousPageError != b.isFetchPreviousPageError { changed.insert("isFetchPreviousPageError") }
    return changed
  }

  static let allNames = [
    "hasNextPage", "hasPreviousPage", "isFetchingNextPage", "isFetchingPreviousPage",
    "isFetchNextPageError", "isFetchPreviousPageError",
  ]
}

extension QueryObserverResult {
  /// Whether there is a next page (``InfiniteQueryObserver`` results only).
  public var hasNextPage: Bool { infinite?.hasNextPage ?? false }
  /// Whether there is a previous page (``InfiniteQueryObserver`` results only).
  public var hasPreviousPage: Bool { infinite?.hasPreviousPage ?? false }
  /// Whether `fetchNextPage` is running.
  public var isFetchingNextPage: Bool { infinite?.isFetchingNextPage ?? false }
  /// Whether `fetchPreviousPage` is running.
  public var isFetchingPreviousPage: Bool { infinite?.isFetchingPreviousPage ?? false }
  /// Whether the last `fetchNextPage` failed.
  public var isFetchNextPageError: Bool { infinite?.isFetchNextPageError ?? false }
  /// Whether the last `fetchPreviousPage` failed.
  public var isFetchPreviousPageError: Bool { infinite?.isFetchPreviousPageError ?? false }
  /// The data as ``InfiniteData`` (`nil` when there is none or `select` changed its shape).
  public var infiniteData: InfiniteData? { InfiniteData(data) }
}
