/// A cache and its client, held weakly: one per ``QueryCache``, shared by its queries.
final class QueryCacheLink: @unchecked Sendable {
  // Safe: `cache`, `hasFetchCallbacks` and `client` are written once, while the client is being
  // created (before any other thread can reach it), and only read afterwards; `hasListeners`
  // below.
  /// The cache (weak: a fetch may settle after its client and cache are gone).
  weak var cache: QueryCache? {
    didSet {
      let config = cache?.config
      hasFetchCallbacks = config?.onSuccess != nil || config?.onError != nil || config?.onSettled != nil
    }
  }
  /// Whether the cache's config has a fetch outcome callback (`onSuccess`, `onError` or
  /// `onSettled`; the config never changes): a settled fetch loads the weak `cache` for them
  /// only then (the weak load and the retain and release of the cache cost about 180
  /// instructions per fetch).
  private(set) var hasFetchCallbacks = false
  /// The cache's client (weak: the client owns the cache).
  weak var client: QueryClient?
  /// Whether the cache has listeners (`QueryCache.subscribe`): a query's state change tells the
  /// cache only then, without loading the weak reference for nothing (a weak load and the
  /// retain and release of an object with weak references cost about 130 instructions per
  /// write).
  // Safe (`@exclusivity(unchecked)`): written by the cache as a listener is added or removed and
  // read by its queries, always under the engine lock, by single loads and stores.
  @exclusivity(unchecked) var hasListeners = false
}
