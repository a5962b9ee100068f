/// An observable query for a view or a view model (SwiftQuery's `@Query` model): a
/// ``QueryObserverModel`` that shows the function's value as it is, with no `select`.
///
/// Set the variables (or call `fetch`) and the model watches that query: it fetches when
/// TanStack would (mount, stale data, focus, reconnect, invalidation) and its properties change
/// exactly when TanStack's observer notifies. Changes are applied on the main actor; engine work
/// never waits for it.
///
/// ```swift
/// struct FetchTodos: QueryFunc {
///   func run(_ variables: QueryVoid) async throws -> [Todo] { try await api.todos() }
/// }
/// let todos = QueryModel(FetchTodos(), client: client)
/// todos.setVariables(.value)            // starts watching, fetching if needed
/// if case .success(let items) = todos.state { print(items.count) }
/// await todos.fetch(.value)             // or: start and wait for the fetch to settle
/// ```
public typealias QueryModel<F: QueryFunc> = QueryObserverModel<F, F.Value>
