/// Anything that names cache entries: a typed key, or all keys of one function type.
///
/// Used by `invalidating:` lists and by the client's typed invalidation, which matches by
/// prefix as TanStack's `invalidateQueries({ queryKey })` does.
public protocol CacheKeyRepresentable: Sendable {
  /// The engine key (a prefix of every key it names).
  var queryKey: QueryKey { get }
}

extension QueryKey: CacheKeyRepresentable {
  /// The key itself.
  public var queryKey: QueryKey { self }
}

/// The cache key of one ``QueryFunc`` with one set of variables (SwiftQuery's `QueryCacheKey`).
///
/// The engine key is the function type's ``QueryFunc/keyPrefix`` followed by the variables'
/// JSON form (nothing for ``QueryVoid``), so two function types never collide and a prefix
/// names every key of a type.
///
/// ```swift
/// let one = QueryCacheKey<FetchUser>(variables: 42)
/// print(one.queryKey)                    // ["QuarryExamplesTests.FetchUser",42]
/// try await client.invalidateQueries(one)
/// try await client.invalidateQueries(QueryCacheKey<FetchUser>.all)
/// ```
public struct QueryCacheKey<F: QueryFunc>: CacheKeyRepresentable, Hashable {
  /// The variables.
  public let variables: F.Variables

  /// The key for `variables`.
  public init(variables: F.Variables) { self.variables = variables }

  /// The engine key.
  @inlinable
  public var queryKey: QueryKey {
    // Inlinable, like the typed reads and writes that build it, so that it is specialized where
    // `F` is known (unspecialized, the key's metadata and its variables' were looked up per call).
    typedQueryKey(F.keyPrefix, variables)
  }

  /// Every key of `F`, whatever the variables.
  public static var all: QueryKey { QueryKey(F.keyPrefix) }
}

/// The cache key of one ``InfiniteQueryFunc`` with one set of variables. Infinite and plain
/// queries never share keys: the prefix adds `"infinite"`.
public struct InfiniteQueryCacheKey<F: InfiniteQueryFunc>: CacheKeyRepresentable, Hashable {
  /// The variables.
  public let variables: F.Variables

  /// The key for `variables`.
  public init(variables: F.Variables) { self.variables = variables }

  /// The engine key.
  @inlinable
  public var queryKey: QueryKey {
    // Inlinable for the reason ``QueryCacheKey/queryKey`` is: specialized where `F` is known.
    typedQueryKey(F.keyPrefix + ["infinite"], variables)
  }

  /// Every key of `F`, whatever the variables.
  public static var all: QueryKey { QueryKey(F.keyPrefix + ["infinite"]) }
}

/// The key of `prefix` followed by the part variables contribute: none for ``QueryVoid``, else
/// their JSON form.
@inlinable
func typedQueryKey<V: Encodable>(_ prefix: [JSONValue], _ variables: V) -> QueryKey {
  if V.self == QueryVoid.self { return QueryKey(prefix) }
  do {
    return try JSONValueEncoder.encodeKey(after: prefix, variables)
  } catch {
    // Only a throwing custom `encode(to:)` gets here; keep the key distinct and stable.
    return QueryKey(keyParts(prefix, .string(String(reflecting: variables))))
  }
}
