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
    QueryKey(keyParts(F.keyPrefix, variables))
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
  public var queryKey: QueryKey { QueryKey(keyParts(F.keyPrefix + ["infinite"], variables)) }

  /// Every key of `F`, whatever the variables.
  public static var all: QueryKey { QueryKey(F.keyPrefix + ["infinite"]) }
}

/// `prefix` followed by the key part variables contribute: none for ``QueryVoid``, else their
/// JSON form.
@inlinable
func keyParts<V: Encodable>(_ prefix: [JSONValue], _ variables: V) -> [JSONValue] {
  if V.self == QueryVoid.self { return prefix }
  let part: JSONValue
  do {
    part = try JSONValueEncoder.encode(variables)
  } catch {
    // Only a throwing custom `encode(to:)` gets here; keep the key distinct and stable.
    part = .string(String(reflecting: variables))
  }
  // A one-part prefix (the type's name, unless `keyPrefix` is declared) and the part as one
  // literal: appending to the shared prefix copied it into a grown buffer.
  if prefix.count == 1 { return [prefix[0], part] }
  return prefix + [part]
}
