import Dispatch
import Foundation
import Testing
@testable import Quarry

/// The engine's shared primitives used from many threads at once: promises, abort signals, the
/// engine lock's commit FIFO, the transactional scheduler's timers, and the boxes deep keys and
/// data share between copies. Each test asserts what must hold (every callback once, commit
/// order, every timer fired); run under `swift test --sanitize=thread` they are also the
/// workloads the thread sanitizer watches for data races in those types.
@Suite struct ThreadSafetyTests {
  static let threads = 4

  /// Promises settled on some threads while others register callbacks and await them: every
  /// callback and every waiter gets the outcome exactly once, whichever comes first.
  @Test func promisesSettledWhileOtherThreadsRegisterAndAwaitReachEveryone() async {
    let scheduler = ConcurrentJobScheduler()
    let count = 200
    let promises = (0..<count).map { _ in Promise<Int>(scheduler: scheduler) }
    let heard = LockedMap<Int, Int>()
    onThreads(Self.threads) { worker in
      for (i, promise) in promises.enumerated() {
        if i % Self.threads == worker { promise.resolve(i) }
        promise.whenSettled { result in
          if case .success(let v) = result, v == i { heard.update(i, default: 0) { $0 += 1 } }
        }
        if i % Self.threads == worker { promise.resolve(-1) }  // a second settlement is ignored
      }
    }
    var awaited = 0
    for (i, promise) in promises.enumerated() where (try? await promise.value) == i { awaited += 1 }
    // The callbacks run as jobs on other threads, possibly after every waiter resumed: wait for
    // as many calls as were registered (a missed one times out, an extra one shows below).
    let allHeard = await eventually(within: hangGuardSeconds) { heard.snapshot.values.reduce(0, +) >= count * Self.threads }
    #expect(allHeard)
    #expect(heard.snapshot.count == count)
    #expect(awaited == count)
    #expect(heard.snapshot.values.allSatisfy { $0 == Self.threads })
  }

  /// Tasks awaiting promises that other threads settle concurrently all resume with the value.
  @Test func waitersRacingTheSettlementAllResume() async {
    let scheduler = ConcurrentJobScheduler()
    let count = 200
    let promises = (0..<count).map { _ in Promise<Int>(scheduler: scheduler) }
    let total = await withTaskGroup(of: Int.self) { group in
      for (i, promise) in promises.enumerated() {
        group.addTask { (try? await promise.value) == i ? 1 : 0 }
      }
      Thread { for (i, promise) in promises.enumerated() { promise.resolve(i) } }.start()
      return await group.reduce(0, +)
    }
    #expect(total == count)
  }

  /// Handlers added on some threads while others abort: each runs exactly once, and a signal
  /// reads aborted once any abort returned. (Under the thread sanitizer on Linux this reported a
  /// race on the signal's flag, under its `Mutex`, in two runs of three, until the mutex's
  /// ordering was told to the sanitizer: Mutex+Sanitizer.swift.)
  @Test func abortSignalHandlersAddedWhileAbortingRunOnce() {
    let lock = EngineLock()
    let count = 2_000
    let signals = (0..<count).map { _ in AbortSignal() }
    let ran = LockedMap<Int, Int>()
    let notAborted = Counter()
    onThreads(Self.threads) { worker in
      for (i, signal) in signals.enumerated() {
        signal.onAbort { ran.update(i, default: 0) { $0 += 1 } }
        if i % Self.threads == worker {
          signal.abort(via: lock)
          if !signal.isAborted { notAborted.increment() }
        }
      }
    }
    #expect(notAborted.value == 0)
    #expect(ran.snapshot.count == count)
    #expect(ran.snapshot.values.allSatisfy { $0 == Self.threads })
  }

  /// Threads adding handlers to one signal in tight loops (its lock contended) while one of them
  /// aborts it halfway: every handler runs exactly once, either from the abort or at once.
  @Test func handlersAddedToOneSignalFromManyThreadsRunOnce() {
    let lock = EngineLock()
    let perThread = 5_000
    for _ in 0..<10 {
      let signal = AbortSignal()
      let ran = Counter()
      onThreads(Self.threads) { worker in
        for i in 0..<perThread {
          signal.onAbort { ran.increment() }
          if worker == 0 && i == perThread / 2 { signal.abort(via: lock) }
        }
      }
      #expect(signal.isAborted)
      #expect(ran.value == Self.threads * perThread)
    }
  }

  /// Threads committing listener effects at once: each is delivered exactly once, in the order
  /// the transactions committed (their numbers, taken under the lock), whichever thread delivers.
  @Test func listenerEffectsOfManyThreadsAreDeliveredOnceInCommitOrder() {
    let lock = EngineLock()
    let perThread = 2_000
    let state = CommitLog()
    onThreads(Self.threads) { _ in
      for _ in 0..<perThread {
        lock.sync {
          let n = state.takeNumber()
          lock.record(.listener) { state.deliver(n) }
          lock.record(.plumbing) { state.countPlumbing() }
        }
      }
    }
    let (delivered, plumbing) = state.snapshot
    #expect(delivered.count == Self.threads * perThread)
    let firstOutOfOrder = delivered.indices.first { delivered[$0] != $0 }
    #expect(firstOutOfOrder == nil, "listener call \(firstOutOfOrder ?? 0) delivered out of commit order")
    #expect(plumbing == Self.threads * perThread)
  }

  /// Timers created from many threads, outside transactions, first in a transaction (created at
  /// once) and after a recorded effect (recorded, then created), while another thread keeps
  /// advancing the clock and firing them: all fire once; as many more are cleared at once and
  /// none of those fires. (A `VirtualScheduler`, thread-safe, driven by its own thread: timers on
  /// the real clock wait for the cooperative pool, which parallel test suites can starve.)
  @Test func timersCreatedAndClearedFromManyThreadsInAndOutOfTransactions() {
    let base = VirtualScheduler()
    let lock = EngineLock()
    let scheduler = TransactionalScheduler(base: base, lock: lock)
    let perThread = 300
    let never = 1e9  // the clock never gets there: only a cleared timer has this delay
    let fired = Counter()
    let clearedFired = Counter()
    let creating = Counter()
    let driverDone = DispatchSemaphore(value: 0)
    let driver = Thread {
      while creating.value < Self.threads { base.advance(by: 1) }
      driverDone.signal()
    }
    driver.start()
    onThreads(Self.threads) { _ in
      for i in 0..<perThread {
        let keep: @Sendable () -> Void = { fired.increment() }
        let drop: @Sendable () -> Void = { clearedFired.increment() }
        switch i % 3 {
        case 0:
          _ = scheduler.setTimeout(0, keep)
          scheduler.clearTimeout(scheduler.setTimeout(never, drop))
        case 1:
          lock.sync {
            _ = scheduler.setTimeout(0, keep)
            scheduler.clearTimeout(scheduler.setTimeout(never, drop))
          }
        default:
          lock.sync {
            lock.record(.plumbing) {}
            _ = scheduler.setTimeout(0, keep)
            scheduler.clearTimeout(scheduler.setTimeout(never, drop))
            scheduler.enqueue { fired.increment() }
          }
        }
      }
      creating.increment()
    }
    driverDone.wait()
    base.advance(by: 1)
    let expected = Self.threads * (perThread + perThread / 3)
    #expect(fired.value == expected)
    #expect(base.pendingTimerCount == 0)
    #expect(clearedFired.value == 0)
  }

  /// One deep key (its parts in a shared `DeepParts` box) copied to many threads that compare,
  /// hash and drop their copies, and use it with a client, while the test drops its own: the
  /// box is read by all and dismantled once, by whichever copy goes last.
  @Test func aDeepKeySharedByThreadsIsReadAndReleasedConcurrently() {
    for round in 0..<20 {
      let client = QueryClient(scheduler: VirtualScheduler())
      var key: QueryKey? = QueryKey([.string("deep"), DeepValueTests.deep(300, leaf: .number(Double(round)))])
      let hash = key!.hashValue
      let start = DispatchSemaphore(value: 0)
      let done = DispatchGroup()
      let mismatches = Counter()
      for worker in 0..<Self.threads {
        done.enter()
        Thread { [key] in
          var mine = key
          start.wait()
          if mine != key || mine?.hashValue != hash { mismatches.increment() }
          _ = client.setQueryData(mine!, value: DataBox(JSONValue.number(Double(worker))))
          if client.getQueryData(mine!) == nil { mismatches.increment() }
          mine = nil
          done.leave()
        }.start()
      }
      for _ in 0..<Self.threads { start.signal() }
      key = nil
      done.wait()
      #expect(mismatches.value == 0)
      client.clear()
    }
  }

  /// Deep data in one `DataBox` read on many threads, each of which drops its reference: the
  /// reads see the whole value, and the last release (on any thread) dismantles it once.
  @Test func aDeepDataBoxSharedByThreadsIsReadAndReleasedConcurrently() {
    for round in 0..<20 {
      var expected = DeepValueTests.deep(300, leaf: .number(Double(round)))
      var box: DataBox? = DataBox(expected)
      let start = DispatchSemaphore(value: 0)
      let done = DispatchGroup()
      let wrong = Counter()
      for _ in 0..<Self.threads {
        done.enter()
        Thread { [box, expected] in
          var mine = box
          start.wait()
          if mine?.value as? JSONValue != expected { wrong.increment() }
          mine = nil
          done.leave()
        }.start()
      }
      for _ in 0..<Self.threads { start.signal() }
      box = nil
      done.wait()
      #expect(wrong.value == 0)
      JSONValue.dismantle(&expected)
    }
  }

  /// Empty caches cleared on some threads while others write empty arrays' JSON text: clearing
  /// writes into no array the other threads read. (Under the sanitizer: `clear` once built its gc
  /// timers' list with a capacity of 0, and the standard library's initializer then wrote the
  /// count of the process's one shared empty array.)
  @Test func emptyCachesClearedWhileOtherThreadsReadEmptyArrays() {
    let texts = Counter()
    onThreads(Self.threads) { worker in
      let client = QueryClient(scheduler: VirtualScheduler())
      for _ in 0..<2_000 {
        if worker % 2 == 0 {
          client.clear()
        } else if JSONValue.array([]).jsonText(order: .sorted) == "[]" {
          texts.increment()
        }
      }
    }
    #expect(texts.value == Self.threads / 2 * 2_000)
  }
}

/// A scheduler that runs each job on a global concurrent queue: promise callbacks then run on
/// several threads at once, the harshest case for a promise's own locking.
private final class ConcurrentJobScheduler: QueryScheduler, @unchecked Sendable {
  // Safe: no stored state.
  func now() -> Double { 0 }
  func setTimeout(_ delay: Double, _ body: @escaping @Sendable () -> Void) -> TimerID {
    DispatchQueue.global().async(execute: body)
    return TimerID(rawValue: 0)
  }
  func setInterval(_ interval: Double, _ body: @escaping @Sendable () -> Void) -> TimerID { TimerID(rawValue: 0) }
  func clearTimeout(_ id: TimerID) {}
  func enqueue(_ job: @escaping @Sendable () -> Void) { DispatchQueue.global().async(execute: job) }
  var taskExecutor: (any TaskExecutor)? { nil }
}

/// Numbers transactions as they commit and records the order their listener calls arrive in.
private final class CommitLog: @unchecked Sendable {
  // Safe: every field is guarded by `lock`.
  private let lock = NSLock()
  private var next = 0
  private var delivered: [Int] = []
  private var plumbing = 0
  func takeNumber() -> Int { lock.withLock { defer { next += 1 }; return next } }
  func deliver(_ n: Int) { lock.withLock { delivered.append(n) } }
  func countPlumbing() { lock.withLock { plumbing += 1 } }
  var snapshot: ([Int], Int) { lock.withLock { (delivered, plumbing) } }
}

/// Runs `body(worker)` for workers `0..<count`, each on a thread of its own, all released at
/// once; returns when all have finished. (`DispatchQueue.concurrentPerform` may run its
/// iterations one after another on the calling thread when the machine is busy, and then nothing
/// runs concurrently.)
private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let start = DispatchSemaphore(value: 0)
  let done = DispatchGroup()
  for worker in 0..<count {
    done.enter()
    let thread = Thread {
      start.wait()
      body(worker)
      done.leave()
    }
    thread.stackSize = 4 << 20
    thread.start()
  }
  for _ in 0..<count { start.signal() }
  done.wait()
}
