/// How to fetch one kind of value from a server: the typed form of a query function.
///
/// Conform a small struct; its type and the variables make the cache key, so two
/// different functions never share an entry. Per-type options (stale time, gc time, retry,
/// network mode) are declared on the conforming type through ``options``.
///
/// ```swift
/// struct FetchUser: QueryFunc {
///   var options: QueryFuncOptions { QueryFuncOptions(staleTime: .seconds(30)) }
///   func run(_ id: Int) async throws -> User { try await api.user(id) }
/// }
/// let user = try await client.fetch(FetchUser(), 42)
/// ```
public protocol QueryFunc: Sendable {
  /// What the function returns.
  associatedtype Value: Sendable
  /// What it takes; part of the cache key, so it must encode to JSON.
  associatedtype Variables: Hashable & Sendable & Encodable = QueryVoid
  /// Fetches the value.
  func run(_ variables: Variables) async throws -> Value
  /// Options for every query of this type (default: TanStack's defaults).
  var options: QueryFuncOptions { get }
  /// The key prefix every query of this type shares (default: a namespace-free type identifier).
  static var keyPrefix: [JSONValue] { get }
}

extension QueryFunc {
  /// TanStack's defaults.
  public var options: QueryFuncOptions { QueryFuncOptions() }
  /// `["<Module.Type>"]`, so `invalidateQueries(QueryCacheKey<Self>.all)` reaches every variable.
  public static var keyPrefix: [JSONValue] { typeKeyPrefix(Self.self) }
}

/// The identifier a type contributes to its keys: its fully qualified name.
func typeIdentifier(_ type: Any.Type) -> String {
  guard case .string(let name) = typeKeyPrefix(type).first else { preconditionFailure("a type's key prefix is its name") }
  return name
}

/// Options a ``QueryFunc`` or ``InfiniteQueryFunc`` declares for all its queries (a subset of
/// ``QueryOptions`` in Swift types; `nil` keeps the client's default).
public struct QueryFuncOptions: Sendable {
  /// How long data stays fresh.
  public var staleTime: Duration?
  /// How long unused data stays cached.
  public var gcTime: Duration?
  /// How many times a failed fetch is retried.
  public var retry: Int?
  /// When the function may run with respect to connectivity.
  public var networkMode: NetworkMode?
  /// Refetch when the app regains focus.
  public var refetchOnWindowFocus: Bool?
  /// Refetch when connectivity returns.
  public var refetchOnReconnect: Bool?
  /// Refetch on this interval while observed.
  public var refetchInterval: Duration?

  /// Creates options; each `nil` keeps the client's default.
  public init(
    staleTime: Duration? = nil, gcTime: Duration? = nil, retry: Int? = nil, networkMode: NetworkMode? = nil,
    refetchOnWindowFocus: Bool? = nil, refetchOnReconnect: Bool? = nil, refetchInterval: Duration? = nil
  ) {
    self.staleTime = staleTime
    self.gcTime = gcTime
    self.retry = retry
    self.networkMode = networkMode
    self.refetchOnWindowFocus = refetchOnWindowFocus
    self.refetchOnReconnect = refetchOnReconnect
    self.refetchInterval = refetchInterval
  }

  /// These options written into engine options.
  func apply(to options: inout QueryOptions) {
    if let staleTime { options.staleTime = .value(.milliseconds(staleTime.milliseconds)) }
    if let gcTime { options.gcTime = gcTime.milliseconds }
    if let retry { options.retry = .count(retry) }
    if let networkMode { options.networkMode = networkMode }
    if let refetchOnWindowFocus { options.refetchOnWindowFocus = refetchOnWindowFocus ? .ifStale : .never }
    if let refetchOnReconnect { options.refetchOnReconnect = refetchOnReconnect ? .ifStale : .never }
    if let refetchInterval { options.refetchInterval = .milliseconds(refetchInterval.milliseconds) }
  }
}

extension Duration {
  /// The duration in (fractional) milliseconds, the engine's unit; `.infinity` for `Duration`s
  /// too long to matter is not representable, so use ``QueryFuncOptions`` `nil` or a large value.
  var milliseconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
  }
}
