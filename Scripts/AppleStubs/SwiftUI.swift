// The slice of SwiftUI that Sources/QuarryLive/SwiftUI uses, declared with Apple's names and
// shapes so Linux can type-check that code (Scripts/typecheck-apple-stubs.sh). Not an implementation.
@MainActor @preconcurrency public protocol View {}

public struct ModifiedContent: View {}

extension View {
  nonisolated public func task<T: Equatable>(
    id value: T, priority: TaskPriority = .userInitiated, _ action: @escaping @Sendable () async -> Void
  ) -> some View { ModifiedContent() }
}
