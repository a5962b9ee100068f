#if canImport(SwiftUI)
import QuarryApp
import SwiftUI

/// How many matching queries are fetching, kept current (TanStack's `useIsFetching`); the
/// client comes from the environment.
///
/// ```swift apple
/// struct FetchingBadge: View {
///   @IsFetching private var fetching
///
///   var body: some View {
///     if fetching > 0 { ProgressView() }
///   }
/// }
/// ```
@MainActor @propertyWrapper
public struct IsFetching: DynamicProperty {
  @Environment(\.queryClient) private var client
  @State private var holder = ModelHolder<CacheActivity>()
  private let filters: QueryFilters

  /// Counts the fetching queries that match `filters` (default: all).
  nonisolated public init(_ filters: QueryFilters = QueryFilters()) { self.filters = filters }

  /// The number of fetching queries.
  public var wrappedValue: Int {
    let filters = self.filters
    return holder.model(for: client) { CacheActivity.fetching($0, filters) }.count
  }
}

/// How many matching mutations are pending, kept current (TanStack's `useIsMutating`); the
/// client comes from the environment.
///
/// ```swift apple
/// struct SavingLabel: View {
///   @IsMutating private var saving
///
///   var body: some View {
///     Text(saving > 0 ? "Saving…" : "Saved")
///   }
/// }
/// ```
@MainActor @propertyWrapper
public struct IsMutating: DynamicProperty {
  @Environment(\.queryClient) private var client
  @State private var holder = ModelHolder<CacheActivity>()
  private let filters: MutationFilters

  /// Counts the pending mutations that match `filters` (default: all).
  nonisolated public init(_ filters: MutationFilters = MutationFilters()) { self.filters = filters }

  /// The number of pending mutations.
  public var wrappedValue: Int {
    let filters = self.filters
    return holder.model(for: client) { CacheActivity.mutating($0, filters) }.count
  }
}
#endif
