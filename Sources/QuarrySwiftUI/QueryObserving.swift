#if canImport(SwiftUI)
import QuarryApp
import SwiftUI

/// A query in a view with TanStack's observer options (`useQuery` with `enabled`, `select`,
/// `placeholderData`, `staleTime`, `refetchInterval`): the wrapped value is the state of the
/// selected value, the projected value the ``QuarryApp/QueryObserverModel`` (`fetch`, `refetch`,
/// `isPlaceholderData`, `isFetching`, `setOptions`, …). The client and the restore gate come
/// from the environment.
///
/// Why its own wrapper: `select` changes the value's type, so the wrapper needs a second
/// generic parameter, which `@Query` (SwiftQuery's `Query<F>`, whose value is the function's
/// own) cannot gain; `QueryObserver` is the engine's class, so the wrapper is named for what the
/// view does. `@Query(_:options:)` takes the same options without `select`.
///
/// On each view update the wrapper passes its options' values (`enabled`, `staleTime`,
/// `refetchInterval`, `refetchIntervalInBackground`, `refetchOnMount`) to the model, so
/// `enabled: userID != nil` follows the view as in TanStack; `select` and `placeholderData` are
/// the ones the model was made with (TanStack's stable function references); change them with
/// `$value.setOptions(_:)`.
///
/// ```swift apple
/// struct Chore: Identifiable, Sendable { let id: Int; let title: String; let isDone: Bool }
/// struct FetchChores: QueryFunc {
///   func run(_ variables: QueryVoid) async throws -> [Chore] {
///     [Chore(id: 1, title: "milk", isDone: false), Chore(id: 2, title: "eggs", isDone: true)]
///   }
/// }
/// struct OpenChoresBadge: View {
///   @QueryObserving<FetchChores, Int> private var openCount: QueryViewState<Int>
///
///   init(isSignedIn: Bool) {
///     _openCount = QueryObserving(FetchChores(), options: QueryObserverOptions(
///       enabled: isSignedIn,                                 // no fetch until signed in
///       select: { chores in chores.filter { !$0.isDone }.count },
///       placeholderData: .value([])))                        // "0 open" meanwhile, flagged
///   }
///
///   var body: some View {
///     Group {
///       switch openCount {
///       case .stale, .fetching: ProgressView()
///       case .success(let count):
///         Text($openCount.isPlaceholderData ? "… open" : "\(count) open")
///       case .error(let error): Text(error.localizedDescription).foregroundStyle(.red)
///       }
///     }
///     .task { await $openCount.fetch() }
///   }
/// }
/// ```
@MainActor @propertyWrapper
public struct QueryObserving<F: QueryFunc, Selected: Sendable>: DynamicProperty {
  @Environment(\.queryClient) private var client
  @Environment(\.restoreGate) private var restoreGate
  @State private var holder = ModelHolder<QueryObserverModel<F, Selected>>()
  private let queryFunc: F
  private let options: QueryObserverOptions<F.Value, Selected>

  /// A query of `queryFunc` observed with `options`.
  nonisolated public init(_ queryFunc: F, options: QueryObserverOptions<F.Value, Selected>) {
    self.queryFunc = queryFunc
    self.options = options
  }

  /// What to show: stale (disabled, or not started), fetching, the selected value (possibly
  /// placeholder data), or an error.
  public var wrappedValue: QueryViewState<Selected> { projectedValue.state }

  /// The model: `await $value.fetch(variables)` starts (or switches) the query.
  public var projectedValue: QueryObserverModel<F, Selected> {
    let queryFunc = self.queryFunc
    let options = self.options
    let restoreGate = self.restoreGate
    return holder.model(for: client) { QueryObserverModel(queryFunc, client: $0, options: options, restoreGate: restoreGate) }
  }

  /// Passes the view's option values to the model (SwiftUI calls it before each body).
  nonisolated public mutating func update() {
    MainActor.assumeIsolated { projectedValue.setOptionValues(from: options) }
  }
}
#endif
