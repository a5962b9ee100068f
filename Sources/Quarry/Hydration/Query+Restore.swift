/// What the per-query persister (QuarryPersist's `QueryPersister`) needs from a query, as
/// TanStack's `experimental_createQueryPersister` uses `query.setState` and `query.fetch()`.
extension Query {
  /// Sets the restored timestamps (TanStack's `query.setState({dataUpdatedAt, errorUpdatedAt})`).
  package func restoreTimestamps(dataUpdatedAt: Double, errorUpdatedAt: Double) {
    engine.lock.sync {
      var next = stateStorage
      next.dataUpdatedAt = dataUpdatedAt
      next.errorUpdatedAt = errorUpdatedAt
      setState(next)
    }
  }

  /// Starts a fetch with the query's own options, deduplicated onto a running one (TanStack's
  /// `query.fetch()`); its outcome lands in the state.
  package func startFetch() {
    engine.lock.sync { _ = fetch() }
  }
}

/// A query's state reads and writes TanStack's JSON (`data` absent when undefined, errors as `{}`
/// unless `Encodable`); decoded data is `JSONValue`.
extension QueryState: Codable {
  /// Reads the state's JSON.
  public init(from decoder: any Decoder) throws {
    try self.init(json: JSONValue(from: decoder))
  }

  /// Writes the state's JSON; throws ``HydrationError/notEncodable(type:)`` for data that cannot be
  /// written.
  public func encode(to encoder: any Encoder) throws {
    try json().encode(to: encoder)
  }
}

/// A mutation's state reads and writes TanStack's JSON.
extension MutationState: Codable {
  /// Reads the state's JSON.
  public init(from decoder: any Decoder) throws {
    try self.init(json: JSONValue(from: decoder))
  }

  /// Writes the state's JSON.
  public func encode(to encoder: any Encoder) throws {
    try json().encode(to: encoder)
  }
}
