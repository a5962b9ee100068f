/// How to fetch a paged list: the typed form of an infinite query (SwiftQuery's
/// `InfiniteQueryFunc`, plus TanStack's optional previous-page parameter).
///
/// ```swift
/// struct FetchTodoPages: InfiniteQueryFunc {
///   let initialPageParam = 1
///   func run(variables: QueryVoid, pageParam: Int) async throws -> [Todo] { try await api.todos() }
///   func nextPageParam(lastPage: [Todo], allPages: [[Todo]], lastPageParam: Int, allPageParams: [Int]) -> Int? {
///     lastPage.isEmpty ? nil : lastPageParam + 1
///   }
/// }
/// ```
public protocol InfiniteQueryFunc: Sendable {
  /// One page.
  associatedtype Value: Sendable
  /// What identifies a page.
  associatedtype PageParam: Hashable & Sendable & Codable
  /// What it takes; part of the cache key.
  associatedtype Variables: Hashable & Sendable & Encodable = QueryVoid
  /// The first page's parameter.
  var initialPageParam: PageParam { get }
  /// Fetches one page.
  func run(variables: Variables, pageParam: PageParam) async throws -> Value
  /// The parameter of the page after the last one, or `nil` when there is none.
  func nextPageParam(lastPage: Value, allPages: [Value], lastPageParam: PageParam, allPageParams: [PageParam]) -> PageParam?
  /// The parameter of the page before the first one, or `nil` when there is none (default: none).
  func previousPageParam(firstPage: Value, allPages: [Value], firstPageParam: PageParam, allPageParams: [PageParam]) -> PageParam?
  /// Options for every query of this type.
  var options: QueryFuncOptions { get }
  /// The key prefix every query of this type shares.
  static var keyPrefix: [JSONValue] { get }
}

extension InfiniteQueryFunc {
  /// No previous pages.
  public func previousPageParam(firstPage: Value, allPages: [Value], firstPageParam: PageParam, allPageParams: [PageParam]) -> PageParam? { nil }
  /// TanStack's defaults.
  public var options: QueryFuncOptions { QueryFuncOptions() }
  /// `["<Module.Type>"]`.
  public static var keyPrefix: [JSONValue] { typeKeyPrefix(Self.self) }
}
