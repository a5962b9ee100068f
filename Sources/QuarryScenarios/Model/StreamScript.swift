import Quarry
/// A scripted stream: a query function made by `streamedQuery` whose stream function returns a
/// sequence of scripted chunks, one outcome per call (`streams` in a fixture, `Specs/README.md`).
public struct StreamScript: Sendable, Equatable {
  /// `"reset"`, `"append"` or `"replace"`; `nil` for TanStack's default (`reset`).
  public var refetchMode: String?
  /// The reducer recipe's name (`sum`, `concat`, `latest`); `nil` for the default (append to an array).
  public var reducer: String?
  /// The `initialValue` given with `reducer`.
  public var initialValue: JSONValue?
  /// What each call's stream produces, used in order.
  public var outcomes: [StreamOutcome]

  /// Creates a stream script.
  public init(refetchMode: String? = nil, reducer: String? = nil, initialValue: JSONValue? = nil, outcomes: [StreamOutcome]) {
    self.refetchMode = refetchMode
    self.reducer = reducer
    self.initialValue = initialValue
    self.outcomes = outcomes
  }
}

/// What one call of a scripted stream function produces.
public struct StreamOutcome: Sendable, Equatable {
  /// The chunks in order; only the last may be an error.
  public var chunks: [StreamChunk]
  /// Whether the stream function reads its abort signal.
  public var readSignal: Bool
  /// How many calls this outcome serves; `nil` means forever.
  public var times: Int?

  /// Creates a stream outcome.
  public init(chunks: [StreamChunk], readSignal: Bool = false, times: Int? = 1) {
    self.chunks = chunks
    self.readSignal = readSignal
    self.times = times
  }
}

/// One scripted chunk: a value, or the error that ends the stream, after an optional delay.
public struct StreamChunk: Sendable, Equatable {
  /// Virtual delay in ms before the chunk, counted from when it is asked for; `nil`: no timer.
  public var after: Int?
  /// The chunk's value, or the stream's error.
  public var result: Outcome.Result

  /// Creates a chunk.
  public init(after: Int?, result: Outcome.Result) {
    self.after = after
    self.result = result
  }
}
