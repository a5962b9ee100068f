import Synchronization

/// Listeners in subscription order with ids to remove them by (TanStack's `Subscribable`);
/// used under the engine lock.
///
/// `notify(_:via:)` records one effect per listener, so listeners run after the engine lock is
/// released, in order; a listener removed before its call runs is not called (nothing arrives
/// after an unsubscribe returns).
struct Listeners<Body: ListenerBody> {
  typealias Value = Body.Value

  /// The listener while there is exactly one (most observers have one subscriber): it needs no
  /// array. An array's first append allocated its buffer and went through the standard
  /// library's growth path, about 390 instructions per subscription.
  private var single: Listener?
  /// Every listener, in order, while there are two or more; empty otherwise.
  private var entries: [Listener] = []
  private var nextID: UInt64 = 0
  /// How many listeners are engine-internal (inline).
  private var inlineCount = 0

  var isEmpty: Bool { single == nil && entries.isEmpty }
  /// Whether any listener is engine-internal (inline).
  var hasInlineListeners: Bool { inlineCount != 0 }
  /// The one listener, if there is exactly one and it is not engine-internal.
  var onlyListener: Listener? {
    @inline(__always) get { inlineCount == 0 ? single : nil }
  }
  var count: Int { single != nil ? 1 : entries.count }

  /// Every listener, in order (an array made for one listener).
  private var all: [Listener] {
    if let single { return [single] }
    return entries
  }

  /// `inline`: an engine-internal listener (a `QueriesObserver` watching its observers), called
  /// at once under the lock by `notify(_:via:)`, where TanStack calls it.
  mutating func add(_ body: Body, inline: Bool = false) -> UInt64 {
    _ = append(body, inline: inline)
    return nextID
  }

  /// Adds a listener and returns a handle for its unsubscribe function, which holds `owner`
  /// (the registry's owner) until the listener is removed.
  mutating func add(_ body: Body, owner: AnyObject, lock: EngineLock) -> ListenerHandle {
    let listener = append(body, inline: false)
    let handle = ListenerHandle(id: nextID, owner: owner, lock: lock)
    listener.handle = handle
    return handle
  }

  /// Makes the next listener and adds it last.
  private mutating func append(_ body: Body, inline: Bool) -> Listener {
    nextID += 1
    if inline { inlineCount += 1 }
    let listener = Listener(id: nextID, body: body, isInline: inline)
    if let first = single {
      single = nil
      entries = [first, listener]
    } else if entries.isEmpty {
      single = listener
    } else {
      entries.append(listener)
    }
    return listener
  }

  /// Removes a listener; returns whether it was there.
  @discardableResult
  mutating func remove(_ id: UInt64) -> Bool { take(id) != nil }

  /// Removes a listener and returns it (`nil` if it was not there): the caller frees it, after
  /// its access to the registry has ended (freeing a listener frees what its body captured,
  /// whose `deinit` is user code).
  mutating func take(_ id: UInt64) -> Listener? {
    let removed: Listener
    if let first = single {
      guard first.id == id else { return nil }
      single = nil
      removed = first
    } else {
      guard let i = entries.firstIndex(where: { $0.id == id }) else { return nil }
      removed = entries.remove(at: i)
      if entries.count == 1 {
        single = entries[0]
        entries = []
      }
    }
    removed.isActive.store(false, ordering: .relaxed)
    removed.releaseHandle()
    if removed.isInline { inlineCount -= 1 }
    return removed
  }

  mutating func removeAll() { _ = takeAll() }

  /// Removes every listener and returns them, for the caller to free (as ``take(_:)``).
  mutating func takeAll() -> [Listener] {
    let taken = all
    for entry in taken {
      entry.isActive.store(false, ordering: .relaxed)
      entry.releaseHandle()
    }
    inlineCount = 0
    single = nil
    entries = []
    return taken
  }

  /// Calls every listener now (engine-internal listeners only).
  func notify(_ value: Value) {
    if let single {
      single.body.call(value)
      return
    }
    for entry in entries { entry.body.call(value) }
  }

  /// Records a call of every listener with `value`, performed after the lock is released.
  func notify(_ value: Value, via lock: EngineLock) {
    if let single {
      record(single, value, via: lock)
      return
    }
    for entry in entries { record(entry, value, via: lock) }
  }

  /// One listener's part of ``notify(_:via:)``: an inline one is called now.
  @inline(__always)
  private func record(_ entry: Listener, _ value: Value, via lock: EngineLock) {
    if entry.isInline {
      entry.body.call(value)
      return
    }
    lock.record(.listener) { if entry.isActive.load(ordering: .relaxed) { entry.body.call(value) } }
  }

  /// One subscription.
  final class Listener: @unchecked Sendable {
    // Safe: `id` and `body` are immutable; `isActive` is atomic; `handle` is read and written
    // only under the lock that guards the registry.
    let id: UInt64
    let body: Body
    let isInline: Bool
    let isActive = Atomic<Bool>(true)
    /// The unsubscribe function's handle, while the listener is registered.
    /// `@exclusivity(unchecked)`: single accesses under the registry's lock, running no user code.
    @exclusivity(unchecked) var handle: ListenerHandle?
    init(id: UInt64, body: Body, isInline: Bool) {
      self.id = id
      self.body = body
      self.isInline = isInline
    }

    /// Drops the handle's owner: the listener leaves the registry. Never the owner's last
    /// reference (the caller is the owner's code, or holds it).
    func releaseHandle() {
      guard let handle else { return }
      handle.owner = nil
      self.handle = nil
    }
  }
}

/// What an unsubscribe function holds: the listener's id, the lock guarding the registry, and
/// the registry's owner (a `QueryObserver`) while the listener is registered (`nil` once it is
/// removed, by that function or otherwise).
///
/// It replaces a `weak` reference to the owner, whose side table made every retain and release
/// of the owner take the runtime's slow path. The owner of a registered listener is alive anyway
/// (an observer with listeners is in its query's observers and holds that query), so the strong
/// reference keeps nothing alive longer; and the handle does not hold the listener, so a
/// listener that captures its own unsubscribe function forms a cycle only while registered.
final class ListenerHandle: @unchecked Sendable {
  // Safe: `id` and `lock` are immutable; `owner` is read and written only under `lock`.
  let id: UInt64
  let lock: EngineLock
  /// `@exclusivity(unchecked)`: single accesses under `lock`, running no user code.
  @exclusivity(unchecked) var owner: AnyObject?
  init(id: UInt64, owner: AnyObject, lock: EngineLock) {
    self.id = id
    self.owner = owner
    self.lock = lock
  }
}

extension Listeners where Body == ObserverResultListener {
  /// ``notify(_:via:)`` with the result on the heap: each recorded call is the listener and a
  /// reference to the box (``EngineLock/recordResult(_:for:)``), not a closure holding a copy.
  func notify(_ box: QueryObserverResultBox, via lock: EngineLock) {
    if inlineCount == 0 {
      recordCalls(with: box, via: lock)
      return
    }
    if let single {
      // An inline listener (the only one).
      single.body.call(box.result)
      return
    }
    // In order: an inline listener's own recorded calls land between the ones around it.
    for entry in entries {
      if entry.isInline {
        entry.body.call(box.result)
      } else {
        lock.recordResult(box, for: entry)
      }
    }
  }

  /// Records a call of every listener with the result in `box`; for a registry without inline
  /// listeners (which records its calls and calls nothing).
  func recordCalls(with box: QueryObserverResultBox, via lock: EngineLock) {
    if let single {
      lock.recordResult(box, for: single)
      return
    }
    lock.recordResult(box, for: entries)
  }
}

/// What a listener calls with each value. A registry keeps its listeners' bodies in a concrete
/// struct, not as a function of its generic `Value`: a function stored in a generic class is
/// kept at the most general abstraction, so an observer's listener was wrapped in a
/// reabstraction thunk (one allocation per subscription, about 210 instructions, and the thunk's
/// call on every listener call). ``ObserverResultListener`` is that struct for an observer's
/// results; the other registries keep a ``ListenerFunction``.
protocol ListenerBody {
  associatedtype Value
  func call(_ value: Value)
}

/// A listener of any value type (the registries off the hot paths).
struct ListenerFunction<Value>: ListenerBody {
  let function: (Value) -> Void
  init(_ function: @escaping (Value) -> Void) { self.function = function }
  func call(_ value: Value) { function(value) }
}

/// An observer's listener of its results, kept as the function it was given.
struct ObserverResultListener: ListenerBody {
  let function: (QueryObserverResult) -> Void
  init(_ function: @escaping (QueryObserverResult) -> Void) { self.function = function }
  @inline(__always)
  func call(_ value: QueryObserverResult) { function(value) }
}

/// The registries whose listeners are functions of their value.
typealias ListenerRegistry<Value> = Listeners<ListenerFunction<Value>>

extension Listeners {
  /// Adds a function as a listener (see ``add(_:inline:)``).
  mutating func add<V>(_ function: @escaping (V) -> Void, inline: Bool = false) -> UInt64 where Body == ListenerFunction<V> {
    add(ListenerFunction(function), inline: inline)
  }
}
