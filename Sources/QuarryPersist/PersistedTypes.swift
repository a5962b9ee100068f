import Foundation
import Quarry

/// The Swift types of restored data, by query key: restore decodes each matching query's JSON
/// into its type, so observers see typed data (`result.data as? [Todo]`) from the first render,
/// and a query whose stored data no longer decodes (its type changed) is dropped and reported
/// instead of restored.
///
/// ```swift
/// var types = PersistedTypes()
/// types.register([Todo].self, for: ["todos"])   // ["todos"] and every key it prefixes
/// ```
public struct PersistedTypes: Sendable {
  private var entries: [(queryKey: QueryKey, decode: @Sendable (Data) throws -> any Sendable)] = []

  /// No types: restored data stays `JSONValue`.
  public init() {}

  /// Decodes the data of queries whose key starts with `queryKey` as `T` (the first registration
  /// that matches wins).
  public mutating func register<T: Decodable & Sendable>(_ type: T.Type, for queryKey: QueryKey) {
    entries.append((queryKey, { try JSONDecoder().decode(T.self, from: $0) }))
  }

  /// `state` with every registered query's data decoded; the queries that fail are left out and
  /// reported to `onError` as ``UndecodableQueryError``.
  func decode(_ state: DehydratedState, onError: (any Error) -> Void) -> DehydratedState {
    guard !entries.isEmpty else { return state }
    var out = state
    out.queries = state.queries.compactMap { query in
      guard let entry = entries.first(where: { partialMatchKey(query.queryKey, $0.queryKey) }), let box = query.state.dataBox else {
        return query
      }
      do {
        let json = try JSONValue(encoding: box.value)
        var decoded = query
        decoded.state.dataBox = DataBox(try entry.decode(try JSONEncoder().encode(json)))
        return decoded
      } catch {
        onError(UndecodableQueryError(queryHash: query.queryHash, underlying: error))
        return nil
      }
    }
    return out
  }
}

/// A restored query whose data no longer decodes into its registered type; it was not restored.
public struct UndecodableQueryError: Error, CustomStringConvertible {
  /// The query's hash.
  public var queryHash: String
  /// The decoding error.
  public var underlying: any Error
  /// What happened.
  public var description: String { "stored data of \(queryHash) no longer decodes and was dropped: \(underlying)" }
}
