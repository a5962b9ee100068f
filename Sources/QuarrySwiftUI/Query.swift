#if canImport(SwiftUI)
import QuarryApp
import SwiftUI

/// A query in a view (SwiftQuery's `@Query`): the wrapped value is what to show, the projected
/// value is the ``QuarryApp/QueryModel`` behind it (`fetch`, `refetch`, the kept `value`,
/// `isFetching`, `isStale`, …). The client comes from the environment (`.queryClient(_:)`).
///
/// The model is made on first use and lives as long as the view; it watches nothing until
/// `fetch` names the variables, then fetches when TanStack would (mount, stale data, focus,
/// reconnect, invalidation).
///
/// ```swift apple
/// struct User: Sendable { let id: Int; let name: String }
/// struct FetchUser: QueryFunc {
///   func run(_ id: Int) async throws -> User { User(id: id, name: "user \(id)") }
/// }
/// struct UserView: View {
///   let userID: Int
///   @Query(FetchUser()) private var user
///
///   var body: some View {
///     Group {
///       switch user {
///       case .stale, .fetching: ProgressView()
///       case .success(let user): Text(user.name).font(.title)
///       case .error(let error): Text("Failed: \(error.localizedDescription)").foregroundStyle(.red)
///       }
///     }
///     .task(id: userID) { await $user.fetch(userID) }
///   }
/// }
/// ```
///
/// `@Query(FetchUser(), options: QueryObserverOptions(enabled: …, placeholderData: …))` adds
/// TanStack's observer options without `select` (for `select`, see ``QueryObserving``); their
/// values follow the view on each update, as there.
@MainActor @propertyWrapper
public struct Query<F: QueryFunc>: DynamicProperty {
  @Environment(\.queryClient) private var client
  @Environment(\.restoreGate) private var restoreGate
  @State private var holder = ModelHolder<QueryModel<F>>()
  private let queryFunc: F
  private let options: QueryObserverOptions<F.Value, F.Value>

  /// A query of `queryFunc`.
  nonisolated public init(_ queryFunc: F) {
    self.queryFunc = queryFunc
    options = QueryObserverOptions()
  }

  /// A query of `queryFunc` observed with `options` (`enabled`, `placeholderData`, `staleTime`,
  /// `refetchInterval`, …).
  nonisolated public init(_ queryFunc: F, options: QueryObserverOptions<F.Value, F.Value>) {
    self.queryFunc = queryFunc
    self.options = options
  }

  /// What to show: stale, fetching, a value, or an error.
  public var wrappedValue: QueryViewState<F.Value> { projectedValue.state }

  /// The model: `await $query.fetch(variables)` starts (or switches) the query.
  public var projectedValue: QueryModel<F> {
    let queryFunc = self.queryFunc
    let options = self.options
    let restoreGate = self.restoreGate
    return holder.model(for: client) { QueryModel(queryFunc, client: $0, options: options, restoreGate: restoreGate) }
  }

  /// Passes the view's option values to the model (SwiftUI calls it before each body).
  nonisolated public mutating func update() {
    MainActor.assumeIsolated { projectedValue.setOptionValues(from: options) }
  }
}
#endif
