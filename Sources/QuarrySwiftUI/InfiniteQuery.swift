#if canImport(SwiftUI)
import QuarryApp
import SwiftUI

/// A paged list in a view (SwiftQuery's `@InfiniteQuery`): the wrapped value is its state
/// (`.fetchingNextPage(data)` keeps the pages on screen while the next one loads), the
/// projected value the ``QuarryApp/InfiniteQueryModel`` (`fetch`, `fetchNextPage`,
/// `hasNextPage`, `fetchPreviousPage`, `refetch`). The client comes from the environment.
///
/// ```swift apple
/// struct Item: Identifiable, Sendable { let id: Int }
/// struct FetchItems: InfiniteQueryFunc {
///   let initialPageParam = 0
///   func run(variables: QueryVoid, pageParam: Int) async throws -> [Item] {
///     pageParam < 3 ? (0..<10).map { Item(id: pageParam * 10 + $0) } : []
///   }
///   func nextPageParam(lastPage: [Item], allPages: [[Item]], lastPageParam: Int, allPageParams: [Int]) -> Int? {
///     lastPage.isEmpty ? nil : lastPageParam + 1
///   }
/// }
/// struct ItemsScreen: View {
///   @InfiniteQuery(FetchItems()) private var items
///
///   var body: some View {
///     List {
///       switch items {
///       case .stale, .fetching: ProgressView()
///       case .success(let data), .fetchingNextPage(let data):
///         ForEach(data.pages.flatMap { $0 }) { item in Text("Item \(item.id)") }
///         if $items.hasNextPage {
///           Button("Load more") { Task { await $items.fetchNextPage() } }
///         }
///       case .error(let error): Text(error.localizedDescription).foregroundStyle(.red)
///       }
///     }
///     .task { await $items.fetch() }
///   }
/// }
/// ```
@MainActor @propertyWrapper
public struct InfiniteQuery<F: InfiniteQueryFunc>: DynamicProperty {
  @Environment(\.queryClient) private var client
  @Environment(\.restoreGate) private var restoreGate
  @State private var holder = ModelHolder<InfiniteQueryModel<F>>()
  private let queryFunc: F

  /// A paged query of `queryFunc`.
  nonisolated public init(_ queryFunc: F) { self.queryFunc = queryFunc }

  /// What to show: stale, fetching the first page, pages (possibly loading the next), or an error.
  public var wrappedValue: InfiniteQueryState<F.Value, F.PageParam> { projectedValue.state }

  /// The model: `await $list.fetch()`, `await $list.fetchNextPage()`, `$list.hasNextPage`.
  public var projectedValue: InfiniteQueryModel<F> {
    let queryFunc = self.queryFunc
    let restoreGate = self.restoreGate
    return holder.model(for: client) { InfiniteQueryModel(queryFunc, client: $0, restoreGate: restoreGate) }
  }
}
#endif
