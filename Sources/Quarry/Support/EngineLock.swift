import Foundation
import Synchronization

/// The one recursive lock that guards all of a client's engine state, used as a transaction:
/// code inside records what it would do outside the engine (call a listener, start a query
/// function, enqueue a job, create a timer) and the outermost level performs those effects,
/// in the order recorded, after unlocking.
///
/// That is how the engine keeps TanStack's synchronous order while never running user code
/// other than value callbacks (`select`, option functions, updaters) under the lock; see
/// ARCHITECTURE.md, "Threading".
///
/// Effects from all threads go through one FIFO that one thread drains at a time, in commit
/// order: a committing thread takes its place in the FIFO (or the deliverer's role) before it
/// releases the lock, so a thread descheduled between its commit and its delivery cannot fall
/// behind a later commit. A thread that commits while another drains appends and returns
/// without waiting, so a listener that waits for another thread touching the client cannot
/// deadlock it. Effects that user code run by the delivering thread causes (a listener's or a
/// query function's own client calls) are performed at once, nested, as TanStack's synchronous
/// listeners would run them.
final class EngineLock: @unchecked Sendable {
  // Safe: `outbox`, `batchBlock`, `defersToBatch`, `recordedInBatch`, `batches` and
  // `afterCommit` are only touched by the thread holding `mutex`; `fifo`, `spare`, `fifoHead`,
  // `isDraining` and `deliverer` are guarded by `fifoLock`, which is taken under
  // `mutex` (never the other way round) and held only briefly; `owner` is atomic.
  /// A plain (non-recursive) mutex: a thread that holds it already (`owner`) runs a nested
  /// `sync` without locking again, and only the outermost level unlocks.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  // Safe (`@exclusivity(unchecked)` on `outbox`, `batchBlock`, `defersToBatch`,
  // `recordedInBatch`, `batches`, `afterCommit`): they are touched only
  // by the thread holding `mutex`, each access a single read, write or append that runs no user
  // code and touches no other member, so no two accesses can overlap.
  /// What the holding thread's transaction has recorded, in order (its listener effects go to
  /// its batch's blocks instead when it runs inside a batch of that thread).
  @exclusivity(unchecked) private var outbox: [Effect] = []
  /// The last block of the holding thread's batch, for a transaction that began inside that
  /// batch (`defersToBatch`; `nil` while the batch has no block): the transaction records its
  /// listener effects there directly, in order (moving them from the outbox at its end cost
  /// about 140 instructions per listener call). Its addresses, not a reference: the batch's
  /// `blocks` hold the block for the transaction (see `batchOutboxIndex`), and a reference
  /// read from a stored property was retained and released around each append.
  @exclusivity(unchecked) private var batchBlock: EffectBlock.Slots?
  /// Whether the holding thread's transaction records its listener effects in its batch.
  @exclusivity(unchecked) private var defersToBatch = false
  /// Whether the transaction recorded a listener effect into its batch (`canActNow`).
  @exclusivity(unchecked) private var recordedInBatch = false
  /// The thread holding `mutex` (0 when none): written only by that thread, under `mutex`.
  private let owner = Atomic<UInt>(0)
  /// A `Mutex` (an `NSLock` cost about 200 instructions per lock and unlock, two per commit),
  /// taken through ``withFIFO(_:)``, which tells the thread sanitizer its ordering.
  private let fifoLock = Mutex(())
  // Safe (`@exclusivity(unchecked)` on `fifo`, `spare`, `fifoHead`, `isDraining`, `deliverer`):
  // they are touched only under `fifoLock`, each access a single read, write, append or swap
  // that runs no user code, so no two accesses can overlap.
  @exclusivity(unchecked) private var fifo: [Effect] = []
  /// An emptied effects buffer with its capacity, kept by the deliverer after performing a
  /// commit's effects and taken as the next transaction's outbox (guarded by `fifoLock`): an
  /// outbox grown from empty in every transaction reallocated at 1, 2, 4, 8, 16 effects.
  @exclusivity(unchecked) private var spare: [Effect] = []
  @exclusivity(unchecked) private var fifoHead = 0
  @exclusivity(unchecked) private var isDraining = false
  /// The thread delivering effects (guarded by `fifoLock`).
  @exclusivity(unchecked) private var deliverer: UInt = 0
  /// Threads inside ``batch(_:)`` (guarded by `mutex`), one entry each: how deep, and the
  /// listener effects waiting for the outermost batch to end. An array searched from the start
  /// (``batchIndex(_:)``): it holds one entry per thread inside a batch at once, usually none or
  /// one, and a `[UInt: Batch]` hashed the thread twice per transaction inside a batch (about 40
  /// instructions per batched listener call) and instantiated its metadata at the first batch.
  // Safe: as `outbox` (only the thread holding `mutex`, single accesses, no user code).
  @exclusivity(unchecked) private var batches: [Batch] = []
  /// The index in `batches` of the entry whose last block is `batchBlock` (while
  /// `defersToBatch`). It stays valid for the transaction: only the holding thread changes
  /// `batches`, and an entry is removed only when its outermost batch ends, which a transaction
  /// that began inside that batch cannot outlast (a precondition in `endBatch`); a batch begun
  /// inside the transaction by the same thread deepens that entry, and other threads' entries
  /// are not touched until the mutex is released.
  // Safe: as `outbox` (only the thread holding `mutex`, single accesses, no user code).
  @exclusivity(unchecked) private var batchOutboxIndex = 0
  /// A test seam (guarded by `mutex`): called by a thread that has committed effects, right after
  /// it releases the mutex and before it performs them, so a test can stall it there.
  // Safe: as `outbox` (only the thread holding `mutex`, single accesses, no user code).
  @exclusivity(unchecked) private var afterCommit: (@Sendable () -> Void)?

  /// The scheduler on whose queue ``recordJob(_:)``'s effects put their jobs (the client's base
  /// scheduler), if any.
  let jobScheduler: (any QueryScheduler)?

  /// A lock; `jobScheduler` lets a transaction record enqueuing a job on it without a closure.
  init(jobScheduler: (any QueryScheduler)? = nil) {
    self.jobScheduler = jobScheduler
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` holding `fifoLock` (Mutex+Sanitizer.swift).
  /// The result passes through a local (an effect is not `Sendable`, which `withLock`'s
  /// `sending` result would need).
  @inline(__always)
  private func withFIFO<R>(_ body: () -> R) -> R {
    var result: R?
    fifoLock.withLock(orderingFor: self) { _ in result = body() }
    return result.unsafelyUnwrapped
  }

  /// Takes `mutex` unless the calling thread holds it already; returns whether it took it.
  @inline(__always)
  private func acquire() -> Bool {
    if owner.load(ordering: .relaxed) == currentThreadID() { return false }
    pthread_mutex_lock(mutex)
    return true
  }

  /// ``sync(_:)`` handing `value` to `body` as its own: a non-escaping closure cannot consume
  /// what it captures, so a value captured to be consumed inside was copied first (a
  /// `QueryOptions`, about 400 bytes, through its value witness).
  ///
  /// It repeats ``sync(_:)``'s few lines rather than sharing them: `sync(_:)` written as
  /// `sync(handing: ()) { _ in try body() }` cost 17M more instructions in `--only cache --rounds 1` (about
  /// 40 per keyed read or write) and 89 more per subscription (callgrind, sixteenth pass).
  @inline(__always)
  func sync<Value, T>(handing value: consuming Value, _ body: (consuming Value) throws -> T) rethrows -> T {
    let me = currentThreadID()
    if owner.load(ordering: .relaxed) == me { return try body(value) }
    pthread_mutex_lock(mutex)
    owner.store(me, ordering: .relaxed)
    if !batches.isEmpty { beginTransactionInBatch(me) }
    defer { exit() }
    return try body(value)
  }

  /// Runs `body` under the lock; the outermost call then performs the recorded effects.
  @inline(__always)
  func sync<T>(_ body: () throws -> T) rethrows -> T {
    let me = currentThreadID()
    // Nested in this thread's own transaction: the mutex is held already, and the outermost
    // level performs what this one records.
    if owner.load(ordering: .relaxed) == me { return try body() }
    pthread_mutex_lock(mutex)
    owner.store(me, ordering: .relaxed)
    if !batches.isEmpty { beginTransactionInBatch(me) }
    defer { exit() }
    return try body()
  }

  /// At the start of a transaction: if the calling thread is inside a batch, the transaction
  /// records its listener effects after the batch's waiting ones (in `batchBlock`). The batch
  /// outlives the transaction (a batch begun inside it also ends inside it), so the effects go
  /// where ending the transaction would have moved them from the outbox, in the same order.
  private func beginTransactionInBatch(_ me: UInt) {
    guard let i = batchIndex(me) else { return }
    batchOutboxIndex = i
    batchBlock = batches[i].blocks.last?.slots
    recordedInBatch = false
    defersToBatch = true
  }

  /// Ends the outermost level of a transaction.
  @inline(__always)
  private func exit() {
    owner.store(0, ordering: .relaxed)
    let deferred = defersToBatch
    if deferred {
      // The listener effects are in the batch; the outbox holds only plumbing, committed now.
      defersToBatch = false
      batchBlock = nil
    }
    if outbox.isEmpty {
      pthread_mutex_unlock(mutex)
      return
    }
    // A transaction inside a batch of its thread began inside it (`defersToBatch`): a batch
    // begun inside a transaction also ends inside it, so none is open here otherwise.
    assert(deferred || batches.isEmpty || batchIndex(currentThreadID()) == nil)
    // Taken by value: `claim` replaces the outbox, so this copy is the buffer's only owner and
    // the deliverer can keep it (emptied) as the next outbox.
    let effects = outbox
    commit(consume effects, refill: true)
  }

  /// Runs `body` (without holding the lock) and delivers the listener effects the calling thread
  /// commits meanwhile when the outermost batch ends, in order; plumbing still runs at once.
  /// TanStack's `notifyManager.batch`.
  func batch<T>(_ body: () throws -> T) rethrows -> T {
    let me = currentThreadID()
    let took = acquire()
    if let i = batchIndex(me) {
      batches[i].depth += 1
    } else {
      batches.append(Batch(thread: me))
    }
    if took { pthread_mutex_unlock(mutex) }
    defer { endBatch(me) }
    return try body()
  }

  private func endBatch(_ me: UInt) {
    let took = acquire()
    let i = batchIndex(me)!
    batches[i].depth -= 1
    if batches[i].depth > 0 {
      if took { pthread_mutex_unlock(mutex) }
      return
    }
    var batch = batches.remove(at: i)
    if !took {
      // The batch ended inside a transaction of this thread (so it began inside it too, and the
      // transaction does not record into it): its outermost level delivers them.
      precondition(!defersToBatch, "a batch ended inside a transaction that began inside it")
      for block in batch.blocks { block.moveAll(into: &outbox) }
      return
    }
    if batch.blocks.isEmpty {
      pthread_mutex_unlock(mutex)
      return
    }
    // One commit for all blocks: committed one by one, another thread's commit could land
    // between them.
    var blocks: [EffectBlock] = []
    swap(&blocks, &batch.blocks)
    commitBatch(&blocks)
  }

  /// ``commit(_:refill:)`` for a batch's blocks of listener effects, in order: they take their
  /// place in the FIFO while `mutex` is held (``claim(_:refill:)``, or moved into the FIFO
  /// behind another thread's delivery), and the deliverer runs them in place and frees them
  /// after all ran, each block with its effects' own destroy, then drains the FIFO. `blocks` is
  /// the batch's, moved out of it (emptied here when freed).
  private func commitBatch(_ blocks: inout [EffectBlock]) {
    let me = currentThreadID()
    let role: Role = withFIFO {
      if isDraining {
        if deliverer == me { return .inline }
        // All listener calls (a batch holds nothing else): moved behind the delivery, in order.
        for block in blocks { block.moveAll(into: &fifo) }
        return .queued
      }
      isDraining = true
      deliverer = me
      return .deliverer
    }
    let hook = afterCommit
    pthread_mutex_unlock(mutex)
    hook?()
    switch role {
    case .queued:
      return
    case .inline:
      for block in blocks { block.runAll(self) }
    case .deliverer:
      for block in blocks { block.runAll(self) }
      // Freed here, in order, outside `fifoLock` (freeing an effect may run user code).
      blocks = []
      var none: [Effect] = []
      drainFIFO(offering: &none, keep: false)
    }
  }

  /// Delivers `effects`, which the calling thread has just committed: takes their place in the
  /// FIFO while still holding `mutex` (see ``claim(_:)``), releases it, calls the test seam and
  /// performs them. Called with `mutex` held, outside any transaction of the calling thread.
  /// `refill`: `effects` is the outbox, which is replaced by the spare buffer (or emptied).
  @inline(__always)
  private func commit(_ effects: consuming [Effect], refill: Bool) {
    let role = claim(effects, refill: refill)
    let hook = afterCommit
    pthread_mutex_unlock(mutex)
    hook?()
    perform(consume effects, as: role)
  }

  /// Runs `body` under the lock and frees what it returns only once the lock is released: the
  /// listeners an unsubscription removes, whose captures' `deinit` is user code. Nested in a
  /// transaction of the calling thread, they are freed after its outermost level unlocks.
  func syncReleasing<Garbage>(_ body: () -> Garbage) {
    let garbage = sync(body)
    if isHeldByCurrentThread { record(.plumbing) { withExtendedLifetime(garbage) {} } }
  }

  /// Installs (or, with `nil`, removes) the test seam called between a commit and its effects.
  func setAfterCommit(_ hook: (@Sendable () -> Void)?) {
    let took = acquire()
    afterCommit = hook
    if took { pthread_mutex_unlock(mutex) }
  }

  /// The capacity of the outbox the next transaction starts with (tests: a delivered commit's
  /// buffer is kept, emptied, for the next one).
  var outboxCapacityForTesting: Int {
    let took = acquire()
    defer { if took { pthread_mutex_unlock(mutex) } }
    return outbox.capacity
  }

  /// Whether the calling thread is inside a transaction of this lock.
  var isHeldByCurrentThread: Bool { owner.load(ordering: .relaxed) == currentThreadID() }

  /// Whether plumbing the calling thread creates now (a job, a timer) lands exactly where
  /// recording it would: outside a transaction, or inside one that has recorded nothing yet
  /// (every effect recorded later runs after it either way).
  var canActNow: Bool {
    guard isHeldByCurrentThread else { return true }
    return outbox.isEmpty && (!defersToBatch || !recordedInBatch)
  }

  /// Records `effect` to run after the outermost `sync` returns; outside a transaction it runs
  /// at once. Listener effects keep commit order across threads (see the type's comment);
  /// plumbing (jobs, timers, query-function starts) runs on the committing thread.
  func record(_ kind: EffectKind, _ effect: @escaping () -> Void) {
    record(kind == .listener ? Effect.listener(effect) : Effect.plumbing(effect))
  }

  /// Records enqueuing `job` on ``jobScheduler``; the calling thread must be inside a
  /// transaction. The effect holds the job itself, where a closure enqueuing it allocated a
  /// context (a settled fetch's result promise queues its job this way).
  func recordJob(_ job: @escaping @Sendable () -> Void) {
    assert(isHeldByCurrentThread && jobScheduler != nil, "a job is recorded inside a transaction")
    outbox.append(.job(job))
  }

  /// Records a call of each of `listeners` (an observer's) with the result in `box`, as
  /// ``record(_:_:)`` would record a closure calling it: the effect holds the listener and the
  /// box themselves, where a closure per call allocated its context.
  @inline(__always)
  func recordResult(_ box: QueryObserverResultBox, for listeners: [ResultListener]) {
    if isHeldByCurrentThread {
      if defersToBatch {
        recordResultInBatch(box, for: listeners)
        return
      }
      for listener in listeners { outbox.append(.result(listener, box)) }
    } else {
      for listener in listeners { record(.result(listener, box)) }
    }
  }

  /// ``recordResult(_:for:)`` in a transaction that records its listener effects in its batch.
  @inline(never)
  private func recordResultInBatch(_ box: QueryObserverResultBox, for listeners: [ResultListener]) {
    for listener in listeners { appendToBatch(.result(listener, box)) }
  }

  /// ``recordResult(_:for:)`` for one listener.
  func recordResult(_ box: QueryObserverResultBox, for listener: ResultListener) {
    record(.result(listener, box))
  }

  /// ``recordResult(_:for:)`` for one listener, whose references (the caller's own) become the
  /// effect's.
  @inline(__always)
  func recordResult(taking box: consuming QueryObserverResultBox, for listener: consuming ResultListener) {
    if isHeldByCurrentThread {
      if defersToBatch {
        recordResultInBatch(.result(consume listener, consume box))
      } else {
        outbox.append(.result(consume listener, consume box))
      }
    } else {
      record(.result(consume listener, consume box))
    }
  }

  /// One listener's call (``recordResult(taking:for:)``) in a transaction that records its
  /// listener effects in its batch.
  @inline(never)
  private func recordResultInBatch(_ effect: consuming Effect) {
    appendToBatch(effect)
  }

  private func record(_ effect: consuming Effect) {
    if isHeldByCurrentThread {
      if defersToBatch && effect.isListener {
        appendToBatch(effect)
      } else {
        outbox.append(consume effect)
      }
      return
    }
    pthread_mutex_lock(mutex)
    // Outside a transaction: the effect is committed alone, at once (a batch of this thread
    // keeps it for its end if it is a listener call).
    if effect.isListener, !batches.isEmpty, let i = batchIndex(currentThreadID()) {
      batches[i].append(effect)
      pthread_mutex_unlock(mutex)
      return
    }
    let effects = [effect]
    let role = claim(effects, refill: false)
    pthread_mutex_unlock(mutex)
    perform(effects, as: role)
  }

  /// Takes the place of `effects` in the FIFO: called with `mutex` held, by the thread that
  /// committed them, so threads take their places in the order they committed. A thread that
  /// released the lock first and queued after would let a later commit's listener calls (another
  /// thread's, delivered meanwhile) run before its own: a listener would hear an older result
  /// after a newer one.
  ///
  /// If another thread is delivering, the listener calls are queued behind its FIFO now; if none
  /// is, the calling thread becomes the deliverer now, so any later commit queues behind it.
  ///
  /// `refill`: `effects` is the outbox (the caller holds a copy): the spare buffer, if any,
  /// becomes the outbox, else the outbox is emptied.
  private func claim(_ effects: [Effect], refill: Bool) -> Role {
    let me = currentThreadID()
    return withFIFO {
      if refill {
        outbox = spare
        spare = []
      }
      if isDraining {
        // User code run by this (delivering) thread — a listener, a query function's prefix, a
        // mutation callback — made these client calls: deliver them at once, nested, before the
        // current batch goes on, as TanStack's synchronous listeners would.
        if deliverer == me { return .inline }
        for effect in effects where effect.isListener { fifo.append(effect) }
        return .queued
      }
      isDraining = true
      deliverer = me
      return .deliverer
    }
  }

  /// Performs `effects` (without holding `mutex`) in the role ``claim(_:)`` gave them: the
  /// deliverer runs them in order and then the FIFO; a queued thread runs only the plumbing.
  private func perform(_ effects: consuming [Effect], as role: Role) {
    switch role {
    case .queued:
      for effect in effects where !effect.isListener { effect.run(self) }
      return
    case .inline:
      for effect in effects { effect.run(self) }
      return
    case .deliverer:
      break
    }
    var effects = effects
    runInPlace(&effects)
    // Emptied here, without `fifoLock` (freeing an effect may run user code: a captured
    // object's `deinit`), and kept as the next outbox if it is not too large to keep.
    effects.removeAll(keepingCapacity: true)
    drainFIFO(offering: &effects, keep: effects.capacity <= Self.spareCapacityLimit)
  }

  /// The deliverer's end: runs the FIFO's effects (queued behind its delivery) in order until
  /// it is empty, then gives up the role. `effects`, emptied, becomes the spare buffer if
  /// `keep` and it is larger than the current one.
  private func drainFIFO(offering effects: inout [Effect], keep: Bool) {
    // The delivered FIFO, taken out under `fifoLock` and freed after it: its effects may hold
    // the last references to objects whose `deinit` is user code.
    var delivered: [Effect] = []
    while true {
      let next: Effect? = withFIFO {
        guard fifoHead < fifo.count else {
          if !fifo.isEmpty { swap(&delivered, &fifo) }
          fifoHead = 0
          isDraining = false
          deliverer = 0
          if keep, spare.capacity < effects.capacity { swap(&spare, &effects) }
          return nil
        }
        let effect = fifo[fifoHead]
        fifoHead += 1
        return effect
      }
      guard let next else { return }
      next.run(self)
    }
  }

  /// Runs `effects` in order, each moved out, run and moved back: run in place
  /// (`effects[i].run()`), its listener and result box were retained and released around the
  /// call (a `for in` copied each out too). They are freed together afterwards, by the caller.
  @inline(__always)
  private func runInPlace(_ effects: inout [Effect]) {
    effects.withUnsafeMutableBufferPointer { buffer in
      for i in buffer.indices {
        let effect = buffer.moveElement(from: i)
        effect.run(self)
        buffer.initializeElement(at: i, to: effect)
      }
    }
  }

  /// The largest buffer kept as the next outbox (a batch's end commits all its listener calls
  /// at once; its buffer is not kept).
  private static let spareCapacityLimit = 256

  /// What the thread performing effects does with them.
  private enum Role {
    /// Delivers them and then the FIFO.
    case deliverer
    /// Runs plumbing now and queues listener calls behind the ones being delivered.
    case queued
    /// Runs them all now: user code the delivering thread runs made them (a listener, a query
    /// function's prefix, a mutation callback), so they are delivered nested, as in TanStack.
    case inline
  }

  /// What kind of work an effect is.
  enum EffectKind: Equatable {
    /// A call of user code whose order across threads matters: a listener or cache callback.
    case listener
    /// Engine plumbing: enqueue a job, create a timer, start a query function.
    case plumbing
  }

  /// One thread's open batch.
  private struct Batch {
    /// The thread (``currentThreadID()``).
    let thread: UInt
    var depth = 1
    /// The listener effects waiting for the batch's end, in order, in blocks of at most
    /// ``batchBlockSize``: a transaction inside the batch records into the last one
    /// (`batchBlock`) and starts a new one when it is full (``appendToNewBatchBlock(_:)``). One
    /// array grown by doubling to the batch's size copied every effect at each doubling, and its
    /// largest buffers came from `mmap` (fresh pages), about a tenth of a 10k-call batch's time.
    var blocks: [EffectBlock] = []

    /// Records `effect` after the waiting ones (outside a transaction of the batch's thread).
    mutating func append(_ effect: consuming Effect) {
      if let last = blocks.last, !last.slots.isFull {
        last.append(effect)
      } else {
        let block = EffectBlock()
        block.append(effect)
        blocks.append(block)
      }
    }
  }

  /// A block of a batch's listener effects: room for ``batchBlockSize``, filled in order and
  /// never moved or grown. Appending writes the next slot (an array's append checked its
  /// buffer's uniqueness and capacity first), and the block frees its effects with their own
  /// destroy when it goes, in order (an array freed them through the runtime's generic
  /// `swift_arrayDestroy` and the enum's value witness, one call per effect).
  private final class EffectBlock {
    // Thread safety: a block is touched only by the thread holding `mutex` while its batch is
    // open, and by the thread that ended the batch afterwards (the deliverer running it, or
    // `fifoLock`'s holder moving its effects out); no access runs user code.
    /// Where the effects and their count lie, fixed for the block's life.
    struct Slots {
      /// Room for ``batchBlockSize`` effects, the first `count.pointee` initialized.
      let effects: UnsafeMutablePointer<Effect>
      let count: UnsafeMutablePointer<Int>

      /// Whether every slot is taken.
      var isFull: Bool {
        @inline(__always) get { count.pointee >= EngineLock.batchBlockSize }
      }

      /// Records `effect` in the next slot; the block must not be full.
      @inline(__always)
      func append(_ effect: consuming Effect) {
        (effects + count.pointee).initialize(to: effect)
        count.pointee += 1
      }
    }
    let slots: Slots
    var effects: UnsafeMutablePointer<Effect> { slots.effects }
    var count: Int {
      get { slots.count.pointee }
      set { slots.count.pointee = newValue }
    }

    init() {
      slots = Slots(effects: .allocate(capacity: EngineLock.batchBlockSize), count: .allocate(capacity: 1))
      slots.count.initialize(to: 0)
    }

    /// Frees the effects in order, each with the enum's own destroy (`deinitialize(count:)`
    /// is the runtime's generic `swift_arrayDestroy`, one value-witness call per effect).
    deinit {
      var i = 0
      let n = count
      while i < n {
        _ = (effects + i).move()
        i += 1
      }
      effects.deallocate()
      slots.count.deallocate()
    }

    /// Records `effect` in the next slot; the block must not be full.
    @inline(__always)
    func append(_ effect: consuming Effect) { slots.append(effect) }

    /// Runs the effects in order, each moved out, run and moved back (run where it lies, its
    /// listener and result box were retained and released around the call).
    @inline(__always)
    func runAll(_ lock: EngineLock) {
      var i = 0
      while i < count {
        let effect = (effects + i).move()
        effect.run(lock)
        (effects + i).initialize(to: effect)
        i += 1
      }
    }

    /// Moves the effects, in order, to the end of `array`; the block is left empty.
    func moveAll(into array: inout [Effect]) {
      array.reserveCapacity(array.count + count)
      for i in 0..<count { array.append((effects + i).move()) }
      count = 0
    }
  }

  /// How many effects a transaction records into one block of its batch (24 bytes each: a
  /// block is taken from the ordinary heap, not `mmap`).
  private static let batchBlockSize = 512

  /// Records a listener effect of a transaction that records into its batch (`defersToBatch`),
  /// starting a new block when the current one is full.
  @inline(__always)
  private func appendToBatch(_ effect: consuming Effect) {
    recordedInBatch = true
    if let block = batchBlock, !block.isFull {
      block.append(effect)
    } else {
      appendToNewBatchBlock(effect)
    }
  }

  /// Starts a new block after its batch's blocks with `effect` (it had none, or the last one
  /// is full). Called with `mutex` held, in a transaction recording into its batch.
  @inline(never)
  private func appendToNewBatchBlock(_ effect: consuming Effect) {
    let block = EffectBlock()
    block.append(effect)
    batches[batchOutboxIndex].blocks.append(block)
    batchBlock = block.slots
  }

  /// The index of `thread`'s entry in `batches`, if it is inside a batch. Called with `mutex`
  /// held.
  @inline(__always)
  private func batchIndex(_ thread: UInt) -> Int? {
    var i = 0
    let count = batches.count
    while i < count {
      if batches[i].thread == thread { return i }
      i += 1
    }
    return nil
  }

  /// An observer's listener, which ``recordResult(_:for:)`` records with a result.
  typealias ResultListener = Listeners<ObserverResultListener>.Listener

  /// A recorded effect: a closure, or an observer listener's call with a result (no closure).
  private enum Effect {
    case listener(() -> Void)
    case plumbing(() -> Void)
    /// Enqueues the job on the lock's ``jobScheduler`` (plumbing).
    case job(@Sendable () -> Void)
    /// Calls the listener with the box's result unless it was removed meanwhile.
    case result(ResultListener, QueryObserverResultBox)

    var isListener: Bool {
      switch self {
      case .plumbing, .job: return false
      case .listener, .result: return true
      }
    }

    @inline(__always)
    func run(_ lock: EngineLock) {
      switch self {
      case .listener(let body), .plumbing(let body): body()
      case .job(let body): lock.jobScheduler!.enqueue(body)
      case .result(let listener, let box):
        // A copy of the result: passed in place (an `inout` access to the box's header) it
        // needed no copy, and nothing is written while an effect holds the box, but an `inout`
        // access is a modifying one, and another thread may read the box under the lock
        // meanwhile (an observer comparing its result with its query's new state); the thread
        // sanitizer reported that as an access race. The copy's references are the box's,
        // which this effect holds for the call (`withUnretainedCopy`).
        if listener.isActive.load(ordering: .relaxed) { box.withUnretainedCopy { listener.body.call($0) } }
      }
    }
  }
}

/// A number identifying the calling thread, never 0.
@inline(__always)
private func currentThreadID() -> UInt {
  #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
  #else
    return UInt(pthread_self())
  #endif
}
