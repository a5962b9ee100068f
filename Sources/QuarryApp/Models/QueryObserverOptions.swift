/// What a view asks of its query besides the function and its variables: a typed subset of
/// TanStack's `QueryObserverOptions` (the engine's ``QueryOptions``) for a ``QueryObserverModel``
/// (`@QueryObserving` in SwiftUI).
///
/// `Value` is the function's value; `Selected` what the model shows: `Value` itself, or what
/// `select` makes of it. Each option left `nil` keeps the function's own
/// ``QueryFuncOptions`` and then the client's defaults; options set here win, as options given
/// to TanStack's `useQuery` win over `queryOptions` and defaults.
///
/// ```swift
/// struct FetchTodos: QueryFunc {
///   func run(_ variables: QueryVoid) async throws -> [Todo] { try await api.todos() }
/// }
/// // Only the titles, only once signed in, a placeholder meanwhile.
/// var options = QueryObserverOptions<[Todo], [String]>(
///   enabled: false, select: { todos in todos.map(\.title) }, placeholderData: .value([]))
/// let titles = QueryObserverModel(FetchTodos(), client: client, options: options)
/// titles.setVariables(.value)   // placeholder shown (isPlaceholderData), nothing fetched
/// options.enabled = true
/// titles.setOptions(options)    // fetches now
/// ```
public struct QueryObserverOptions<Value: Sendable, Selected: Sendable>: Sendable {
  /// Whether the query fetches on its own (mount, stale, focus, reconnect, interval); a
  /// disabled query still shows cached data and can be refetched by hand. `nil` keeps the
  /// client's default (`true` unless `setQueryDefaults` says otherwise).
  public var enabled: Bool?
  /// How long data stays fresh for this observer.
  public var staleTime: Duration?
  /// Refetch on this interval while observed (and enabled).
  public var refetchInterval: Duration?
  /// Refetch the interval while the app is not focused too.
  public var refetchIntervalInBackground: Bool?
  /// Whether subscribing refetches stale data (`false`: never, as TanStack's
  /// `refetchOnMount: false`).
  public var refetchOnMount: Bool?
  /// Shown while the query is pending, never cached; `isPlaceholderData` says so.
  public var placeholderData: PlaceholderData<Value>? {
    didSet { engine.placeholderData = placeholderData.map(Self.engineOption) }
  }

  /// The select and placeholder options as the engine holds them, made once: the engine keeps
  /// the last selection while the data and the `select` function are the same ones, and the
  /// placeholder while its option is the same (TanStack's stable function references).
  private var engine = QueryOptions()

  /// Options whose value is the function's value (no `select`).
  public init(
    enabled: Bool? = nil, staleTime: Duration? = nil, refetchInterval: Duration? = nil,
    refetchIntervalInBackground: Bool? = nil, refetchOnMount: Bool? = nil,
    placeholderData: PlaceholderData<Value>? = nil
  ) where Selected == Value {
    self.init(
      enabled: enabled, staleTime: staleTime, refetchInterval: refetchInterval,
      refetchIntervalInBackground: refetchIntervalInBackground, refetchOnMount: refetchOnMount,
      placeholderData: placeholderData, engineSelect: nil)
  }

  /// Options that show what `select` makes of the value (TanStack's `select`).
  ///
  /// `select` runs when the query's data changes (not on every read), on the thread that
  /// delivers the change, with the engine's lock held: keep it quick and pure. Placeholder
  /// data goes through it too. Its result replaces the shown value only when it differs
  /// (structural sharing keeps an equal result's identity).
  public init(
    enabled: Bool? = nil, select: @escaping @Sendable (Value) -> Selected, staleTime: Duration? = nil,
    refetchInterval: Duration? = nil, refetchIntervalInBackground: Bool? = nil, refetchOnMount: Bool? = nil,
    placeholderData: PlaceholderData<Value>? = nil
  ) {
    let engineSelect = SelectFunction { data in
      guard let value = data as? Value else {
        throw QuarryError.typeMismatch(
          key: "", expected: String(describing: Value.self), actual: String(describing: type(of: data)))
      }
      return select(value)
    }
    self.init(
      enabled: enabled, staleTime: staleTime, refetchInterval: refetchInterval,
      refetchIntervalInBackground: refetchIntervalInBackground, refetchOnMount: refetchOnMount,
      placeholderData: placeholderData, engineSelect: engineSelect)
  }

  /// What both public initialisers do: stores the options and makes the engine's select and
  /// placeholder options once.
  private init(
    enabled: Bool?, staleTime: Duration?, refetchInterval: Duration?, refetchIntervalInBackground: Bool?,
    refetchOnMount: Bool?, placeholderData: PlaceholderData<Value>?, engineSelect: SelectFunction?
  ) {
    self.enabled = enabled
    self.staleTime = staleTime
    self.refetchInterval = refetchInterval
    self.refetchIntervalInBackground = refetchIntervalInBackground
    self.refetchOnMount = refetchOnMount
    self.placeholderData = placeholderData
    engine.placeholderData = placeholderData.map(Self.engineOption)
    engine.select = engineSelect
  }

  /// These options written over `options` (the function's engine options).
  func apply(to options: inout QueryOptions) {
    if let enabled { options.enabled = .value(enabled) }
    if let staleTime { options.staleTime = .value(.milliseconds(staleTime.milliseconds)) }
    if let refetchInterval { options.refetchInterval = .milliseconds(refetchInterval.milliseconds) }
    if let refetchIntervalInBackground { options.refetchIntervalInBackground = refetchIntervalInBackground }
    if let refetchOnMount { options.refetchOnMount = refetchOnMount ? .ifStale : .never }
    if let select = engine.select { options.select = select }
    if let placeholder = engine.placeholderData { options.placeholderData = placeholder }
  }

  private static func engineOption(_ placeholder: PlaceholderData<Value>) -> PlaceholderDataOption {
    switch placeholder {
    case .value(let value): return .value(value)
    case .keepPreviousData:
      return .function(FunctionBox { @Sendable previous, _ in previous })
    case .function(let make):
      return .function(FunctionBox { @Sendable previous, _ in make(previous as? Value) })
    }
  }
}

/// Data a pending query shows instead of nothing (TanStack's `placeholderData`).
public enum PlaceholderData<Value: Sendable>: Sendable {
  /// This value.
  case value(Value)
  /// The data of the last query this observer showed data for, so switching variables keeps the
  /// old value on screen until the new one arrives (TanStack's `keepPreviousData`).
  case keepPreviousData
  /// Made from that previous data (`nil` when there is none); returning `nil` shows nothing.
  case function(@Sendable (_ previousData: Value?) -> Value?)
}
