/// How to change something on a server: the typed form of a mutation function
/// (SwiftQuery's `MutationFunc`).
///
/// ```swift
/// struct CreateTodo: MutationFunc {
///   struct Input: Sendable { let title: String }
///   func run(variables: Input) async throws -> Todo { try await api.addTodo(variables.title) }
/// }
/// ```
public protocol MutationFunc: Sendable {
  /// What the mutation returns.
  associatedtype Value: Sendable
  /// What it takes.
  associatedtype Variables: Sendable = QueryVoid
  /// Performs the mutation.
  func run(variables: Variables) async throws -> Value
}
