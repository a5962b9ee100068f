/// The variables of a function that takes none (SwiftQuery's `QueryVoid`).
///
/// ```swift
/// struct FetchCurrentUser: QueryFunc {
///   func run(_ variables: QueryVoid) async throws -> User { try await api.user(1) }
/// }
/// let key = QueryCacheKey<FetchCurrentUser>(variables: .value)
/// ```
public struct QueryVoid: Hashable, Sendable, Codable {
  /// The only value.
  public static let value = QueryVoid()
  /// Creates the value.
  public init() {}
}
