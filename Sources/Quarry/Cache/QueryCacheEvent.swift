/// Something that happened in a ``QueryCache`` (TanStack's `QueryCacheNotifyEvent`).
public enum QueryCacheEvent: Sendable {
  /// A query was added.
  case added(Query)
  /// A query was removed.
  case removed(Query)
  /// A query's state changed by `action`.
  case updated(Query, QueryAction)
  /// An observer started watching a query.
  case observerAdded(Query, QueryObserver)
  /// An observer stopped watching a query.
  case observerRemoved(Query, QueryObserver)
  /// An observer computed a new result.
  case observerResultsUpdated(Query)
  /// An observer's options changed.
  case observerOptionsUpdated(Query, QueryObserver)

  /// TanStack's event `type` string.
  public var type: String {
    switch self {
    case .added: return "added"
    case .removed: return "removed"
    case .updated: return "updated"
    case .observerAdded: return "observerAdded"
    case .observerRemoved: return "observerRemoved"
    case .observerResultsUpdated: return "observerResultsUpdated"
    case .observerOptionsUpdated: return "observerOptionsUpdated"
    }
  }

  /// The query the event is about.
  public var query: Query {
    switch self {
    case .added(let q), .removed(let q), .updated(let q, _), .observerAdded(let q, _),
      .observerRemoved(let q, _), .observerResultsUpdated(let q), .observerOptionsUpdated(let q, _):
      return q
    }
  }

  /// The observer the event is about, if any.
  public var observer: QueryObserver? {
    switch self {
    case .observerAdded(_, let o), .observerRemoved(_, let o), .observerOptionsUpdated(_, let o): return o
    default: return nil
    }
  }

  /// The action, for `updated`.
  public var action: QueryAction? {
    if case .updated(_, let a) = self { return a } else { return nil }
  }
}
