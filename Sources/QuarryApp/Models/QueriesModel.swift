import Observation

/// One query of a ``QueriesModel``: a typed function and its variables, as engine options.
public struct QueriesModelEntry: Sendable {
  /// The engine options.
  public let options: QueryOptions

  /// `queryFunc` with `variables`, on `client`.
  public init<F: QueryFunc>(_ queryFunc: F, _ variables: F.Variables, client: QueryClient) {
    options = client.queryOptions(queryFunc, variables)
  }
}

/// Many queries of different types watched at once, combined into one value for a view: the
/// app-level face of a ``QueriesObserver``.
///
/// ```swift
/// struct FetchName: QueryFunc { func run(_ id: Int) async throws -> String { "user \(id)" } }
/// struct FetchCount: QueryFunc { func run(_ id: Int) async throws -> Int { id * 10 } }
/// let dashboard = QueriesModel(client: client, queries: [
///   QueriesModelEntry(FetchName(), 1, client: client),
///   QueriesModelEntry(FetchCount(), 1, client: client),
/// ]) { results in "\(results[0].data as? String ?? "…"): \(results[1].data as? Int ?? 0)" }
/// print(dashboard.combined ?? "")
/// ```
@MainActor @Observable
public final class QueriesModel<Combined: Sendable> {
  /// The combined value, recomputed when a result changes.
  public private(set) var combined: Combined?
  /// Each query's result, in the order given.
  public private(set) var results: [QueryObserverResult] = []
  /// Whether the model waits for its ``RestoreGate`` before subscribing.
  public private(set) var isRestoring = false

  @ObservationIgnored private let observer: QueriesObserver
  @ObservationIgnored private let combine: @Sendable ([QueryObserverResult]) -> Combined
  @ObservationIgnored private let subscription = Subscription()

  /// Watches `queries` at once (subscribing at once, so each fetches if needed). With a
  /// `restoreGate` that is restoring, it shows the queries' current results (idle) and
  /// subscribes once the gate opens.
  public init(
    client: QueryClient, queries: [QueriesModelEntry], restoreGate: RestoreGate? = nil,
    combine: @escaping @Sendable ([QueryObserverResult]) -> Combined
  ) {
    self.combine = combine
    observer = QueriesObserver(client: client, queries: queries.map(\.options))
    guard let restoreGate, restoreGate.isRestoring else {
      subscribe()
      return
    }
    isRestoring = true
    apply(observer.getCurrentResult())
    restoreGate.whenRestored { [weak self] in
      self?.isRestoring = false
      self?.subscribe()
    }
  }

  private func subscribe() {
    let delivery = MainActorDelivery<[QueryObserverResult]> { [weak self] results in self?.apply(results) }
    subscription.replace(with: observer.subscribe { delivery.deliver($0) })
    apply(observer.getCurrentResult())
  }

  /// Replaces the queries: kept ones keep their observers, new ones start, removed ones stop.
  public func setQueries(_ queries: [QueriesModelEntry]) {
    observer.setQueries(queries.map(\.options))
    apply(observer.getCurrentResult())
  }

  private func apply(_ results: [QueryObserverResult]) {
    self.results = results
    combined = combine(results)
  }
}
