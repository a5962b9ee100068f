/// A client's cache as data: the queries and mutations `dehydrate` kept, to be given to
/// `hydrate` in another client, another process or after a relaunch (TanStack's
/// `DehydratedState`).
///
/// It is `Codable`, and its JSON has TanStack's shape (`JSON.stringify(dehydrate(client))`), so a
/// snapshot dehydrated by TanStack hydrates in Quarry and the other way round:
///
/// ```swift
/// let snapshot = dehydrate(client)
/// let json = try JSONEncoder().encode(snapshot)   // {"mutations":[],"queries":[{"queryKey":["todos"],...}]}
/// hydrate(QueryClient(), try JSONDecoder().decode(DehydratedState.self, from: json))
/// ```
///
/// Data, variables and contexts are encoded as `JSONValue`, `InfiniteData` or `Encodable`
/// values; decoded, they are `JSONValue` (read them typed with `QueryState.data(as:)`, which
/// decodes `Decodable` types from JSON). Errors are encoded as TanStack's are (`{}`, an `Error`'s
/// JSON), or as their own JSON when they are `Encodable`.
public struct DehydratedState: Sendable {
  /// The mutations, in mutation-cache order.
  public var mutations: [DehydratedMutation]
  /// The queries, in query-cache order.
  public var queries: [DehydratedQuery]

  /// Creates a snapshot.
  public init(mutations: [DehydratedMutation] = [], queries: [DehydratedQuery] = []) {
    self.mutations = mutations
    self.queries = queries
  }
}

/// One query of a ``DehydratedState`` (TanStack's `DehydratedQuery`). Options are never carried.
public struct DehydratedQuery: Sendable {
  /// The key's hash.
  public var queryHash: String
  /// The key.
  public var queryKey: QueryKey
  /// The query's full state when dehydrated (its data passed through `serializeData`).
  public var state: QueryState
  /// The running fetch of a pending query, when dehydrated in memory (not encoded: JSON has no
  /// promises, and TanStack writes `{}`).
  package var promise: Promise<any Sendable>?
  /// Whether the query was pending with a fetch promise (`"promise":{}` in JSON).
  public var hasPromise: Bool
  /// The query's `meta`, when truthy.
  @DeepReleased public var meta: JSONValue? = nil
  /// `"infinite"` for an infinite query.
  public var queryType: String?
  /// When it was dehydrated, in ms; `nil` in snapshots from before TanStack recorded it.
  public var dehydratedAt: Double?

  /// Creates a dehydrated query.
  public init(queryHash: String, queryKey: QueryKey, state: QueryState, meta: JSONValue? = nil, queryType: String? = nil, dehydratedAt: Double? = nil) {
    self.queryHash = queryHash
    self.queryKey = queryKey
    self.state = state
    self.hasPromise = false
    self.meta = meta
    self.queryType = queryType
    self.dehydratedAt = dehydratedAt
  }
}

/// One mutation of a ``DehydratedState`` (TanStack's `DehydratedMutation`).
public struct DehydratedMutation: Sendable {
  /// The mutation key.
  public var mutationKey: QueryKey?
  /// The mutation's full state.
  public var state: MutationState
  /// The mutation's `meta`, when truthy.
  @DeepReleased public var meta: JSONValue? = nil
  /// The mutation's scope, when set.
  public var scope: MutationScope?

  /// Creates a dehydrated mutation.
  public init(mutationKey: QueryKey? = nil, state: MutationState, meta: JSONValue? = nil, scope: MutationScope? = nil) {
    self.mutationKey = mutationKey
    self.state = state
    self.meta = meta
    self.scope = scope
  }
}
