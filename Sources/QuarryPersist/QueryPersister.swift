import Foundation
import Quarry

/// What the per-query persister stores for one query (TanStack's `PersistedQuery`).
public struct PersistedQuery: Sendable, Codable {
  /// The query's state when stored.
  public var state: QueryState
  /// The key.
  public var queryKey: QueryKey
  /// The key's hash.
  public var queryHash: String
  /// The buster it was stored with.
  public var buster: String

  private enum CodingKeys: String, CodingKey { case state, queryKey, queryHash, buster }

  /// Creates a record.
  public init(state: QueryState, queryKey: QueryKey, queryHash: String, buster: String) {
    self.state = state
    self.queryKey = queryKey
    self.queryHash = queryHash
    self.buster = buster
  }

  /// Reads TanStack's JSON.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    state = try c.decode(QueryState.self, forKey: .state)
    queryKey = QueryKey(try c.decode([JSONValue].self, forKey: .queryKey))
    queryHash = try c.decode(String.self, forKey: .queryHash)
    buster = try c.decodeIfPresent(String.self, forKey: .buster) ?? ""
  }

  /// Writes TanStack's JSON.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(state, forKey: .state)
    try c.encode(queryKey.parts, forKey: .queryKey)
    try c.encode(queryHash, forKey: .queryHash)
    try c.encode(buster, forKey: .buster)
  }
}

/// When a restored query fetches again (TanStack's `refetchOnRestore`).
public enum RefetchOnRestore: Sendable, Equatable {
  /// Never.
  case never
  /// When the restored query is stale (TanStack's `true`, the default).
  case ifStale
  /// Always (TanStack's `'always'`).
  case always
}

/// Fine-grained persistence, one stored record per query (TanStack's
/// `experimental_createQueryPersister`): wrap a query function with ``queryFn(_:)`` and a query
/// without data first looks in the storage (key `tanstack-query-<queryHash>`); a valid record
/// is returned without calling the query function, and on the next tick its timestamps are
/// restored and it refetches per ``RefetchOnRestore``. After a fetch the query is stored.
///
/// ```swift
/// let persister = QueryPersister(storage: try FileStorage(directory: cachesDirectory))
/// var todos = QueryOptions(queryKey: ["todos"])
/// todos.queryFn = persister.queryFn(.fn { _ in try await api.todos() })
/// ```
public final class QueryPersister: Sendable {
  /// The storage.
  public let storage: any PersistStorage
  /// Records with another buster are discarded.
  public let buster: String
  /// Records whose data is older than this many ms are discarded (default 24 h).
  public let maxAge: Double
  /// The storage key prefix (`<prefix>-<queryHash>`).
  public let prefix: String
  /// When a restored query fetches again.
  public let refetchOnRestore: RefetchOnRestore
  /// Only queries matching these filters are restored and stored.
  public let filters: QueryFilters?

  /// Creates a persister with TanStack's defaults.
  public init(storage: any PersistStorage, buster: String = "", maxAge: Double = 1000 * 60 * 60 * 24, prefix: String = "tanstack-query", refetchOnRestore: RefetchOnRestore = .ifStale, filters: QueryFilters? = nil) {
    self.storage = storage
    self.buster = buster
    self.maxAge = maxAge
    self.prefix = prefix
    self.refetchOnRestore = refetchOnRestore
    self.filters = filters
  }

  private func storageKey(_ queryHash: String) -> String { "\(prefix)-\(queryHash)" }

  private func isExpiredOrBusted(_ record: PersistedQuery, now: Double) -> Bool {
    guard record.state.dataUpdatedAt != 0 else { return true }
    return now - record.state.dataUpdatedAt > maxAge || record.buster != buster
  }

  private func decode(_ data: Data) throws -> PersistedQuery {
    try JSONDecoder().decode(PersistedQuery.self, from: data)
  }

  /// `queryFn` with persistence (TanStack's `persisterFn`, which its `persister` option applies).
  public func queryFn(_ queryFn: QueryFnOption) -> QueryFnOption {
    .fn { [self] context in
      guard let client = context.client, let query = client.queryCache.find(QueryFilters(queryKey: context.queryKey, exact: true)) else {
        return try await call(queryFn, context)
      }
      let scheduler = client.scheduler
      let matches = filters?.matches(query) ?? true
      if matches, query.state.data == nil,
        let record = retrieveQuery(query.queryHash, now: scheduler.now(), afterRestore: { [self] record in
          // On the next tick, as TanStack's `notifyManager.schedule`.
          _ = scheduler.setTimeout(0) { [self] in
            query.restoreTimestamps(dataUpdatedAt: record.state.dataUpdatedAt, errorUpdatedAt: record.state.errorUpdatedAt)
            if refetchOnRestore == .always || (refetchOnRestore == .ifStale && query.isStale()) {
              query.startFetch()
            }
          }
        })
      {
        return record
      }
      let result = try await call(queryFn, context)
      if matches {
        _ = scheduler.setTimeout(0) { [self] in try? persistQuery(query) }
      }
      return result
    }
  }

  private func call(_ queryFn: QueryFnOption, _ context: QueryFunctionContext) async throws -> any Sendable {
    guard case .function(let fn) = queryFn else { throw QuarryError.missingQueryFn(queryHash: context.queryKey.queryHash) }
    return try await fn.call(context)
  }

  /// The stored data of `queryHash` when the record is valid; an unreadable, expired or busted
  /// record is removed (TanStack's `retrieveQuery`). `afterRestore` gets a valid record.
  public func retrieveQuery(_ queryHash: String, now: Double, afterRestore: ((PersistedQuery) -> Void)? = nil) -> (any Sendable)? {
    let key = storageKey(queryHash)
    do {
      guard let stored = try storage.getItem(key), !stored.isEmpty else { return nil }
      guard let record = try? decode(stored) else {
        try storage.removeItem(key)
        return nil
      }
      if isExpiredOrBusted(record, now: now) {
        try storage.removeItem(key)
        return nil
      }
      afterRestore?(record)
      return record.state.data
    } catch {
      try? storage.removeItem(key)
      return nil
    }
  }

  /// Stores `query`'s state (TanStack's `persistQuery`).
  public func persistQuery(_ query: Query) throws {
    let record = PersistedQuery(state: query.state, queryKey: query.queryKey, queryHash: query.queryHash, buster: buster)
    try storage.setItem(storageKey(query.queryHash), try JSONEncoder().encode(record))
  }

  /// Stores the query of `queryKey` in `client`, if there is one (TanStack's `persistQueryByKey`).
  public func persistQueryByKey(_ queryKey: QueryKey, client: QueryClient) throws {
    if let query = client.queryCache.find(QueryFilters(queryKey: queryKey, exact: true)) { try persistQuery(query) }
  }

  /// Removes unreadable, expired and busted records (TanStack's `persisterGc`).
  public func persisterGc(now: Double) throws {
    for (key, value) in try storage.entries() where key.hasPrefix("\(prefix)-") {
      guard let record = try? decode(value), !isExpiredOrBusted(record, now: now) else {
        try storage.removeItem(key)
        continue
      }
    }
  }

  /// Writes every valid stored record matching `queryKey` (prefix match unless `exact`) into
  /// `client` with `setQueryData` at its `dataUpdatedAt` (TanStack's `restoreQueries`).
  public func restoreQueries(_ client: QueryClient, queryKey: QueryKey? = nil, exact: Bool = false) throws {
    for (key, value) in try storage.entries() where key.hasPrefix("\(prefix)-") {
      guard let record = try? decode(value), !isExpiredOrBusted(record, now: client.scheduler.now()) else {
        try storage.removeItem(key)
        continue
      }
      if let queryKey, !Self.matches(record, queryKey, exact: exact) { continue }
      if let data = record.state.data {
        _ = client.setQueryData(record.queryKey, value: data, updatedAt: record.state.dataUpdatedAt)
      }
    }
  }

  /// Removes stored records matching `queryKey` (all without one; TanStack's `removeQueries`).
  public func removeQueries(queryKey: QueryKey? = nil, exact: Bool = false) throws {
    for (key, value) in try storage.entries() where key.hasPrefix("\(prefix)-") {
      guard let queryKey else {
        try storage.removeItem(key)
        continue
      }
      guard let record = try? decode(value) else {
        try storage.removeItem(key)
        continue
      }
      if Self.matches(record, queryKey, exact: exact) { try storage.removeItem(key) }
    }
  }

  private static func matches(_ record: PersistedQuery, _ queryKey: QueryKey, exact: Bool) -> Bool {
    exact ? record.queryHash == queryKey.queryHash : partialMatchKey(record.queryKey, queryKey)
  }
}
