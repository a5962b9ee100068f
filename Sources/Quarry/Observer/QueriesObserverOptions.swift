/// Combines a queries observer's results into one value (TanStack's `combine`), with the
/// result properties it reads.
///
/// TanStack learns which properties `combine` reads by wrapping the results in proxies, and
/// then notifies only when one of them changes. Swift cannot see property reads, so a combine
/// names them: `reading: ["data"]` tracks `data` on every observer, as TanStack would after a
/// combine that reads `result.data`.
///
/// ```swift
/// let combine = QueriesCombine(reading: ["data"]) { results in results.map { $0.data as? String } }
/// ```
public final class QueriesCombine: Sendable {
  /// The result properties the function reads.
  public let reading: [String]
  /// The function; runs under the engine lock (a value callback: quick, never waiting for
  /// another thread that uses the client).
  public let call: @Sendable ([QueryObserverResult]) -> any Sendable

  /// Wraps `call`, which reads the result properties named in `reading`.
  public init(reading: [String] = [], _ call: @escaping @Sendable ([QueryObserverResult]) -> any Sendable) {
    self.reading = reading
    self.call = call
  }
}

/// The options of a ``QueriesObserver`` (TanStack's `QueriesObserverOptions`).
public struct QueriesObserverOptions: Sendable {
  /// Combines the results; listeners are then notified only when the combined value changed.
  public var combine: QueriesCombine?
  /// Creates options.
  public init(combine: QueriesCombine? = nil) { self.combine = combine }
}

/// What ``QueriesObserver/getOptimisticResult(_:combine:)`` returns.
public struct QueriesObserverOptimisticResult: Sendable {
  /// Each query's optimistic result, in request order.
  public let results: [QueryObserverResult]
  /// Combines `results` (or the given ones) with the combine passed, memoized by the observer;
  /// without a combine, returns the results themselves.
  public let combine: @Sendable ([QueryObserverResult]?) -> any Sendable
}
