import Quarry
/// The operations and options of infinite queries and `QueriesObserver`.
extension OperationSpec {
  private static func arg(_ name: String, _ kind: Argument.Kind, required: Bool = true) -> Argument {
    Argument(name: name, required: required, kind: kind)
  }

  /// `fetchNextPage`/`fetchPreviousPage` take `refetch`'s options.
  private static let pageFetch = OperationSpec(
    shape: .members([arg("observer", .observer), arg("options", .flags(FixtureVocabulary.refetchOptions), required: false)]),
    records: .settle)

  /// Every infinite-query and queries-observer operation by name.
  static let pagedOperations: [String: OperationSpec] = [
    "fetchInfiniteQuery": OperationSpec(shape: .queryOptions(extra: [:]), records: .settle),
    "prefetchInfiniteQuery": OperationSpec(shape: .queryOptions(extra: [:]), records: .settle),
    "ensureInfiniteQueryData": OperationSpec(shape: .queryOptions(extra: ["revalidateIfStale": .bool]), records: .settle),
    "observeInfinite": OperationSpec(
      shape: .members([arg("observer", .declareObserver), arg("options", .queryOptions(requireKey: true))]),
      records: .value),
    "createInfiniteObserver": OperationSpec(
      shape: .members([arg("observer", .declareObserver), arg("options", .queryOptions(requireKey: true))]),
      records: .nothing),
    "fetchNextPage": pageFetch,
    "fetchPreviousPage": pageFetch,
    "observeQueries": OperationSpec(
      shape: .members([arg("observer", .declareObserver), arg("queries", .queryOptionsList), arg("options", .queriesOptions, required: false)]),
      records: .value),
    "createQueriesObserver": OperationSpec(
      shape: .members([arg("observer", .declareObserver), arg("queries", .queryOptionsList), arg("options", .queriesOptions, required: false)]),
      records: .nothing),
    "setQueries": OperationSpec(
      shape: .members([arg("observer", .observer), arg("queries", .queryOptionsList), arg("options", .queriesOptions, required: false)]),
      records: .nothing),
    "getQueriesOptimisticResult": OperationSpec(
      shape: .members([arg("observer", .observer), arg("queries", .queryOptionsList), arg("options", .queriesOptions, required: false)]),
      records: .value),
  ]

  /// The rule for each infinite-query option's value.
  static let infiniteOptionRules: [String: ValueRule] = [
    "initialPageParam": .data,
    "getNextPageParam": .oneOf([.recipes(["paramPlus", "pageField", "const"]), .undefined]),
    "getPreviousPageParam": .oneOf([.recipes(["paramPlus", "pageField", "const"]), .undefined]),
    "maxPages": .oneOf([.integer(min: 0), .undefined]),
    "pages": .oneOf([.integer(min: 0), .undefined]),
  ]
}
