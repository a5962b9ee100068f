import Foundation
import Synchronization

/// A deterministic ``QueryScheduler`` on virtual time, for tests and the scenario runner.
///
/// Time moves only when ``advance(to:)`` or ``advance(by:)`` is called. Timers fire in
/// (due time, creation number) order, an interval keeping its creation number on every repeat,
/// and every queued job and task is drained after each one, so a run is the same every time.
/// Delays follow the fake timers TanStack's tests run on (sinon), as `Specs/README.md` states:
/// truncated to whole milliseconds; NaN, negative or 0 is due now, or 1 ms later when created
/// while a timer fires; a huge finite delay is not clamped (it comes due only if the clock gets
/// there); an infinite one never comes due. No delay traps. Pending timers are kept in a heap,
/// so adding, clearing and firing one costs O(log n) however many exist.
///
/// It is also the `TaskExecutor` that query functions run on: their jobs wait in the same FIFO
/// queue as enqueued jobs and run on the thread that calls ``advance(to:)`` or
/// ``runUntilIdle()``.
///
/// ```swift
/// let scheduler = VirtualScheduler()
/// let client = QueryClient(scheduler: scheduler)
/// var options = QueryOptions(queryKey: ["todos"])
/// options.queryFn = .fn { _ in await scheduler.sleep(100); return ["buy milk"] }
/// Task(executorPreference: scheduler) { await client.prefetchQuery(options) }
/// scheduler.advance(by: 100)   // the fetch has finished when this returns
/// client.getQueryData(["todos"])   // ["buy milk"]
/// ```
public final class VirtualScheduler: QueryScheduler, TaskExecutor, @unchecked Sendable {
  // Safe: every mutable field is guarded by `lock`; jobs run outside it.
  private enum Job {
    case closure(@Sendable () -> Void)
    case task(UnownedJob)
  }

  private struct Timer {
    var body: @Sendable () -> Void
    var interval: Double?
  }

  /// A `Mutex` (an atomic compare-and-swap when uncontended): an `NSLock` cost about 200
  /// instructions per lock and unlock, about eight per refetch. Taken through ``locked(_:)``,
  /// which tells the thread sanitizer its ordering (Mutex+Sanitizer.swift).
  private let lock = Mutex(())
  // The fields below are `@exclusivity(unchecked)`. Safe: each is accessed only while `lock` is
  // held, and `lock` is not recursive, so code re-entering the scheduler while one access is
  // open (a deinit run by a release inside the lock) would deadlock before a second access could
  // begin; no two accesses can overlap. The dynamic check cost about 60 instructions per
  // access, nine or so per refetch (jobs queued and run, timers set).
  @exclusivity(unchecked) private var current: Double
  @exclusivity(unchecked) private var timers = TimerQueue<Double, Timer>()
  /// The queued jobs, in a ring of `jobCapacity` slots (0 or a power of two): `jobCount` of
  /// them from slot `jobHead` on, wrapping around. A job is moved out of its slot when it is
  /// taken, so what it holds is released as soon as it has run, and the slots are used again.
  /// (An array appended to until the queue drained grew to every job queued in the drain — a
  /// refetch's delivery and settle jobs one after the other, twice the most ever waiting — and
  /// destroyed its emptied slots one by one at the end, about 50 instructions each.)
  @exclusivity(unchecked) private var jobSlots: UnsafeMutablePointer<Job>?
  @exclusivity(unchecked) private var jobCapacity = 0
  @exclusivity(unchecked) private var jobHead = 0
  @exclusivity(unchecked) private var jobCount = 0
  @exclusivity(unchecked) private var nextID: UInt64 = 0
  @exclusivity(unchecked) private var inTimerPhase = false

  /// Runs `body` holding `lock`.
  @inline(__always)
  private func locked<R: Sendable>(_ body: () -> R) -> R {
    lock.withLock(orderingFor: self) { _ in body() }
  }

  /// Creates a scheduler whose clock reads `start` milliseconds.
  public init(start: Double = 0) { self.current = start }

  deinit {
    guard let slots = jobSlots else { return }
    for offset in 0..<jobCount { (slots + ((jobHead + offset) & (jobCapacity - 1))).deinitialize(count: 1) }
    slots.deallocate()
  }

  /// The virtual time in milliseconds.
  public func now() -> Double { locked { current } }

  /// Registers a timer; delay 0 while a timer phase is running is due 1 ms later (sinon's rule).
  public func setTimeout(_ delay: Double, _ body: @escaping @Sendable () -> Void) -> TimerID {
    addTimer(delay, body, repeating: false)
  }

  /// Registers a repeating timer; it keeps its place (creation order) on every repeat.
  public func setInterval(_ interval: Double, _ body: @escaping @Sendable () -> Void) -> TimerID {
    addTimer(interval, body, repeating: true)
  }

  /// ``setTimeout(_:_:)`` taking `body` (the engine's gc timers: `TransactionalScheduler.
  /// createTimeoutNow`), called without the protocol's witness.
  func addTimeout(_ delay: Double, _ body: __owned @escaping @Sendable () -> Void) -> TimerID {
    addTimer(delay, body, repeating: false)
  }

  private func addTimer(_ delay: Double, _ body: __owned @escaping @Sendable () -> Void, repeating: Bool) -> TimerID {
    locked {
      nextID += 1
      // JavaScript's fake timers truncate the delay; 0 (or less) is due now, or 1 ms later
      // inside a timer phase.
      var wait = delay.isNaN ? 0 : delay.rounded(.towardZero)
      if !(wait > 0) { wait = inTimerPhase ? 1 : 0 }
      if repeating && wait < 1 { wait = 1 }
      timers.insert(id: nextID, due: current + wait, Timer(body: body, interval: repeating ? wait : nil))
      return TimerID(rawValue: nextID)
    }
  }

  /// Cancels a pending timer (O(1) amortized, whatever the number of timers).
  public func clearTimeout(_ id: TimerID) {
    locked { _ = timers.remove(id.rawValue) }
  }

  /// Cancels many timers under one lock (``clearTimeout(_:)`` for each); the ids are distinct.
  func clearTimeouts(_ ids: [TimerID]) {
    locked { timers.remove(all: ids.lazy.map(\.rawValue)) }
  }

  /// ``clearTimeouts(_:)`` of the engine ids of timers created here at once (even: this
  /// scheduler's number shifted left by one, `TransactionalScheduler`'s direct ids).
  func clearTimeouts(engineIDs ids: [TimerID]) {
    locked { timers.remove(all: ids.lazy.map { $0.rawValue >> 1 }) }
  }

  /// Queues a job; it runs when the scheduler drains.
  public func enqueue(_ job: @escaping @Sendable () -> Void) {
    locked { pushJob(.closure(job)) }
  }

  /// Queues a task job (the `TaskExecutor` requirement).
  public func enqueue(_ job: consuming ExecutorJob) {
    let unowned = UnownedJob(job)
    locked { pushJob(.task(unowned)) }
  }

  /// This scheduler runs query functions itself.
  public var taskExecutor: (any TaskExecutor)? { self }

  /// Whether no job or task is waiting to run.
  public var isIdle: Bool { locked { jobCount == 0 } }

  /// The due time of the earliest timer, if any.
  public var nextTimerDue: Double? { locked { timers.firstDue() } }

  /// The number of timers and intervals that are registered and not cleared (a fired timeout
  /// no longer counts; an interval counts until it is cleared).
  public var pendingTimerCount: Int { locked { timers.count } }

  /// Runs queued jobs and tasks, in order, until none is left.
  public func runUntilIdle() {
    while let job = popJob() {
      // Consumed: binding the closure out of a borrowed job retained it once more.
      switch consume job {
      case .closure(let body): body()
      case .task(let unowned): unowned.runSynchronously(on: asUnownedTaskExecutor())
      }
    }
  }

  private func popJob() -> Job? {
    locked {
      guard jobCount > 0, let slots = jobSlots else { return nil }
      // Moved out of its slot: a copy and a destroy cost a retain and a release per job.
      let job = (slots + jobHead).move()
      jobHead = (jobHead + 1) & (jobCapacity - 1)
      jobCount -= 1
      return job
    }
  }

  /// Queues `job` at the ring's end, doubling the ring (its jobs moved, in order, to the start
  /// of the new one) when it is full. Under `lock`.
  private func pushJob(_ job: consuming Job) {
    if jobCount == jobCapacity {
      let capacity = max(16, jobCapacity * 2)
      let grown = UnsafeMutablePointer<Job>.allocate(capacity: capacity)
      if let slots = jobSlots {
        for offset in 0..<jobCount {
          (grown + offset).moveInitialize(from: slots + ((jobHead + offset) & (jobCapacity - 1)), count: 1)
        }
        slots.deallocate()
      }
      jobSlots = grown
      jobCapacity = capacity
      jobHead = 0
    }
    (jobSlots.unsafelyUnwrapped + ((jobHead + jobCount) & (jobCapacity - 1))).initialize(to: job)
    jobCount += 1
  }

  /// Drains jobs, then fires every timer due by `time` (draining after each), and sets the clock
  /// to `time`. Returns `false` if `limit` timers fired before it got there.
  @discardableResult
  public func advance(to time: Double, limit: Int = 100_000) -> Bool {
    runUntilIdle()
    locked { inTimerPhase = true }
    defer { locked { inTimerPhase = false } }
    var fired = 0
    while let timer = popTimer(dueBy: time) {
      timer.body()
      runUntilIdle()
      fired += 1
      if fired >= limit { return false }
    }
    locked { if current < time { current = time } }
    return true
  }

  /// Advances the clock by `delta` milliseconds.
  @discardableResult
  public func advance(by delta: Double) -> Bool { advance(to: now() + delta) }

  private func popTimer(dueBy time: Double) -> Timer? {
    locked {
      guard let (id, due, timer) = timers.popFirst(dueBy: time) else { return nil }
      // An interval keeps its creation number and is rescheduled before its callback runs.
      if let interval = timer.interval { timers.insert(id: id, due: due + interval, timer) }
      if due > current { current = due }
      return timer
    }
  }

  /// Suspends the calling task for `milliseconds` of virtual time.
  public func sleep(_ milliseconds: Double) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      _ = setTimeout(milliseconds) { continuation.resume() }
    }
  }
}
