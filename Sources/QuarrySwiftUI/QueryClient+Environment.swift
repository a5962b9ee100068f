#if canImport(SwiftUI)
import QuarryApp
import SwiftUI

extension QueryClient {
  /// The client views use when no `.queryClient(_:)` modifier gives them one (SwiftQuery's
  /// `QueryClient.shared`). It refetches on focus and reconnect only once a
  /// `.queryClient(.shared)` modifier mounts it.
  public static let shared = QueryClient()
}

/// Where the environment keeps the client.
private struct QueryClientKey: EnvironmentKey {
  static let defaultValue = QueryClient.shared
}

/// Where the environment keeps the restore gate.
private struct RestoreGateKey: EnvironmentKey {
  static let defaultValue: RestoreGate? = nil
}

/// Where the environment keeps whether the cache is being restored.
private struct IsRestoringKey: EnvironmentKey {
  static let defaultValue = false
}

extension EnvironmentValues {
  /// The gate the wrappers' models wait at while `.persistQueryClient(_:options:)` restores the
  /// cache (`nil`: nothing to wait for).
  public var restoreGate: RestoreGate? {
    get { self[RestoreGateKey.self] }
    set { self[RestoreGateKey.self] = newValue }
  }

  /// Whether `.persistQueryClient(_:options:)` is still restoring the persisted cache
  /// (TanStack's `useIsRestoring`); `false` without one.
  public var isRestoring: Bool {
    get { self[IsRestoringKey.self] }
    set { self[IsRestoringKey.self] = newValue }
  }

  /// The client that `@Query`, `@Mutation`, `@InfiniteQuery`, `@IsFetching` and `@IsMutating`
  /// use (default: ``QuarryApp/QueryClient/shared``); set it with `.queryClient(_:)`.
  public var queryClient: QueryClient {
    get { self[QueryClientKey.self] }
    set { self[QueryClientKey.self] = newValue }
  }
}

extension View {
  /// Gives this view tree `client` and mounts it while the view is on screen: the scene phase
  /// feeds the client's focus manager (active is focused) and, where the Network framework
  /// exists, path monitoring feeds its online manager, so stale queries refetch on focus and
  /// on reconnect as TanStack's `QueryClientProvider` arranges.
  ///
  /// ```swift apple
  /// struct RootView: View {
  ///   @State private var client = QueryClient()
  ///   var body: some View {
  ///     Text("Home").queryClient(client)
  ///   }
  /// }
  /// ```
  nonisolated public func queryClient(_ client: QueryClient) -> some View {
    modifier(QueryClientModifier(client: client))
  }
}

/// Puts the client in the environment, mounts it and feeds it focus and connectivity.
struct QueryClientModifier: ViewModifier {
  let client: QueryClient
  @Environment(\.scenePhase) private var scenePhase

  /// A modifier for `client`.
  nonisolated init(client: QueryClient) { self.client = client }

  func body(content: Content) -> some View {
    let client = self.client
    content
      .environment(\.queryClient, client)
      .onChange(of: scenePhase, initial: true) { _, phase in
        client.focusManager.setFocused(phase == .active)
      }
      .task(id: ObjectIdentifier(client)) {
        client.mount()
        await Connectivity.follow(client.onlineManager)
        client.unmount()
      }
  }
}
#endif
