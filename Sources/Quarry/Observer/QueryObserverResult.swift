/// What an observer reports about its query (TanStack's `QueryObserverResult`).
public struct QueryObserverResult: Sendable {
  /// The data status.
  public var status: QueryStatus
  /// The fetch status.
  public var fetchStatus: FetchStatus
  package var dataBox: DataBox?
  /// The (selected or placeholder) data.
  public var data: (any Sendable)? { dataBox?.value }
  /// When the data was written, in ms.
  public var dataUpdatedAt: Double
  var errorBox: ErrorBox?
  /// The error, if the status is `.error`.
  public var error: (any Error)? { errorBox?.error }
  /// When the error happened, in ms.
  public var errorUpdatedAt: Double
  /// Failed attempts of the current fetch.
  public var failureCount: Int
  var failureReasonBox: ErrorBox?
  /// The last attempt's error.
  public var failureReason: (any Error)? { failureReasonBox?.error }
  /// How many fetches failed.
  public var errorUpdateCount: Int
  /// Whether the query has ever fetched.
  public var isFetched: Bool
  /// Whether it fetched since this observer's query was set.
  public var isFetchedAfterMount: Bool
  /// Whether `data` is placeholder data.
  public var isPlaceholderData: Bool
  /// Whether the data is stale for this observer.
  public var isStale: Bool
  /// Whether this observer is enabled.
  public var isEnabled: Bool
  /// The page flags of an ``InfiniteQueryObserver``'s result (`nil` for other observers).
  public var infinite: InfiniteQueryFlags?

  /// `status == .pending`.
  public var isPending: Bool { status == .pending }
  /// `status == .success`.
  public var isSuccess: Bool { status == .success }
  /// `status == .error`.
  public var isError: Bool { status == .error }
  /// Pending and fetching: the first load.
  public var isLoading: Bool { isPending && isFetching }
  /// `fetchStatus == .fetching`.
  public var isFetching: Bool { fetchStatus == .fetching }
  /// Fetching with data already there (for infinite queries: and not fetching one more page).
  public var isRefetching: Bool { isFetching && !isPending && infinite?.isFetchingMore != true }
  /// Failed without data.
  public var isLoadingError: Bool { isError && dataBox == nil }
  /// Failed with data (for infinite queries: and not while fetching one more page).
  public var isRefetchError: Bool { isError && dataBox != nil && infinite?.isFetchMoreError != true }
  /// `fetchStatus == .paused`.
  public var isPaused: Bool { fetchStatus == .paused }

  /// Reads the data as `T`; throws ``QuarryError/typeMismatch`` for another type. Restored or
  /// hydrated data is `JSONValue`: it is decoded into a `Decodable` `T`, as
  /// ``QueryState/data(as:key:)`` decodes it.
  public func data<T>(as type: T.Type) throws -> T? {
    try dataBox?.typedValue(as: T.self, key: "")
  }

  /// The names of the properties whose values differ from `other`'s (identity for data and errors).
  func changedProperties(from other: QueryObserverResult) -> Set<String> {
    var changed = Set<String>()
    if status != other.status { changed.formUnion(["status", "isPending", "isSuccess", "isError"]) }
    if fetchStatus != other.fetchStatus { changed.formUnion(["fetchStatus", "isFetching", "isPaused"]) }
    if !sameData(dataBox, other.dataBox) { changed.insert("data") }
    if dataUpdatedAt != other.dataUpdatedAt { changed.insert("dataUpdatedAt") }
    if !sameError(errorBox, other.errorBox) { changed.insert("error") }
    if errorUpdatedAt != other.errorUpdatedAt { changed.insert("errorUpdatedAt") }
    if failureCount != other.failureCount { changed.insert("failureCount") }
    if !sameError(failureReasonBox, other.failureReasonBox) { changed.insert("failureReason") }
    if errorUpdateCount != other.errorUpdateCount { changed.insert("errorUpdateCount") }
    if isFetched != other.isFetched { changed.insert("isFetched") }
    if isFetchedAfterMount != other.isFetchedAfterMount { changed.insert("isFetchedAfterMount") }
    if isPlaceholderData != other.isPlaceholderData { changed.insert("isPlaceholderData") }
    if isStale != other.isStale { changed.insert("isStale") }
    if isEnabled != other.isEnabled { changed.insert("isEnabled") }
    if isLoading != other.isLoading { changed.formUnion(["isLoading", "isInitialLoading"]) }
    if isRefetching != other.isRefetching { changed.insert("isRefetching") }
    if isLoadingError != other.isLoadingError { changed.insert("isLoadingError") }
    if isRefetchError != other.isRefetchError { changed.insert("isRefetchError") }
    if infinite != other.infinite { changed.formUnion(InfiniteQueryFlags.changedProperties(infinite, other.infinite)) }
    return changed
  }
}

/// A ``QueryObserverResult`` on the heap (an observer's current result), never mutated while
/// anything but its observer holds it.
///
/// The observer's next result is stored in the box of the current one when the observer holds
/// the only reference to it (``QueryObserver/storeResult(_:)``): nothing else can tell that box
/// from a new one, and most updates then allocate nothing (an invalidation's refetch allocates
/// one box of its three: its `.fetch` update finds the invalidation's box still held by the
/// batch). A box that a listener call waiting for delivery holds (a recorded effect, a batch)
/// is never written.
final class QueryObserverResultBox: @unchecked Sendable {
  // Safe: `result` is written only by `QueryObserver.storeResult(_:)` and `updateResult()`, under the engine lock,
  // and only while the observer's `currentResultBox` holds the only reference to the box
  // (`isKnownUniquelyReferenced`): no listener effect, batch, caller or other thread can be
  // reading it then, and every later reader reaches it through the lock or an effect recorded
  // after the write. `deliver(to:)` opens an `inout` access only to pass the result's address
  // to a listener: it writes nothing (see there), so readers under the lock meet no write.
  @exclusivity(unchecked) private(set) var result: QueryObserverResult
  init(_ result: consuming QueryObserverResult) { self.result = result }

  /// Replaces the result; only for the box's one holder (see the type's comment).
  @inline(__always)
  func replace(with next: consuming QueryObserverResult) { result = consume next }

  /// Calls `listener` with the result where it lies, uncopied (a recorded listener call's
  /// delivery, ``EngineLock``'s `.result` effect).
  ///
  /// The result goes through an `inout` access, which hands the call its address: read as a
  /// property (`listener(box.result)`), it was copied for the call (its three boxes retained,
  /// through an outlined copy, about 100 instructions) and the copy destroyed after (about 70),
  /// since a class's stored `var` may change during a call; a `_read` accessor, a pointer to it
  /// and a borrowing closure were copied too. Nothing is written: the caller holds a reference
  /// to this box (the effect's), so no update writes a result into it while the call lasts
  /// (`QueryObserver` writes only into a box it alone holds), and readers on other threads,
  /// under the engine lock, read memory that does not change.
  @inline(__always)
  func deliver(to listener: (QueryObserverResult) -> Void) {
    Self.lend(&result, to: listener)
  }

  /// Passes `result` to `listener` borrowed (``deliver(to:)``).
  @inline(__always)
  private static func lend(_ result: inout QueryObserverResult, to listener: (QueryObserverResult) -> Void) {
    listener(result)
  }

  /// Changes the result in place; only for the box's one holder (see the type's comment).
  @inline(__always)
  func update<R>(_ body: (inout QueryObserverResult) -> R) -> R { body(&result) }

  /// Whether `next.changedProperties(from: result)` would name any property, without building
  /// the set, reading this box's result member by member where it lies: passing `result` as an
  /// argument copied it (retaining its three boxes) and
  /// destroyed the copy, about 170 instructions per update. The derived flags (`isLoading`,
  /// `isRefetching`, `isLoadingError`, `isRefetchError`) are functions of `status`,
  /// `fetchStatus`, whether there is data and `infinite`, so they cannot differ when those are
  /// equal; the cheap members come before the data's comparison.
  @inline(__always)
  func hasChangedProperties(to next: borrowing QueryObserverResult) -> Bool {
    if result.status != next.status || result.fetchStatus != next.fetchStatus
      || result.dataUpdatedAt != next.dataUpdatedAt || result.errorUpdatedAt != next.errorUpdatedAt
      || result.failureCount != next.failureCount || result.errorUpdateCount != next.errorUpdateCount
      || result.isFetched != next.isFetched || result.isFetchedAfterMount != next.isFetchedAfterMount
      || result.isPlaceholderData != next.isPlaceholderData || result.isStale != next.isStale
      || result.isEnabled != next.isEnabled || !sameError(result.errorBox, next.errorBox)
      || !sameError(result.failureReasonBox, next.failureReasonBox) || !sameData(result.dataBox, next.dataBox)
    {
      return true
    }
    // Unequal flags always name a property (`changedProperties` compares all six, as `==` does).
    return result.infinite != next.infinite
  }
}
