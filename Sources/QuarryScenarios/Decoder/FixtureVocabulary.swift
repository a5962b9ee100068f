/// The names a fixture may use, as listed in `Specs/README.md`.
public enum FixtureVocabulary {
  /// The top-level members of a fixture.
  public static let topLevelMembers = ["format", "id", "title", "source", "client", "functions", "streams", "steps"]

  /// The members of a scripted outcome.
  public static let outcomeMembers = ["after", "return", "throw", "readSignal", "times"]

  /// TanStack's query option names a fixture may use.
  public static let queryOptions = [
    "queryKey", "queryFn", "staleTime", "gcTime", "retry", "retryDelay", "enabled", "select",
    "placeholderData", "initialData", "initialDataUpdatedAt", "refetchOnMount",
    "refetchOnWindowFocus", "refetchOnReconnect", "refetchInterval", "refetchIntervalInBackground",
    "notifyOnChangeProps", "structuralSharing", "networkMode", "meta", "retryOnMount",
  ]

  /// The mutation option names accepted in `client.defaultOptions.mutations`.
  public static let mutationOptions = ["retry", "retryDelay", "gcTime", "networkMode", "meta"]

  /// TanStack's query filter names (`refetchType` only for `invalidateQueries`).
  public static let filterMembers = ["queryKey", "exact", "type", "stale", "fetchStatus", "predicate"]

  /// The members of the `options` argument of the client's refetching and cancelling calls.
  public static let actionOptions = ["cancelRefetch", "throwOnError", "revert", "silent"]

  /// The members of the `options` argument of `observer.refetch`.
  public static let refetchOptions = ["cancelRefetch", "throwOnError"]

  /// The check names of an `expect` step.
  public static let checks = ["calls", "query", "queries", "result", "notifications", "settled", "returned", "cacheSize"]

  /// TanStack's query state field names (the `query` check also takes `queryKey` and `exists`).
  public static let queryStateFields = [
    "status", "fetchStatus", "data", "dataUpdatedAt", "dataUpdateCount", "error", "errorUpdatedAt",
    "errorUpdateCount", "fetchFailureCount", "fetchFailureReason", "isInvalidated",
  ]

  /// TanStack's observer result field names.
  public static let resultFields = [
    "status", "fetchStatus", "data", "error", "dataUpdatedAt", "errorUpdatedAt", "errorUpdateCount",
    "failureCount", "failureReason", "isPending", "isSuccess", "isError", "isLoading", "isFetching",
    "isRefetching", "isLoadingError", "isRefetchError", "isFetched", "isFetchedAfterMount", "isPaused",
    "isPlaceholderData", "isStale", "isEnabled",
  ]

  /// The `$fn` recipes and the parameter members each one takes.
  public static let recipeParameters: [String: [String]] = [
    "const": ["value"], "identity": [], "countCalls": [], "pluck": ["key"], "length": [], "throw": ["message"],
    "failureCountLessThan": ["n"], "linear": ["ms"], "previousData": [], "keyIncludes": ["value"],
    "increment": ["by"], "append": ["value"], "undefined": [],
    "queryKey": [], "pageParam": [], "callCount": [],
  ]

  /// The `queryFn` value that stands for TanStack's `skipToken`.
  public static let skipToken = "$skipToken"

  /// The operation names of a step.
  public static var operations: [String] { OperationSpec.all.keys.sorted() }
}
