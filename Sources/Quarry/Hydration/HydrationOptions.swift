/// How `dehydrate` chooses and writes queries and mutations (TanStack's `DehydrateOptions`).
/// Each member set here wins over the client's `defaultOptions.dehydrate`.
///
/// The functions are value callbacks: they run under the engine lock, must be quick and must not
/// wait for another thread that uses the client.
public struct DehydrateOptions: Sendable {
  /// Writes a query's data (and a pending query's eventual data) into the snapshot.
  public var serializeData: (@Sendable (any Sendable) -> any Sendable)?
  /// Which queries to keep; default: those with `status == .success`.
  public var shouldDehydrateQuery: (@Sendable (Query) -> Bool)?
  /// Which mutations to keep; default: the paused ones.
  public var shouldDehydrateMutation: (@Sendable (Mutation) -> Bool)?
  /// Whether a pending query's failure is replaced by an error `"redacted"`; only an answer of
  /// exactly `false` keeps the original error.
  public var shouldRedactErrors: (@Sendable (any Error) -> Bool)?

  /// Creates options; unset members fall back to the client's defaults, then TanStack's.
  public init(
    serializeData: (@Sendable (any Sendable) -> any Sendable)? = nil,
    shouldDehydrateQuery: (@Sendable (Query) -> Bool)? = nil,
    shouldDehydrateMutation: (@Sendable (Mutation) -> Bool)? = nil,
    shouldRedactErrors: (@Sendable (any Error) -> Bool)? = nil
  ) {
    self.serializeData = serializeData
    self.shouldDehydrateQuery = shouldDehydrateQuery
    self.shouldDehydrateMutation = shouldDehydrateMutation
    self.shouldRedactErrors = shouldRedactErrors
  }
}

/// How `hydrate` builds the queries and mutations it restores (TanStack's
/// `HydrateOptions['defaultOptions']`, and the client's `defaultOptions.hydrate`).
///
/// `deserializeData` is a value callback: it runs under the engine lock, must be quick and must
/// not wait for another thread that uses the client.
public struct HydrateOptions: Sendable {
  /// Reads data back from the snapshot (the inverse of `serializeData`).
  public var deserializeData: (@Sendable (any Sendable) -> any Sendable)?
  /// Options for every query `hydrate` creates (under the key's own defaults).
  public var queries: QueryOptions?
  /// Options for every mutation `hydrate` creates: give `mutationFn` here or with
  /// `setMutationDefaults` so that `resumePausedMutations()` can run a restored mutation.
  public var mutations: MutationOptions?

  /// Creates options.
  public init(deserializeData: (@Sendable (any Sendable) -> any Sendable)? = nil, queries: QueryOptions? = nil, mutations: MutationOptions? = nil) {
    self.deserializeData = deserializeData
    self.queries = queries
    self.mutations = mutations
  }
}

/// Errors of dehydration and of snapshots.
public enum HydrationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A pending query dehydrated with its promise failed, and `shouldRedactErrors` did not return
  /// `false` (TanStack's `new Error('redacted')`).
  case redacted
  /// A value in the cache cannot be written as JSON (it is neither `JSONValue`, `InfiniteData`
  /// nor `Encodable`).
  case notEncodable(type: String)
  /// A snapshot's JSON does not have the expected shape.
  case malformed(String)

  /// The message: `redacted` as TanStack's.
  public var description: String {
    switch self {
    case .redacted: return "redacted"
    case .notEncodable(let type): return "a value of type \(type) cannot be written as JSON: make it Encodable or give serializeData"
    case .malformed(let detail): return "malformed snapshot: \(detail)"
    }
  }
}

/// An error read back from a snapshot: the JSON it was written as (`{}` for an `Error`, as
/// `JSON.stringify` writes one).
public struct DehydratedError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The error's JSON.
  @DeepReleased public var json: JSONValue
  /// Creates one.
  public init(json: JSONValue) { self.json = json }
  /// The JSON string's text, or the JSON.
  public var description: String { json.stringValue ?? json.canonicalJSON }
}
