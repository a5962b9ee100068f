import Foundation
import Synchronization

/// The scheduler the engine uses: the client's ``QueryScheduler``, with every job and timer
/// that a transaction of the engine lock creates recorded as an effect of that transaction.
///
/// Query functions start after the transaction that called them (never under the lock), so
/// the jobs and timers a transaction creates must be created then too, in the order recorded:
/// equal due times fire in creation order, and a query function's first `sleep` must be created
/// between the timers that TanStack creates before and after calling it.
///
/// When nothing is recorded yet (outside a transaction, or before its first effect), creating a
/// job or timer at once puts it exactly where recording it would, so it is created at once: the
/// common case (a new query's gc timer) then costs the base scheduler's timer and nothing more.
/// Engine ids tell the two kinds apart by their lowest bit: even ids are the base timer's own id
/// (shifted left by one), odd ids are numbers of this scheduler's table (recorded timers).
final class TransactionalScheduler: QueryScheduler, @unchecked Sendable {
  // Safe: `base`, `lock`, `directIDs` and `lockEnqueuesOnBase` are immutable; `timers` and `nextID` are guarded by
  // `timersLock`.
  let base: any QueryScheduler
  private let lock: EngineLock
  /// Whether the base scheduler numbers its timers from 1 upwards (the package's schedulers),
  /// so its ids fit in 63 bits and can be handed out directly.
  private let directIDs: Bool
  /// A `Mutex` (an `NSLock` cost about 200 instructions per lock and unlock), taken through
  /// ``withTimers(_:)``, which tells the thread sanitizer its ordering (Mutex+Sanitizer.swift).
  private let timersLock = Mutex(())
  // `nextID` and `timers` are `@exclusivity(unchecked)`. Safe: accessed only while `timersLock`
  // (not recursive) is held, so no second access can begin while one is open.
  @exclusivity(unchecked) private var nextID: UInt64 = 0
  /// Live recorded timers by engine number. Each holds its base timer's id once created
  /// (guarded by `timersLock` too), so creating it needs no second look-up in this table. The
  /// numbers are 1, 2, 3, …, so recent ones are found by index (``TimerPayloads``' window):
  /// a `Dictionary` insertion hashed the number and cost about 300 instructions per timer.
  @exclusivity(unchecked) private var timers = TimerPayloads<RecordedTimer>()

  /// The base scheduler when it is a ``VirtualScheduler`` (it cancels many timers at once, and
  /// takes a timer's body without the protocol's witness). Unretained: read as a strong
  /// reference, each use retained and released it (about 40 instructions per gc timer).
  // Safe: `base` is the same object and holds it for this scheduler's whole life.
  private unowned(unsafe) let virtualBase: VirtualScheduler?

  /// Whether `lock` enqueues the jobs it records on `base` itself (``EngineLock/recordJob(_:)``:
  /// no closure context per recorded job).
  private let lockEnqueuesOnBase: Bool

  init(base: any QueryScheduler, lock: EngineLock) {
    self.base = base
    self.lock = lock
    // A scheduler that is not a class is boxed anew by each `as AnyObject`: never identical.
    if let jobs = lock.jobScheduler {
      lockEnqueuesOnBase = (jobs as AnyObject) === (base as AnyObject)
    } else {
      lockEnqueuesOnBase = false
    }
    self.directIDs = base is any SequentialTimerIDs
    self.virtualBase = base as? VirtualScheduler
  }

  /// Runs `body` holding `timersLock`.
  @inline(__always)
  private func withTimers<R: Sendable>(_ body: () -> R) -> R {
    timersLock.withLock(orderingFor: self) { _ in body() }
  }

  func now() -> Double { base.now() }

  /// The base's executor: a ``VirtualScheduler`` is its own (answered without the protocol's
  /// two witnesses, this one's and the base's, per query function started).
  var taskExecutor: (any TaskExecutor)? {
    if let virtualBase { return virtualBase }
    return base.taskExecutor
  }

  func enqueue(_ job: @escaping @Sendable () -> Void) {
    if lock.canActNow {
      base.enqueue(job)
    } else if lockEnqueuesOnBase {
      lock.recordJob(job)
    } else {
      lock.record(.plumbing) { [base] in base.enqueue(job) }
    }
  }

  func setTimeout(_ delay: Double, _ body: @escaping @Sendable () -> Void) -> TimerID {
    if directIDs && lock.canActNow { return direct(base.setTimeout(delay, body)) }
    return schedule(RecordedTimer(delay: delay, body: body, repeating: false))
  }

  /// Where a timer set now by an owner that can record its own creation goes, decided with one
  /// look at the lock (asked apart, whether the owner records it and then ``setTimeout(_:_:)``'s
  /// own question looked twice: about 30 instructions per gc timer).
  enum TimerPlacement {
    /// Created at once (``createTimeoutNow(_:_:)``): nothing recorded comes before it.
    case now
    /// Recorded by its owner, who creates it with ``createTimeoutNow(_:_:)`` in its effect: the
    /// base numbers its timers (its ids are handed out directly) and this thread holds the lock
    /// with effects recorded already, so a timer created now would come before them. A query's
    /// gc timer is recorded this way (`Query.scheduleGc`): the query is the record, so the timer
    /// needs no object of its own.
    case recordedByOwner
    /// Through ``setTimeout(_:_:)``: the base does not number its timers.
    case scheduler
  }

  /// ``TimerPlacement`` for a timer set by the calling thread now.
  @inline(__always)
  var timerPlacement: TimerPlacement {
    guard directIDs else { return .scheduler }
    return lock.canActNow ? .now : .recordedByOwner
  }

  /// Creates a base timeout now and returns its engine id; the caller has decided that now is
  /// its place (outside a transaction with effects, or in its owner's recorded creation).
  /// Only for a base that numbers its timers (not ``TimerPlacement/scheduler``). A
  /// ``VirtualScheduler`` base is called directly (`addTimeout`), not through the protocol's
  /// witness thunk.
  func createTimeoutNow(_ delay: Double, _ body: __owned @escaping @Sendable () -> Void) -> TimerID {
    if let virtualBase { return direct(virtualBase.addTimeout(delay, body)) }
    return direct(base.setTimeout(delay, body))
  }

  /// The engine id an owner keeps while its timer's creation is recorded and has not run
  /// (``TimerPlacement/recordedByOwner``): odd, as a recorded number, but never handed out, so
  /// clearing it here changes nothing (its owner forgets the creation itself).
  static let pendingCreation = TimerID(rawValue: UInt64.max)

  func setInterval(_ interval: Double, _ body: @escaping @Sendable () -> Void) -> TimerID {
    if directIDs && lock.canActNow { return direct(base.setInterval(interval, body)) }
    return schedule(RecordedTimer(delay: interval, body: body, repeating: true))
  }

  func clearTimeout(_ id: TimerID) {
    if id.rawValue & 1 == 0 {
      base.clearTimeout(TimerID(rawValue: id.rawValue >> 1))
      return
    }
    if id == Self.pendingCreation { return }
    // The timer is released after the lock (its body may hold the last reference to user data).
    let removed: RecordedTimer? = withTimers {
      guard let timer = timers.remove(id.rawValue >> 1) else { return nil }
      timer.isLive = false
      return timer
    }
    if let baseID = removed?.baseID { base.clearTimeout(baseID) }
  }

  /// ``clearTimeout(_:)`` for each of `ids` (distinct); a virtual base scheduler cancels the timers created
  /// at once under one lock (`clear()` cancels every query's gc timer).
  func clearTimeouts(_ ids: [TimerID]) {
    guard let virtualBase else {
      for id in ids { clearTimeout(id) }
      return
    }
    // All created at once (the gc timers of a cache whose transactions recorded none): the base
    // reads their numbers from `ids` itself (a second array of them cost about 20 instructions
    // per timer).
    if ids.allSatisfy({ $0.rawValue & 1 == 0 }) {
      virtualBase.clearTimeouts(engineIDs: ids)
      return
    }
    var direct: [TimerID] = []
    direct.reserveCapacity(ids.count)
    for id in ids {
      if id.rawValue & 1 == 0 { direct.append(TimerID(rawValue: id.rawValue >> 1)) } else { clearTimeout(id) }
    }
    virtualBase.clearTimeouts(direct)
  }

  /// The engine id of a base timer created at once (even).
  @inline(__always)
  private func direct(_ baseID: TimerID) -> TimerID { TimerID(rawValue: baseID.rawValue << 1) }

  /// Allocates an engine number and creates the base timer now, or when the transaction ends.
  private func schedule(_ timer: RecordedTimer) -> TimerID {
    timer.scheduler = self
    let id: UInt64 = withTimers {
      nextID += 1
      timer.id = nextID
      timers.insert(nextID, timer)
      return nextID
    }
    // Closures capturing only the timer object cost no context of their own.
    if lock.isHeldByCurrentThread { lock.record(.plumbing) { timer.start() } } else { timer.start() }
    return TimerID(rawValue: id << 1 | 1)
  }

  /// Creates `timer`'s base timer, unless it was cleared before its creation ran.
  fileprivate func start(_ timer: RecordedTimer) {
    withTimers {
      // Cleared before its creation ran: never create it.
      guard timer.isLive else { return }
      timer.baseID = timer.repeating
        ? base.setInterval(timer.delay, timer.body)
        : base.setTimeout(timer.delay) { timer.fire() }
    }
  }

  fileprivate func fired(_ id: UInt64) {
    // Released after the lock (the base timer's closure still holds it here anyway).
    let removed = withTimers { timers.remove(id) }
    withExtendedLifetime(removed) {}
  }
}

/// A timer whose creation a transaction recorded: what the base timer needs, in one object, so
/// that the recorded creation and the base timer's callback are closures over it alone (three
/// closure contexts per timer before).
private final class RecordedTimer: @unchecked Sendable {
  // Safe: `scheduler` is written once by `schedule`, before the timer object is shared; `id` is
  // written there under the scheduler's `timersLock`, before the recorded effect and the base
  // timer are created; `isLive` and `baseID` are only touched under `timersLock`; the rest is
  // immutable.
  let delay: Double
  let body: @Sendable () -> Void
  let repeating: Bool
  var id: UInt64 = 0
  /// Whether the timer is still in its scheduler's table (`false` once cleared: a creation
  /// still recorded then never runs).
  var isLive = true
  /// The base timer, once created.
  var baseID: TimerID?
  /// Weak: a base scheduler that outlives the engine must not keep it alive through its timers.
  weak var scheduler: TransactionalScheduler?

  init(delay: Double, body: @escaping @Sendable () -> Void, repeating: Bool) {
    self.delay = delay
    self.body = body
    self.repeating = repeating
  }

  func start() { scheduler?.start(self) }

  /// The base timeout fired: forget its number, then run the body.
  func fire() {
    scheduler?.fired(id)
    body()
  }
}

/// A scheduler that numbers its timers 1, 2, 3, … (its ids fit in 63 bits), so the engine can
/// hand its ids out directly (``TransactionalScheduler``).
protocol SequentialTimerIDs {}

extension VirtualScheduler: SequentialTimerIDs {}
extension ClockScheduler: SequentialTimerIDs {}
