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
///
/// The result is the `ManagedBuffer`'s header, read and written at its address: a class's
/// stored `var` is checked for exclusivity at every access. A listener is handed a copy
/// (`EngineLock`'s `.result` effect says why not the header itself).
///
/// Not `Sendable` (`ManagedBuffer`'s conformance is unavailable); it crosses threads only inside
/// the engine lock's recorded effects, as the class did.
final class QueryObserverResultBox: ManagedBuffer<QueryObserverResult, Void> {
  // Thread safety: the header (the result) is written only by `QueryObserver.storeResult(_:)` and
  // `QueryObserver.updateStateResult(_:)`, under the engine lock, and only while the observer's
  // `currentResultBox` holds the only reference to the box (`isKnownUniquelyReferenced`): no
  // listener effect, batch, caller or other thread can be reading it then, and every later
  // reader reaches it through the lock or an effect recorded after the write.

  /// A box holding `result` (`ManagedBuffer`'s subclasses are made by `create`). The result
  /// is moved in (`take()`): returned from `create`'s closure as a capture, it was copied.
  @inline(__always)
  static func make(_ result: consuming QueryObserverResult) -> QueryObserverResultBox {
    var moved: QueryObserverResult? = consume result
    return unsafeDowncast(create(minimumCapacity: 0) { _ in moved.take().unsafelyUnwrapped }, to: QueryObserverResultBox.self)
  }

  /// The header's address, fixed for the box's life. The result is read and written there
  /// rather than as `header`, a class's stored `var` whose every access the runtime checked for
  /// exclusivity (`swift_beginAccess`, about 75 instructions per access), where every write
  /// happens while nothing else holds the box (see the type's comment).
  private var resultAddress: UnsafeMutablePointer<QueryObserverResult> {
    @inline(__always) get { withUnsafeMutablePointerToHeader { $0 } }
  }

  /// The result.
  var result: QueryObserverResult {
    @inline(__always) unsafeAddress { UnsafePointer(resultAddress) }
  }

  /// Calls `body` with a copy of the result in memory of its own (a stack temporary), whose
  /// references (the data and error boxes) are the box's own, not retained for the copy: the
  /// caller holds the box, which is not written while anything but its observer holds it (see
  /// the type's comment), so they stay alive through the call, as a borrowed argument needs.
  /// What `body` keeps of the copy it copies, retaining as usual. The copy is moved back into
  /// the temporary after the call and the temporary is freed without destroying it, so nothing
  /// is released either: the box's references are retained and released once each, by the box.
  ///
  /// A copy made as usual (a listener is never handed the box's own memory: an `inout` access
  /// to the header was reported by the thread sanitizer beside a reader on another thread) was
  /// copied and destroyed through the result's outlined value witnesses, its three references
  /// retained and released: about 170 instructions per listener call, against the few loads
  /// and stores of the bytes. Nothing is written to the box: the bytes are only read.
  @inline(__always)
  func withUnretainedCopy(_ body: (QueryObserverResult) -> Void) {
    withUnsafeTemporaryAllocation(of: QueryObserverResult.self, capacity: 1) { buffer in
      let copy = buffer.baseAddress.unsafelyUnwrapped
      UnsafeMutableRawPointer(copy).copyMemory(
        from: UnsafeRawPointer(resultAddress), byteCount: MemoryLayout<QueryObserverResult>.size)
      // Owned as far as the compiler knows, without a retain: never destroyed (moved back below).
      let result = copy.move()
      body(result)
      copy.initialize(to: consume result)
    }
  }

  /// Replaces the result; only for the box's one holder (see the type's comment).
  @inline(__always)
  func replace(with next: consuming QueryObserverResult) { resultAddress.pointee = consume next }

  /// Replaces the result with the one `QueryObserver.createStateResult` makes from `query`'s
  /// state (its computed members given), member by member in place; only for the box's one
  /// holder (see the type's comment). A reference member is written only when it changes:
  /// the whole result made and assigned cost its three references retained, the previous
  /// result copied out and destroyed through its outlined value witness (about 100
  /// instructions per update).
  @inline(__always)
  func replaceWithStateResult(of query: Query, isFetched: Bool, isFetchedAfterMount: Bool, isStale: Bool, isEnabled: Bool) {
    let result = resultAddress
    // The previous references are swapped out and released last, once nothing more is
    // written: a release may free an object (and run its `deinit`), across which the box
    // itself was retained.
    var previousData: DataBox?
    var previousError: ErrorBox?
    var previousFailureReason: ErrorBox?
    result.pointee.status = query.stateStorage.status
    result.pointee.fetchStatus = query.stateStorage.fetchStatus
    if result.pointee.dataBox !== query.stateStorage.dataBox {
      previousData = query.stateStorage.dataBox
      swap(&previousData, &result.pointee.dataBox)
    }
    result.pointee.dataUpdatedAt = query.stateStorage.dataUpdatedAt
    if result.pointee.errorBox !== query.stateStorage.errorBox {
      previousError = query.stateStorage.errorBox
      swap(&previousError, &result.pointee.errorBox)
    }
    result.pointee.errorUpdatedAt = query.stateStorage.errorUpdatedAt
    result.pointee.failureCount = query.stateStorage.fetchFailureCount
    if result.pointee.failureReasonBox !== query.stateStorage.fetchFailureReasonBox {
      previousFailureReason = query.stateStorage.fetchFailureReasonBox
      swap(&previousFailureReason, &result.pointee.failureReasonBox)
    }
    result.pointee.errorUpdateCount = query.stateStorage.errorUpdateCount
    result.pointee.isFetched = isFetched
    result.pointee.isFetchedAfterMount = isFetchedAfterMount
    result.pointee.isPlaceholderData = false
    result.pointee.isStale = isStale
    result.pointee.isEnabled = isEnabled
    result.pointee.infinite = nil
    withExtendedLifetime((previousData, previousError, previousFailureReason)) {}
  }

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

  /// The address of the result (valid while the box is alive), for the comparison with a
  /// query's state, ``hasChangedProperties(_:toStateResultOf:isFetched:isFetchedAfterMount:isStale:isEnabled:)``.
  var resultPointer: UnsafePointer<QueryObserverResult> {
    @inline(__always) get { UnsafePointer(resultAddress) }
  }

  /// ``hasChangedProperties(to:)`` of the result `QueryObserver.createStateResult` would make
  /// from `query`'s state (its computed members given), read from the state without making
  /// that result (whose three references it retained and released), for the result at
  /// `current` (a box's ``resultPointer``: the caller keeps the box alive without a reference
  /// of its own).
  @inline(__always)
  static func hasChangedProperties(
    _ current: UnsafePointer<QueryObserverResult>, toStateResultOf query: Query, isFetched: Bool,
    isFetchedAfterMount: Bool, isStale: Bool, isEnabled: Bool
  ) -> Bool {
    if current.pointee.status != query.stateStorage.status || current.pointee.fetchStatus != query.stateStorage.fetchStatus
      || current.pointee.dataUpdatedAt != query.stateStorage.dataUpdatedAt
      || current.pointee.errorUpdatedAt != query.stateStorage.errorUpdatedAt
      || current.pointee.failureCount != query.stateStorage.fetchFailureCount
      || current.pointee.errorUpdateCount != query.stateStorage.errorUpdateCount
      || current.pointee.isFetched != isFetched || current.pointee.isFetchedAfterMount != isFetchedAfterMount
      || current.pointee.isPlaceholderData || current.pointee.isStale != isStale || current.pointee.isEnabled != isEnabled
      || !sameError(current.pointee.errorBox, query.stateStorage.errorBox)
      || !sameError(current.pointee.failureReasonBox, query.stateStorage.fetchFailureReasonBox)
      || !sameData(current.pointee.dataBox, query.stateStorage.dataBox)
    {
      return true
    }
    return current.pointee.infinite != nil
  }
}

/// Whether ``sameData(_:_:)`` is false, known without a call: one box and no box, or two
/// distinct boxes of common primitives whose values differ. `false` also when only `sameData`
/// can tell.
@inline(__always)
func dataDiffersCheaply(_ a: DataBox?, _ b: DataBox?) -> Bool {
  guard let x = a, let y = b else { return a !== b }
  return x !== y && x.isCommonPrimitive && y.isCommonPrimitive && !x.commonPrimitiveEquals(y)
}
