/// Listeners in subscription order with ids to remove them by (TanStack's `Subscribable`);
/// used under the engine lock. Notifying iterates a snapshot, so a listener may unsubscribe.
struct ListenerRegistry<Value> {
  private var entries: [(id: UInt64, body: (Value) -> Void)] = []
  private var nextID: UInt64 = 0

  var isEmpty: Bool { entries.isEmpty }
  var count: Int { entries.count }

  mutating func add(_ body: @escaping (Value) -> Void) -> UInt64 {
    nextID += 1
    entries.append((nextID, body))
    return nextID
  }

  /// Removes a listener; returns whether it was there.
  @discardableResult
  mutating func remove(_ id: UInt64) -> Bool {
    guard let i = entries.firstIndex(where: { $0.id == id }) else { return false }
    entries.remove(at: i)
    return true
  }

  mutating func removeAll() { entries.removeAll() }

  func notify(_ value: Value) { for entry in entries { entry.body(value) } }
}
