import Foundation

/// One FIFO of calls to user code, drained by one thread at a time: calls are appended while
/// the controller's lock is held (so they are in commit order) and performed after it is released.
/// A thread that finds the queue being drained appends and returns without waiting.
final class DeliveryQueue: @unchecked Sendable {
  // Safe: `pending`, `isDraining` and `idleWaiters` are only touched while `lock` is held.
  private let lock = NSLock()
  private var pending: [@Sendable () -> Void] = []
  private var isDraining = false
  private var idleWaiters: [CheckedContinuation<Void, Never>] = []

  /// Waits until every call appended so far (and any appended meanwhile) was performed.
  func waitUntilIdle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let isIdle = lock.withLock {
        if !isDraining, pending.isEmpty { return true }
        idleWaiters.append(continuation)
        return false
      }
      if isIdle { continuation.resume() }
    }
  }

  /// Appends `call` (under the caller's lock).
  func append(_ call: @escaping @Sendable () -> Void) {
    lock.withLock { pending.append(call) }
  }

  /// Performs the appended calls in order, unless another thread is doing so.
  func drain() {
    let shouldDrain = lock.withLock { () -> Bool in
      guard !isDraining, !pending.isEmpty else { return false }
      isDraining = true
      return true
    }
    guard shouldDrain else { return }
    while true {
      let (next, waiters) = lock.withLock { () -> ((@Sendable () -> Void)?, [CheckedContinuation<Void, Never>]) in
        guard !pending.isEmpty else {
          isDraining = false
          defer { idleWaiters = [] }
          return (nil, idleWaiters)
        }
        return (pending.removeFirst(), [])
      }
      guard let next else {
        for waiter in waiters { waiter.resume() }
        return
      }
      next()
    }
  }
}
