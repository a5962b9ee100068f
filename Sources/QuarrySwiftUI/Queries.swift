#if canImport(SwiftUI)
import QuarryApp
import SwiftUI

/// Several queries of different types in one view, combined into one value (TanStack's
/// `useQueries` with `combine`): the wrapped value is the combined value (`nil` before the
/// first combine), the projected value the ``QuarryApp/QueriesModel`` (`results`,
/// `setQueries`). The queries are given for the environment's client and start at once.
///
/// ```swift apple
/// struct FetchName: QueryFunc { func run(_ id: Int) async throws -> String { "user \(id)" } }
/// struct FetchCount: QueryFunc { func run(_ id: Int) async throws -> Int { id * 10 } }
/// struct Dashboard: View {
///   @Queries({ client in
///     [QueriesModelEntry(FetchName(), 1, client: client), QueriesModelEntry(FetchCount(), 1, client: client)]
///   }, combine: { results in
///     "\(results[0].data as? String ?? "…"): \(results[1].data as? Int ?? 0)"
///   }) private var summary
///
///   var body: some View {
///     Text(summary ?? "")
///   }
/// }
/// ```
@MainActor @propertyWrapper
public struct Queries<Combined: Sendable>: DynamicProperty {
  @Environment(\.queryClient) private var client
  @Environment(\.restoreGate) private var restoreGate
  @State private var holder = ModelHolder<QueriesModel<Combined>>()
  private let queries: @Sendable (QueryClient) -> [QueriesModelEntry]
  private let combine: @Sendable ([QueryObserverResult]) -> Combined

  /// The queries `queries` lists for the client, combined by `combine`.
  nonisolated public init(
    _ queries: @escaping @Sendable (QueryClient) -> [QueriesModelEntry],
    combine: @escaping @Sendable ([QueryObserverResult]) -> Combined
  ) {
    self.queries = queries
    self.combine = combine
  }

  /// The combined value, recomputed when a result changes.
  public var wrappedValue: Combined? { projectedValue.combined }

  /// The model: each query's `results`, and `setQueries` to change the list.
  public var projectedValue: QueriesModel<Combined> {
    let queries = self.queries
    let combine = self.combine
    let restoreGate = self.restoreGate
    return holder.model(for: client) {
      QueriesModel(client: $0, queries: queries($0), restoreGate: restoreGate, combine: combine)
    }
  }
}
#endif
