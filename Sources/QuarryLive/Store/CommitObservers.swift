import Foundation

/// The commit observers of a store: registration, removal, and a call to each after a commit.
final class CommitObservers: @unchecked Sendable {
  // Safe: `observers` and `nextID` are only touched while `lock` is held; observers are called
  // after it is released.
  private let lock = NSLock()
  private var observers: [Int: @Sendable (StoreCommit) -> Void] = [:]
  private var nextID = 0

  /// Registers `onCommit`.
  func add(_ onCommit: @escaping @Sendable (StoreCommit) -> Void) -> LiveSubscription {
    let id = lock.withLock {
      nextID += 1
      observers[nextID] = onCommit
      return nextID
    }
    return LiveSubscription { [weak self] in
      guard let self else { return }
      self.lock.withLock { _ = self.observers.removeValue(forKey: id) }
    }
  }

  /// Calls every observer with `commit`, in registration order, with no lock held.
  func notify(_ commit: StoreCommit) {
    let current = lock.withLock { observers.sorted { $0.key < $1.key }.map(\.value) }
    for observer in current { observer(commit) }
  }
}
