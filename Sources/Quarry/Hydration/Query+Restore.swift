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
