import Foundation

/// A registration that stops when cancelled (or released): a commit observer, a change listener.
public final class LiveSubscription: @unchecked Sendable {
  // Safe: `onCancel` is only touched while `lock` is held.
  private let lock = NSLock()
  private var onCancel: (@Sendable () -> Void)?

  /// A subscription that calls `onCancel` once, on the first `cancel()` or when released.
  public init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }

  /// Stops it; later calls do nothing.
  public func cancel() {
    let action = lock.withLock { () -> (@Sendable () -> Void)? in
      defer { onCancel = nil }
      return onCancel
    }
    action?()
  }

  deinit { cancel() }
}
