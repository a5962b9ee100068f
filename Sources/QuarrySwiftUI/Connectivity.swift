#if canImport(SwiftUI)
import QuarryApp
#if canImport(Network)
import Dispatch
import Network
#endif

/// Feeds connectivity into a client's online manager.
enum Connectivity {
  /// Follows the network path (`NWPathMonitor`, where Network exists) into `onlineManager`
  /// until the calling task is cancelled; without Network it only waits for the cancellation.
  static func follow(_ onlineManager: OnlineManager) async {
    #if canImport(Network)
    let online = AsyncStream<Bool> { continuation in
      let monitor = NWPathMonitor()
      monitor.pathUpdateHandler = { path in continuation.yield(path.status == .satisfied) }
      continuation.onTermination = { _ in monitor.cancel() }
      monitor.start(queue: DispatchQueue(label: "Quarry.connectivity"))
    }
    // The stream ends when the task is cancelled.
    for await isOnline in online { onlineManager.setOnline(isOnline) }
    #else
    let untilCancelled = AsyncStream<Never> { _ in }
    for await _ in untilCancelled {}
    #endif
  }
}
#endif
