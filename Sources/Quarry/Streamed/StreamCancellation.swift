import Foundation

/// Whether a streamed query's loop must stop: set when its fetch is aborted, but only once the
/// stream function has read its signal (TanStack's `addConsumeAwareSignal`).
final class StreamCancellation: @unchecked Sendable {
  // Safe: `cancelled` and `signalRead` are guarded by `lock`.
  private let lock = NSLock()
  private var cancelled = false
  private var signalRead = false

  /// Whether the fetch was aborted after the stream function read its signal.
  var isCancelled: Bool { lock.withLock { cancelled } }

  /// Called each time the stream function reads `context.signal`: the first read tells the query
  /// that the fetch can be cancelled and watches the signal.
  func signalWasRead(_ context: QueryFunctionContext) {
    let first = lock.withLock { () -> Bool in
      defer { signalRead = true }
      return !signalRead
    }
    guard first else { return }
    context.abortSignal.onAbort { [self] in lock.withLock { cancelled = true } }
    context.onSignalRead()
  }
}
