import Synchronization

/// The options of a query and its observers (TanStack's `QueryObserverOptions`).
///
/// Every member is optional: options merge like TanStack's object spread, where a member that
/// is set overrides the defaults beneath it.
///
/// ```swift
/// var options = QueryOptions(queryKey: ["todos"])
/// options.queryFn = .fn { _ in try await api.todos() }
/// options.staleTime = .value(.milliseconds(5_000))
/// ```
public struct QueryOptions: Sendable {
  /// The query's key.
  public var queryKey: QueryKey?
  /// The key's hash; computed from `queryKey` when absent.
  public var queryHash: String? {
    get {
      if let givenHash { return givenHash }
      return keyHashBox?.hash
    }
    set {
      givenHash = newValue
      keyHashBox = nil
    }
  }
  /// `queryHash` as a string, when it is one (set through `queryHash`).
  private(set) var givenHash: String?
  /// `queryHash` when it is a cached query's key hash that nothing has read yet
  /// (`QueryClient.defaultQueryOptions` found the query by its key): the query's box, which
  /// writes the string on first read, for the query and these options alike.
  private(set) var keyHashBox: QueryHashBox?
  /// Whether `queryHash` is set, without writing a key hash that is not written yet.
  var hasQueryHash: Bool { givenHash != nil || keyHashBox != nil }
  /// Sets `queryHash` to `query`'s hash without writing it if it is not written yet.
  mutating func takeQueryHash(of query: Query) {
    if let box = query.keyHashBox() {
      givenHash = nil
      keyHashBox = box
    } else {
      queryHash = query.queryHash
    }
  }
  /// Hashes the key instead of TanStack's `hashKey` (TanStack's `queryKeyHashFn`).
  public var queryKeyHashFn: FunctionBox<@Sendable (QueryKey) -> String>?
  /// The query function, or `skipToken`.
  public var queryFn: QueryFnOption?
  /// How long data stays fresh (default 0).
  public var staleTime: StaleTimeOption?
  /// How long an unused query stays cached, in ms (default 5 minutes; `.infinity` never).
  public var gcTime: Double?
  /// How many times to retry a failed fetch (default 3; 0 for `fetchQuery`).
  public var retry: RetryOption?
  /// The delay before a retry (default exponential backoff capped at 30 s).
  public var retryDelay: RetryDelayOption?
  /// Connectivity rule (default `.online`).
  public var networkMode: NetworkMode?
  /// Whether observers fetch automatically (default `true`).
  public var enabled: QueryBoolOption?
  /// Transforms the data an observer reports.
  public var select: SelectFunction?
  /// Data shown while pending, never cached. A value is boxed once, so it is one object wherever
  /// these options go (JavaScript passes the same reference).
  public var placeholderData: PlaceholderDataOption? {
    didSet {
      if case .value(let v)? = placeholderData, !(v is DataBox) { placeholderData = .value(DataBox(v)) }
      hasPlaceholderData = placeholderData != nil
    }
  }
  /// Whether `placeholderData` is set (kept by its `didSet`; no initializer sets it): testing
  /// the option itself copied and destroyed an `Optional<PlaceholderDataOption>` (outlined,
  /// about 60 instructions each) in every observer result.
  private(set) var hasPlaceholderData = false
  /// Data the query starts with, cached. A value is boxed once, so every query built from these
  /// options starts with the same object (JavaScript passes the same reference).
  public var initialData: InitialDataOption? {
    didSet {
      if case .value(let v)? = initialData, !(v is DataBox) { initialData = .value(DataBox(v)) }
      hasInitialData = initialData != nil
    }
  }
  /// Whether `initialData` is set (kept by its `didSet`; no initializer sets it): testing the
  /// option itself copied and destroyed an `Optional<InitialDataOption>` (outlined, about 90
  /// instructions) for every new query.
  private(set) var hasInitialData = false
  /// When the initial data was fetched, in ms.
  public var initialDataUpdatedAt: Double?
  /// Refetch when an observer subscribes.
  public var refetchOnMount: RefetchOnOption?
  /// Refetch when the app regains focus.
  public var refetchOnWindowFocus: RefetchOnOption?
  /// Refetch when connectivity returns.
  public var refetchOnReconnect: RefetchOnOption?
  /// Refetch every so many ms.
  public var refetchInterval: RefetchIntervalOption?
  /// Keep the interval running while unfocused.
  public var refetchIntervalInBackground: Bool?
  /// Which result properties trigger a listener call.
  public var notifyOnChangeProps: NotifyOnChangeProps?
  /// Keep equal data's identity (default `true`).
  public var structuralSharing: StructuralSharingOption?
  /// Application metadata.
  @DeepReleased public var meta: JSONValue? = nil
  /// Retry an errored query on mount (default `true`).
  public var retryOnMount: QueryBoolOption?
  /// Rethrow errors from observer fetches.
  public var throwOnError: Bool?

  /// Infinite-query options (``QueryOptions/initialPageParam`` and the rest, in `+Infinite`).
  var infinite = InfiniteOptionsStorage()
  var defaulted = false
  /// Whether `queryHash` is the key's own `hashKey` (no `queryKeyHashFn`, no given hash): such a
  /// query can be found by its key (`QueryCache.lookup(key:)`).
  var keyHashed = false
  /// Stands for the JavaScript object identity of defaulted options: `setOptions` with the very
  /// options an observer already holds is no change (`shallowEqualObjects` sees one object).
  var identity: OptionsIdentity?

  /// Creates options, all unset but the key.
  public init(queryKey: QueryKey? = nil) { self.queryKey = queryKey }

  /// These options over `base`: a member set here wins (TanStack's `{...base, ...self}`).
  public func merged(over base: QueryOptions) -> QueryOptions {
    var r = self
    r.queryKey = queryKey ?? base.queryKey
    // `queryHash ?? base.queryHash`, without writing a key hash: both members from one side.
    let ownHash = hasQueryHash
    r.givenHash = ownHash ? givenHash : base.givenHash
    r.keyHashBox = ownHash ? keyHashBox : base.keyHashBox
    r.queryKeyHashFn = queryKeyHashFn ?? base.queryKeyHashFn
    r.queryFn = queryFn ?? base.queryFn
    r.staleTime = staleTime ?? base.staleTime
    r.gcTime = gcTime ?? base.gcTime
    r.retry = retry ?? base.retry
    r.retryDelay = retryDelay ?? base.retryDelay
    r.networkMode = networkMode ?? base.networkMode
    r.enabled = enabled ?? base.enabled
    r.select = select ?? base.select
    r.placeholderData = placeholderData ?? base.placeholderData
    r.initialData = initialData ?? base.initialData
    r.initialDataUpdatedAt = initialDataUpdatedAt ?? base.initialDataUpdatedAt
    r.refetchOnMount = refetchOnMount ?? base.refetchOnMount
    r.refetchOnWindowFocus = refetchOnWindowFocus ?? base.refetchOnWindowFocus
    r.refetchOnReconnect = refetchOnReconnect ?? base.refetchOnReconnect
    r.refetchInterval = refetchInterval ?? base.refetchInterval
    r.refetchIntervalInBackground = refetchIntervalInBackground ?? base.refetchIntervalInBackground
    r.notifyOnChangeProps = notifyOnChangeProps ?? base.notifyOnChangeProps
    r.structuralSharing = structuralSharing ?? base.structuralSharing
    r.meta = meta ?? base.meta
    r.retryOnMount = retryOnMount ?? base.retryOnMount
    r.throwOnError = throwOnError ?? base.throwOnError
    r.infinite = infinite.merged(over: base.infinite)
    r.defaulted = defaulted || base.defaulted
    r.identity = nil
    return r
  }

  /// Whether two optional hashes are both absent or have the same code units (`===` on strings).
  private static func sameCodeUnits(_ a: String?, _ b: String?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return a.hasSameCodeUnits(as: b)
  }

  /// TanStack's `shallowEqualObjects` over options: primitives by value, functions by identity,
  /// and arrays and objects (the key, `meta`) never equal, as every options value a caller passes
  /// carries fresh ones in JavaScript.
  func isShallowEqual(to o: QueryOptions) -> Bool {
    if let identity, identity == o.identity { return true }
    return (queryKey == nil && o.queryKey == nil) && Self.sameCodeUnits(queryHash, o.queryHash) && QueryFnOption.identical(queryFn, o.queryFn)
      && queryKeyHashFn === o.queryKeyHashFn
      && staleTime == o.staleTime && gcTime == o.gcTime && retry == o.retry && retryDelay == o.retryDelay
      && networkMode == o.networkMode && enabled == o.enabled && select === o.select
      && placeholderData == o.placeholderData && initialData == o.initialData
      && initialDataUpdatedAt == o.initialDataUpdatedAt && refetchOnMount == o.refetchOnMount
      && refetchOnWindowFocus == o.refetchOnWindowFocus && refetchOnReconnect == o.refetchOnReconnect
      && refetchInterval == o.refetchInterval && refetchIntervalInBackground == o.refetchIntervalInBackground
      && notifyOnChangeProps == o.notifyOnChangeProps && structuralSharing == o.structuralSharing
      && identityEqual(meta, o.meta) && retryOnMount == o.retryOnMount && throwOnError == o.throwOnError
      && infinite.isShallowEqual(to: o.infinite)
  }
}

/// `structuralSharing`: on or off, or a function that decides the data's identity itself.
///
/// The function gets the previous data (`nil` when there is none) and the new data as boxes and
/// returns the box to keep: the previous one, the new one, or a new ``DataBox`` (TanStack's
/// `structuralSharing(prevData, data)`, where the returned reference is the data).
public enum StructuralSharingOption: Sendable, Equatable, ExpressibleByBooleanLiteral {
  /// `true` (the default): keep the previous data when the new data is equal; `false`: never.
  case value(Bool)
  /// Decides which data to keep.
  case function(FunctionBox<@Sendable (_ previous: DataBox?, _ data: DataBox) -> DataBox>)

  /// `true` or `false`.
  public init(booleanLiteral value: Bool) { self = .value(value) }

  /// Equal values, or the same function.
  public static func == (a: StructuralSharingOption, b: StructuralSharingOption) -> Bool {
    switch (a, b) {
    case (.value(let x), .value(let y)): return x == y
    case (.function(let x), .function(let y)): return x === y
    default: return false
    }
  }
}

/// TanStack's `replaceData` with the `structuralSharing` option: the function form decides,
/// otherwise structural sharing on or off.
func replaceData(_ previous: DataBox?, _ new: any Sendable, sharing option: StructuralSharingOption?) -> DataBox {
  switch option {
  case .function(let decide)?:
    previous?.handOut()
    return decide.call(previous, boxed(new))
  case .value(let on)?: return replaceData(previous, new, structuralSharing: on)
  case nil: return replaceData(previous, new, structuralSharing: nil)
  }
}

/// `staleTime`: a value or a function of the query.
public enum StaleTimeOption: Sendable, Equatable {
  /// A fixed stale time.
  case value(StaleTime)
  /// Computed from the query.
  case function(FunctionBox<@Sendable (Query) -> StaleTime>)

  /// Equal values, or the same function.
  public static func == (a: StaleTimeOption, b: StaleTimeOption) -> Bool {
    switch (a, b) {
    case (.value(let x), .value(let y)): return x == y
    case (.function(let x), .function(let y)): return x === y
    default: return false
    }
  }
}

/// A boolean option that may be a function of the query (`enabled`, `retryOnMount`).
public enum QueryBoolOption: Sendable, Equatable {
  /// A fixed value.
  case value(Bool)
  /// Computed from the query.
  case function(FunctionBox<@Sendable (Query) -> Bool>)

  /// Equal values, or the same function.
  public static func == (a: QueryBoolOption, b: QueryBoolOption) -> Bool {
    switch (a, b) {
    case (.value(let x), .value(let y)): return x == y
    case (.function(let x), .function(let y)): return x === y
    default: return false
    }
  }
}

/// `retry`: a count, always/never, or a function of the failure count and error.
public enum RetryOption: Sendable, Equatable {
  /// Retry up to this many times.
  case count(Int)
  /// Retry forever (`true`) or never (`false`).
  case bool(Bool)
  /// Retry while this returns `true`.
  case function(FunctionBox<@Sendable (Int, any Error) -> Bool>)

  /// Equal values, or the same function.
  public static func == (a: RetryOption, b: RetryOption) -> Bool {
    switch (a, b) {
    case (.count(let x), .count(let y)): return x == y
    case (.bool(let x), .bool(let y)): return x == y
    case (.function(let x), .function(let y)): return x === y
    default: return false
    }
  }
}

/// `retryDelay`: milliseconds, or a function of the failure count and error.
public enum RetryDelayOption: Sendable, Equatable {
  /// A fixed delay.
  case milliseconds(Double)
  /// Computed per retry.
  case function(FunctionBox<@Sendable (Int, any Error) -> Double>)

  /// Equal values, or the same function.
  public static func == (a: RetryDelayOption, b: RetryDelayOption) -> Bool {
    switch (a, b) {
    case (.milliseconds(let x), .milliseconds(let y)): return x == y
    case (.function(let x), .function(let y)): return x === y
    default: return false
    }
  }
}

/// `refetchOnMount`, `refetchOnWindowFocus`, `refetchOnReconnect`.
public enum RefetchOnOption: Sendable, Equatable {
  /// `true`: refetch if stale.
  case ifStale
  /// `false`: never.
  case never
  /// `'always'`: refetch even when fresh (but never when `static`).
  case always
  /// Computed from the query.
  case function(FunctionBox<@Sendable (Query) -> RefetchOnOption>)

  /// Equal values, or the same function.
  public static func == (a: RefetchOnOption, b: RefetchOnOption) -> Bool {
    switch (a, b) {
    case (.ifStale, .ifStale), (.never, .never), (.always, .always): return true
    case (.function(let x), .function(let y)): return x === y
    default: return false
    }
  }
}

/// `refetchInterval`: milliseconds, off, or a function of the query.
public enum RefetchIntervalOption: Sendable, Equatable {
  /// Every so many ms.
  case milliseconds(Double)
  /// Off (`false`).
  case never
  /// Computed from the query; `nil` is off.
  case function(FunctionBox<@Sendable (Query) -> Double?>)

  /// Equal values, or the same function.
  public static func == (a: RefetchIntervalOption, b: RefetchIntervalOption) -> Bool {
    switch (a, b) {
    case (.milliseconds(let x), .milliseconds(let y)): return x == y
    case (.never, .never): return true
    case (.function(let x), .function(let y)): return x === y
    default: return false
    }
  }
}

/// `notifyOnChangeProps`: every property, a list of result property names, or a function
/// returning either (called each time the observer decides whether to notify).
public enum NotifyOnChangeProps: Sendable, Equatable {
  /// Notify on any change.
  case all
  /// Notify only when one of these properties changed.
  case props([String])
  /// Asked each time; returns `.all` or `.props` (TanStack's function form).
  case function(FunctionBox<@Sendable () -> NotifyOnChangeProps>)

  /// Equal values, or the same function.
  public static func == (a: NotifyOnChangeProps, b: NotifyOnChangeProps) -> Bool {
    switch (a, b) {
    case (.all, .all): return true
    case (.props(let x), .props(let y)): return x == y
    case (.function(let x), .function(let y)): return x === y
    default: return false
    }
  }

  /// The value, calling the function form.
  var resolved: NotifyOnChangeProps {
    if case .function(let f) = self { return f.call() }
    return self
  }
}

/// `select`: transforms the query data for an observer; a throw makes the result an error.
public typealias SelectFunction = FunctionBox<@Sendable (any Sendable) throws -> any Sendable>

/// `placeholderData`: a value or a function of the previous data and query.
public enum PlaceholderDataOption: Sendable, Equatable {
  /// A fixed placeholder.
  case value(any Sendable)
  /// Computed from the last query with data; `nil` means none.
  case function(FunctionBox<@Sendable ((any Sendable)?, Query?) -> (any Sendable)?>)

  /// Equal values, or the same function.
  public static func == (a: PlaceholderDataOption, b: PlaceholderDataOption) -> Bool {
    switch (a, b) {
    case (.value(let x), .value(let y)): return sameData(boxed(x), boxed(y))
    case (.function(let x), .function(let y)): return x === y
    default: return false
    }
  }
}

/// `initialData`: a value or a function returning one.
public enum InitialDataOption: Sendable, Equatable {
  /// A fixed value.
  case value(any Sendable)
  /// Computed once when the query is created; `nil` means none.
  case function(FunctionBox<@Sendable () -> (any Sendable)?>)

  /// Equal values, or the same function.
  public static func == (a: InitialDataOption, b: InitialDataOption) -> Bool {
    switch (a, b) {
    case (.value(let x), .value(let y)): return sameData(boxed(x), boxed(y))
    case (.function(let x), .function(let y)): return x === y
    default: return false
    }
  }

  func resolve() -> (any Sendable)? {
    switch self {
    case .value(let v): return v
    case .function(let f): return f.call()
    }
  }
}

extension Optional where Wrapped == SelectFunction {
  static func === (a: SelectFunction?, b: SelectFunction?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case (let x?, let y?): return x === y
    default: return false
    }
  }
}

/// JavaScript's `===` on option values: primitives by value, containers never (fresh objects).
func identityEqual(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
  switch (a, b) {
  case (nil, nil): return true
  case (.array?, _), (.object?, _): return false
  default: return a == b
  }
}

/// The identity of one defaulted options value (see ``QueryOptions``' `identity`): a number
/// drawn once from a process-wide counter, so no two defaulted options values share one. A
/// number rather than an object: each observer's options made one more allocation (and a
/// reference that every copy of the options retained and released).
struct OptionsIdentity: Equatable, Sendable {
  private let number: UInt64
  private static let counter = Atomic<UInt64>(0)
  /// A new identity, equal to no other made before.
  static func next() -> OptionsIdentity {
    OptionsIdentity(number: counter.add(1, ordering: .relaxed).newValue)
  }
}

/// TanStack's `hashQueryKeyByOptions`: the options' `queryKeyHashFn`, or `hashKey`.
func hashQueryKeyByOptions(_ queryKey: QueryKey, _ options: QueryOptions?) -> String {
  options?.queryKeyHashFn?.call(queryKey) ?? queryKey.queryHash
}

