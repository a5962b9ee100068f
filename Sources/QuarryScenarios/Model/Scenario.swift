import Quarry
/// One decoded fixture: a scenario with a stable ID (see `Specs/README.md`).
public struct Scenario: Sendable {
  /// The stable ID, e.g. `dedup-001`.
  public var id: String
  /// What the scenario shows.
  public var title: String
  /// The fixture's path, for messages.
  public var file: String
  /// The `client` member (`defaultOptions`), or `nil`.
  public var client: JSONValue?
  /// Scripted query functions by name.
  public var functions: [String: [Outcome]]
  /// Scripted mutation callbacks by name (their validated JSON specs).
  public var callbacks: [String: JSONValue]
  /// The steps, in order.
  public var steps: [Step]
  /// Scripted streams (`streamedQuery` query functions) by name.
  public var streams: [String: StreamScript] = [:]

  /// Creates a scenario.
  public init(id: String, title: String, file: String, client: JSONValue?, functions: [String: [Outcome]], callbacks: [String: JSONValue] = [:], steps: [Step]) {
    self.id = id
    self.title = title
    self.file = file
    self.client = client
    self.functions = functions
    self.callbacks = callbacks
    self.steps = steps
  }
}

/// One scripted outcome of a query function call.
public struct Outcome: Sendable, Equatable {
  /// How a call ends.
  public enum Result: Sendable, Equatable {
    /// Resolve with this value (possibly a `$fn` recipe or `$undefined`).
    case value(JSONValue)
    /// Reject with an `Error` of this message.
    case error(String)
    /// Reject with this value, which is not an `Error` (`reject`).
    case rejection(JSONValue)
    /// Throw an `Error` of this message when called, before returning a promise (`throwSync`).
    case syncError(String)
  }
  /// Virtual delay in ms; `nil` resolves without a timer.
  public var after: Int?
  /// The result.
  public var result: Result
  /// Whether the function reads its abort signal.
  public var readSignal: Bool
  /// How many calls this outcome serves; `nil` means forever.
  public var times: Int?
  /// Whether the function listens to its signal's `abort` event (which reads the signal).
  public var onAbort: Bool

  /// Creates an outcome.
  public init(after: Int?, result: Result, readSignal: Bool = false, times: Int? = 1, onAbort: Bool = false) {
    self.after = after
    self.result = result
    self.readSignal = readSignal
    self.times = times
    self.onAbort = onAbort
  }
}

/// One step of a scenario: an operation with its arguments.
public struct Step: Sendable {
  /// The step's index in `steps`.
  public var index: Int
  /// Absolute virtual time at which it runs, or `nil` for "now".
  public var at: Int?
  /// The operation name, e.g. `fetchQuery`.
  public var operation: String
  /// The operation's arguments (an object).
  public var arguments: JSONValue
  /// The handle name from `as`, if any.
  public var handle: String?
  /// The operations of a `tick` step, performed one after another with no draining between them.
  public var substeps: [Step]
  /// The JSON path of the step object, e.g. `steps[3]` or `steps[3].tick[1]`.
  public var location: String

  /// Creates a step.
  public init(index: Int, at: Int?, operation: String, arguments: JSONValue, handle: String?, substeps: [Step] = [], location: String? = nil) {
    self.index = index
    self.at = at
    self.operation = operation
    self.arguments = arguments
    self.handle = handle
    self.substeps = substeps
    self.location = location ?? "steps[\(index)]"
  }

  /// The JSON path of this step's arguments, e.g. `steps[3].fetchQuery`.
  public var path: String { "\(location).\(operation)" }
}

/// A fixture that cannot be replayed: where it is wrong and what was expected.
public struct FixtureError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The fixture file.
  public var file: String
  /// The JSON path, e.g. `steps[3].fetchQuery.queryKey`.
  public var path: String
  /// What was expected there.
  public var expected: String

  /// Creates a fixture error.
  public init(file: String, path: String, expected: String) {
    self.file = file
    self.path = path
    self.expected = expected
  }

  /// `file: path: expected`.
  public var description: String { "\(file): \(path): \(expected)" }
}

/// What replaying one scenario produced.
public struct ScenarioRun: Sendable {
  /// The trace, one canonical JSON line per event.
  public var trace: [String]
  /// Failed checks, each a readable message naming the step and virtual time.
  public var failures: [String]
  /// Set when the fixture turned out malformed while replaying (an unknown handle, a bad option).
  public var error: FixtureError?

  /// Creates a run.
  public init(trace: [String] = [], failures: [String] = [], error: FixtureError? = nil) {
    self.trace = trace
    self.failures = failures
    self.error = error
  }
}
