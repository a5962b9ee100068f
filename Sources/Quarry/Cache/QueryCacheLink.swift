/// A cache and its client, held weakly: one per ``QueryCache``, shared by its queries.
final class QueryCacheLink: @unchecked Sendable {
  // Safe: both members are written once, while the client is being created (before any other
  // thread can reach it), and only read afterwards.
  /// The cache (weak: a fetch may settle after its client and cache are gone).
  weak var cache: QueryCache?
  /// The cache's client (weak: the client owns the cache).
  weak var client: QueryClient?
}
