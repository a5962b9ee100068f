import Dispatch
import Foundation
import Synchronization

/// Brings engine notifications to the main actor in order, without ever blocking the thread
/// that delivers them (no synchronous hop).
///
/// On the main queue (the main actor's executor: the main thread on Apple platforms; on Linux,
/// whichever thread drains the main queue) a notification is applied at once, so tests on the
/// `VirtualScheduler`, driven from the main actor, see each change exactly when the engine
/// notifies. Elsewhere it is queued with `DispatchQueue.main.async`, never waited for. Each notification carries a sequence number taken
/// when the engine delivered it, and one older than what was already applied is dropped: the
/// results are snapshots, so the newest one is the truth.
final class MainActorDelivery<Value: Sendable>: Sendable {
  // Safe by construction: `issued` and `applied` are atomics; `apply` is immutable.
  private let issued = Atomic<UInt64>(0)
  private let applied = Atomic<UInt64>(0)
  private let apply: @MainActor @Sendable (Value) -> Void

  init(_ apply: @escaping @MainActor @Sendable (Value) -> Void) { self.apply = apply }

  /// Called by the engine listener (on any thread).
  func deliver(_ value: Value) {
    let number = issued.add(1, ordering: .relaxed).newValue
    if isOnMainQueue {
      MainActor.assumeIsolated { applyIfNewest(number, value) }
    } else {
      DispatchQueue.main.async { MainActor.assumeIsolated { self.applyIfNewest(number, value) } }
    }
  }

  @MainActor private func applyIfNewest(_ number: UInt64, _ value: Value) {
    guard number > applied.load(ordering: .relaxed) else { return }
    applied.store(number, ordering: .relaxed)
    apply(value)
  }
}

/// Ends an engine subscription when the model that owns it goes away.
final class Subscription: @unchecked Sendable {
  // Safe: `cancel` is guarded by `lock` (an NSLock, which the thread sanitizer understands).
  private let lock = NSLock()
  private var cancel: (@Sendable () -> Void)?

  /// Ends the current subscription (outside the lock) and keeps `unsubscribe` instead.
  func replace(with unsubscribe: (@Sendable () -> Void)?) {
    let old: (@Sendable () -> Void)? = lock.withLock {
      defer { cancel = unsubscribe }
      return cancel
    }
    old?()
  }

  deinit { cancel?() }
}

/// Marks the main queue so code can ask whether it runs there.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()

/// Whether the calling code runs on the main queue, the main actor's executor.
var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueKey) == true }

/// Subscribes a model to `observer`: the result mounting will give is applied at once (TanStack's
/// optimistic result, as framework bindings read it), then every notified result on the main
/// actor. The subscription ends with `subscription` (the model's).
@MainActor func watch(
  _ observer: QueryObserver, into subscription: Subscription,
  apply: @escaping @MainActor @Sendable (QueryObserverResult) -> Void
) {
  let delivery = MainActorDelivery<QueryObserverResult>(apply)
  apply(observer.getOptimisticResult(observer.options, optimistic: true))
  subscription.replace(with: observer.subscribe { delivery.deliver($0) })
}

/// Callers waiting for a model's fetch to settle (SwiftQuery's awaited `fetch`).
@MainActor final class SettledWaiters {
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Returns at once unless `isFetching`; else when ``resumeAll()`` is called.
  func wait(isFetching: Bool) async {
    guard isFetching else { return }
    await withCheckedContinuation { waiters.append($0) }
  }

  /// Resumes every waiter.
  func resumeAll() {
    let all = waiters
    waiters = []
    for waiter in all { waiter.resume() }
  }
}
