/// A value that loads: not started, loading (showing the previous value), loaded, or failed
/// (keeping the previous value). The stream proposal's `Loadable`.
public enum Loadable<Value: Sendable, Failure: Error>: Sendable {
  /// Nothing was asked for yet.
  case notStarted
  /// A load is under way; `previous` is what was shown before it.
  case loading(previous: Value?)
  /// The load finished with `Value`.
  case loaded(Value)
  /// The load failed; `previous` is the last value that loaded, still worth showing.
  case failed(Failure, previous: Value?)

  /// The value to show: the loaded one, or the previous one while loading or after a failure.
  public var value: Value? {
    switch self {
    case .notStarted: nil
    case .loading(let previous): previous
    case .loaded(let value): value
    case .failed(_, let previous): previous
    }
  }

  /// The error of a failed load.
  public var error: Failure? {
    if case .failed(let error, _) = self { return error }
    return nil
  }

  /// Whether a load is under way.
  public var isLoading: Bool {
    if case .loading = self { return true }
    return false
  }

  /// Whether the value finished loading (it may have failed since).
  public var isLoaded: Bool {
    if case .loaded = self { return true }
    return false
  }
}
