import Synchronization

/// Listeners in subscription order with ids to remove them by (TanStack's `Subscribable`);
/// used under the engine lock.
///
/// `notify(_:via:)` records one effect per listener, so listeners run after the engine lock is
/// released, in order; a listener removed before its call runs is not called (nothing arrives
/// after an unsubscribe returns).
struct ListenerRegistry<Value> {
  private var entries: [Listener] = []
  private var nextID: UInt64 = 0
  /// How many of `entries` are engine-internal (inline) listeners.
  private var inlineCount = 0

  var isEmpty: Bool { entries.isEmpty }
  var count: Int { entries.count }

  /// `inline`: an engine-internal listener (a `QueriesObserver` watching its observers), called
  /// at once under the lock by `notify(_:via:)`, where TanStack calls it.
  mutating func add(_ body: @escaping (Value) -> Void, inline: Bool = false) -> UInt64 {
    nextID += 1
    if inline { inlineCount += 1 }
    entries.append(Listener(id: nextID, body: body, isInline: inline))
    return nextID
  }

  /// Removes a listener; returns whether it was there.
  @discardableResult
  mutating func remove(_ id: UInt64) -> Bool { take(id) != nil }

  /// Removes a listener and returns it (`nil` if it was not there): the caller frees it, after
  /// its access to the registry has ended (freeing a listener frees what its body captured,
  /// whose `deinit` is user code).
  mutating func take(_ id: UInt64) -> Listener? {
    guard let i = entries.firstIndex(where: { $0.id == id }) else { return nil }
    entries[i].isActive.store(false, ordering: .relaxed)
    if entries[i].isInline { inlineCount -= 1 }
    return entries.remove(at: i)
  }

  mutating func removeAll() { _ = takeAll() }

  /// Removes every listener and returns them, for the caller to free (as ``take(_:)``).
  mutating func takeAll() -> [Listener] {
    for entry in entries { entry.isActive.store(false, ordering: .relaxed) }
    inlineCount = 0
    let all = entries
    entries = []
    return all
  }

  /// Calls every listener now (engine-internal listeners only).
  func notify(_ value: Value) { for entry in entries { entry.body(value) } }

  /// Records a call of every listener with `value`, performed after the lock is released.
  func notify(_ value: Value, via lock: EngineLock) {
    for entry in entries {
      if entry.isInline {
        entry.body(value)
        continue
      }
      lock.record(.listener) { if entry.isActive.load(ordering: .relaxed) { entry.body(value) } }
    }
  }

  /// One subscription.
  final class Listener: @unchecked Sendable {
    // Safe: `id` and `body` are immutable; `isActive` is atomic.
    let id: UInt64
    let body: (Value) -> Void
    let isInline: Bool
    let isActive = Atomic<Bool>(true)
    init(id: UInt64, body: @escaping (Value) -> Void, isInline: Bool) {
      self.id = id
      self.body = body
      self.isInline = isInline
    }
  }
}

extension ListenerRegistry where Value == QueryObserverResult {
  /// ``notify(_:via:)`` with the result on the heap: each recorded call is the listener and a
  /// reference to the box (``EngineLock/recordResult(_:for:)``), not a closure holding a copy.
  func notify(_ box: QueryObserverResultBox, via lock: EngineLock) {
    if inlineCount == 0 {
      lock.recordResult(box, for: entries)
      return
    }
    // In order: an inline listener's own recorded calls land between the ones around it.
    for entry in entries {
      if entry.isInline {
        entry.body(box.result)
      } else {
        lock.recordResult(box, for: entry)
      }
    }
  }
}
