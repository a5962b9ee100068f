import Quarry
/// The names a fixture may use, as listed in `Specs/README.md`.
public enum FixtureVocabulary {
  /// The top-level members of a fixture.
  public static let topLevelMembers = ["format", "id", "title", "source", "client", "functions", "callbacks", "streams", "steps"]

  /// The members of a scripted outcome.
  public static let outcomeMembers = ["after", "return", "throw", "reject", "throwSync", "readSignal", "onAbort", "times"]

  /// TanStack's query option names a fixture may use.
  public static let queryOptions = [
    "queryKey", "queryFn", "staleTime", "gcTime", "retry", "retryDelay", "enabled", "select",
    "placeholderData", "initialData", "initialDataUpdatedAt", "refetchOnMount",
    "refetchOnWindowFocus", "refetchOnReconnect", "refetchInterval", "refetchIntervalInBackground",
    "notifyOnChangeProps", "structuralSharing", "networkMode", "meta", "retryOnMount",
    "queryHash", "queryKeyHashFn", "persister",
  ] + infiniteQueryOptions

  /// The infinite-query option names (`pages` is `fetchInfiniteQuery`'s).
  public static let infiniteQueryOptions = ["initialPageParam", "getNextPageParam", "getPreviousPageParam", "maxPages", "pages"]

  /// TanStack's mutation option names a fixture may use (also in `client.defaultOptions.mutations`).
  public static let mutationOptions = [
    "mutationKey", "mutationFn", "onMutate", "onSuccess", "onError", "onSettled", "retry", "retryDelay",
    "gcTime", "networkMode", "scope", "meta",
  ]

  /// The mutation hooks a scripted callback can be given to.
  public static let mutationHooks = ["onMutate", "onSuccess", "onError", "onSettled"]

  /// The per-call callbacks of `mutate` through an observer.
  public static let mutateOptions = ["onSuccess", "onError", "onSettled"]

  /// TanStack's mutation filter names.
  public static let mutationFilterMembers = ["mutationKey", "exact", "status"]

  /// The members of a scripted callback.
  public static let callbackMembers = ["do", "return", "throw", "async"]

  /// The client operations a scripted callback may perform.
  public static let callbackOperations = ["cancelQueries", "invalidateQueries", "refetchQueries", "getQueryData", "setQueryData"]

  /// TanStack's mutation state field names (the `mutation` check also takes `mutationId` and `exists`).
  public static let mutationStateFields = [
    "status", "isPaused", "data", "error", "variables", "context", "failureCount", "failureReason", "submittedAt",
  ]

  /// TanStack's mutation observer result field names.
  public static let mutationResultFields = mutationStateFields + ["isIdle", "isPending", "isSuccess", "isError"]

  /// TanStack's query filter names (`refetchType` only for `invalidateQueries`).
  public static let filterMembers = ["queryKey", "exact", "type", "stale", "fetchStatus", "predicate"]

  /// The members of the `options` argument of the client's refetching and cancelling calls.
  public static let actionOptions = ["cancelRefetch", "throwOnError", "revert", "silent"]

  /// The members of the `options` argument of `observer.refetch`.
  public static let refetchOptions = ["cancelRefetch", "throwOnError"]

  /// The check names of an `expect` step.
  public static let checks = [
    "calls", "query", "queries", "result", "notifications", "settled", "returned", "cacheSize", "sameData", "aborted",
    "received", "mutation", "mutations", "mutationCount",
  ]

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
  ] + infiniteResultFields

  /// The fields an infinite observer's result adds.
  public static let infiniteResultFields = [
    "hasNextPage", "hasPreviousPage", "isFetchingNextPage", "isFetchingPreviousPage",
    "isFetchNextPageError", "isFetchPreviousPageError",
  ]

  /// The `$fn` recipes and the parameter members each one takes.
  public static let recipeParameters: [String: [String]] = [
    "const": ["value"], "identity": [], "countCalls": [], "pluck": ["key"], "length": [], "throw": ["message"],
    "failureCountLessThan": ["n"], "linear": ["ms"], "previousData": [], "keyIncludes": ["value"], "stateIs": ["field", "value"], "dataBelow": ["n", "then", "else"], "joinKey": ["separator"], "keepPrevious": [], "takeNew": [],
    "increment": ["by"], "append": ["value"], "undefined": [],
    "queryKey": [], "pageParam": [], "callCount": [], "context": [], "variables": [],
    "paramPlus": ["by", "until"], "pageField": ["key"], "pluckAll": ["key"],
    "wrap": ["key"], "mutationStateIs": ["field", "value"],
  ]

  /// The `queryFn` value that stands for TanStack's `skipToken`.
  public static let skipToken = "$skipToken"

  /// The operation names of a step, sorted (computed once: the validator reads it for every step).
  public static let operations: [String] = OperationSpec.all.keys.sorted()
}
