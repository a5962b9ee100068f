/// When a ``LiveQueryController`` fetches: GRDB's idle / fetching / fetching-and-needs-fetch
/// machine, plus pause and descriptor changes. A value with no locks, no tasks and no closures;
/// each method returns what the controller must do.
///
/// Each fetch has an id; only the completion of the *current* fetch may be applied, so a fetch for
/// an older descriptor can never overwrite a later one, however fast the later one is. Within one
/// descriptor, fetches never overlap: a change during a fetch is remembered (`needsFetch`) and
/// fetched once, after it.
struct LiveFetchMachine: Sendable {
  /// The phases.
  enum Phase: Sendable, Equatable {
    /// Not observing.
    case stopped
    /// Observing, no fetch under way.
    case idle
    /// Fetch `id` is under way; `needsFetch` when something changed since it began.
    case fetching(id: Int, needsFetch: Bool)
  }

  /// What to start.
  enum StartAction: Sendable, Equatable {
    /// Nothing.
    case none
    /// Start fetch `id`.
    case fetch(id: Int)
  }

  /// What to do with a finished fetch.
  enum CompletionAction: Sendable, Equatable {
    /// Drop its result: it is stale, or the controller is paused or stopped.
    case discard
    /// Apply its result, then start fetch `thenFetch` if not nil.
    case apply(thenFetch: Int?)
  }

  private(set) var phase = Phase.stopped
  private(set) var isPaused = false
  /// Something changed while paused: fetch on resume.
  private(set) var isDirty = false
  private var lastID = 0

  /// Whether no fetch is under way.
  var isSettled: Bool {
    if case .fetching = phase { return false }
    return true
  }

  /// Whether fetch `id` is the one whose result counts.
  func isCurrent(_ id: Int) -> Bool {
    if case .fetching(id, _) = phase { return true }
    return false
  }

  /// Starts observing: the initial fetch (on resume, when paused).
  mutating func start() -> StartAction {
    guard phase == .stopped else { return .none }
    phase = .idle
    return changed()
  }

  /// Something the results depend on changed (a commit, a refresh).
  mutating func changed() -> StartAction {
    switch phase {
    case .stopped:
      return .none
    case _ where isPaused:
      isDirty = true
      return .none
    case .idle:
      return newFetch()
    case .fetching(let id, _):
      phase = .fetching(id: id, needsFetch: true)
      return .none
    }
  }

  /// The descriptor changed: a running fetch is stale and the new one starts at once.
  mutating func restart() -> StartAction {
    switch phase {
    case .stopped:
      return .none
    case _ where isPaused:
      phase = .idle  // a running fetch can no longer complete
      isDirty = true
      return .none
    case .idle, .fetching:
      return newFetch()
    }
  }

  /// Fetch `id` finished.
  mutating func completed(_ id: Int) -> CompletionAction {
    guard case .fetching(id, let needsFetch) = phase else { return .discard }
    if isPaused {
      phase = .idle
      isDirty = true
      return .discard
    }
    if needsFetch, case .fetch(let next) = newFetch() { return .apply(thenFetch: next) }
    phase = .idle
    return .apply(thenFetch: nil)
  }

  /// Stops fetching; changes are remembered for ``resume()``.
  mutating func pause() { isPaused = true }

  /// Fetches once if anything changed while paused.
  mutating func resume() -> StartAction {
    guard isPaused else { return .none }
    isPaused = false
    guard isDirty else { return .none }
    isDirty = false
    return changed()
  }

  /// Stops observing; a running fetch is dropped.
  mutating func stop() {
    phase = .stopped
    isDirty = false
  }

  private mutating func newFetch() -> StartAction {
    lastID += 1
    phase = .fetching(id: lastID, needsFetch: false)
    return .fetch(id: lastID)
  }
}
