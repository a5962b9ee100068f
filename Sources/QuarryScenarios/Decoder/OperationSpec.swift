import Quarry
/// What a step operation takes and what its `as` handle records (the README's step table).
struct OperationSpec: Sendable {
  /// What a handle on the operation records.
  enum Records: Sendable {
    /// How the returned promise settles.
    case settle
    /// The returned value.
    case value
    /// Nothing: the operation takes no `as`.
    case nothing
  }

  /// The shape of the operation's argument object.
  enum Shape: Sendable {
    /// The arguments are query options (queryKey required), plus these extra members.
    case queryOptions(extra: [String: ValueRule])
    /// The arguments are these members.
    case members([Argument])
    /// The arguments are checks.
    case checks
    /// The argument is an array of steps performed with no draining between them (`tick`).
    case substeps
  }

  /// One argument member.
  struct Argument: Sendable {
    /// What the member holds.
    enum Kind: Sendable {
      /// A value matching a rule.
      case value(ValueRule)
      /// Query options.
      case queryOptions(requireKey: Bool)
      /// Query filters (`refetchType` allowed when set).
      case filters(refetchType: Bool)
      /// An object with only these boolean members.
      case flags([String])
      /// A new observer name.
      case declareObserver
      /// An observer declared by an earlier step.
      case observer
      /// Mutation options.
      case mutationOptions
      /// Mutation filters.
      case mutationFilters
      /// A new mutation observer name.
      case declareMutationObserver
      /// A mutation observer declared by an earlier step.
      case mutationObserver
      /// Per-call callbacks (`onSuccess`, `onError`, `onSettled`: callback names).
      case mutateOptions
      /// Options for the step's `observer`: query or mutation options by its kind.
      case observerOptions
      /// An array of query options (a queries observer's `queries`).
      case queryOptionsList
      /// A queries observer's options: `{combine}`, a combine recipe.
      case queriesOptions
      /// `dehydrate`'s options (`OperationSpec+Hydration`).
      case dehydrateOptions
      /// `hydrate`'s options.
      case hydrateOptions
      /// The handle of an earlier `dehydrate` step.
      case dehydratedHandle
    }
    var name: String
    var required: Bool
    var kind: Kind
  }

  var shape: Shape
  var records: Records
  /// Groups of members of which exactly one must be present.
  var exactlyOne: [[String]] = []

  private static func arg(_ name: String, _ kind: Argument.Kind, required: Bool = true) -> Argument {
    Argument(name: name, required: required, kind: kind)
  }

  /// A `setQueryData` updater.
  static let updater = ValueRule.recipes(["increment", "append", "undefined", "const"])

  private static let clientAction: [Argument] = [
    arg("filters", .filters(refetchType: false), required: false),
    arg("options", .flags(FixtureVocabulary.actionOptions), required: false),
  ]

  /// Every operation by name.
  static let all: [String: OperationSpec] = pagedOperations.merging(coreOperations) { paged, _ in paged }
    .merging(hydrationOperations) { earlier, _ in earlier }

  /// The operations of queries and observers of one query.
  private static let coreOperations: [String: OperationSpec] = [
    "fetchQuery": OperationSpec(shape: .queryOptions(extra: [:]), records: .settle),
    "prefetchQuery": OperationSpec(shape: .queryOptions(extra: [:]), records: .settle),
    "ensureQueryData": OperationSpec(shape: .queryOptions(extra: ["revalidateIfStale": .bool]), records: .settle),
    "getQueryData": OperationSpec(shape: .members([arg("queryKey", .value(.queryKey))]), records: .value),
    "getQueryState": OperationSpec(shape: .members([arg("queryKey", .value(.queryKey))]), records: .value),
    "setQueryData": OperationSpec(
      shape: .members([
        arg("queryKey", .value(.queryKey)),
        arg("data", .value(.data), required: false),
        arg("updater", .value(updater), required: false),
        arg("updatedAt", .value(.milliseconds), required: false),
      ]),
      records: .value, exactlyOne: [["data", "updater"]]),
    "getQueriesData": OperationSpec(shape: .members([arg("filters", .filters(refetchType: false))]), records: .value),
    "setQueriesData": OperationSpec(
      shape: .members([
        arg("filters", .filters(refetchType: false)),
        arg("data", .value(.data), required: false),
        arg("updater", .value(updater), required: false),
      ]),
      records: .value, exactlyOne: [["data", "updater"]]),
    "invalidateQueries": OperationSpec(
      shape: .members([
        arg("filters", .filters(refetchType: true), required: false),
        arg("options", .flags(FixtureVocabulary.actionOptions), required: false),
      ]),
      records: .settle),
    "refetchQueries": OperationSpec(shape: .members(clientAction), records: .settle),
    "cancelQueries": OperationSpec(shape: .members(clientAction), records: .settle),
    "resetQueries": OperationSpec(shape: .members(clientAction), records: .settle),
    "removeQueries": OperationSpec(shape: .members([arg("filters", .filters(refetchType: false), required: false)]), records: .nothing),
    "isFetching": OperationSpec(shape: .members([arg("filters", .filters(refetchType: false), required: false)]), records: .value),
    "setQueryDefaults": OperationSpec(
      shape: .members([arg("queryKey", .value(.queryKey)), arg("options", .queryOptions(requireKey: false))]),
      records: .nothing),
    "clear": OperationSpec(shape: .members([]), records: .nothing),
    "find": OperationSpec(shape: .members([arg("filters", .filters(refetchType: false))]), records: .value),
    "findAll": OperationSpec(shape: .members([arg("filters", .filters(refetchType: false), required: false)]), records: .value),
    "observe": OperationSpec(
      shape: .members([arg("observer", .declareObserver), arg("options", .queryOptions(requireKey: true))]),
      records: .value),
    "createObserver": OperationSpec(
      shape: .members([arg("observer", .declareObserver), arg("options", .queryOptions(requireKey: true))]),
      records: .nothing),
    "subscribe": OperationSpec(
      shape: .members([
        arg("observer", .observer), arg("listener", .value(.string), required: false),
        arg("unsubscribeAfter", .value(.integer(min: 1)), required: false),
      ]),
      records: .nothing),
    "unsubscribe": OperationSpec(
      shape: .members([arg("observer", .observer), arg("listener", .value(.string), required: false)]), records: .nothing),
    "setOptions": OperationSpec(
      shape: .members([arg("observer", .observer), arg("options", .observerOptions)]),
      records: .nothing),
    "mutate": OperationSpec(
      shape: .members([
        arg("options", .mutationOptions, required: false),
        arg("observer", .mutationObserver, required: false),
        arg("variables", .value(.data), required: false),
        arg("mutateOptions", .mutateOptions, required: false),
      ]),
      records: .settle, exactlyOne: [["options", "observer"]]),
    "observeMutation": OperationSpec(
      shape: .members([arg("observer", .declareMutationObserver), arg("options", .mutationOptions)]),
      records: .value),
    "createMutationObserver": OperationSpec(
      shape: .members([arg("observer", .declareMutationObserver), arg("options", .mutationOptions)]),
      records: .nothing),
    "reset": OperationSpec(shape: .members([arg("observer", .mutationObserver)]), records: .nothing),
    "resumePausedMutations": OperationSpec(shape: .members([]), records: .settle),
    "isMutating": OperationSpec(shape: .members([arg("filters", .mutationFilters, required: false)]), records: .value),
    "findMutation": OperationSpec(shape: .members([arg("filters", .mutationFilters)]), records: .value),
    "findAllMutations": OperationSpec(shape: .members([arg("filters", .mutationFilters, required: false)]), records: .value),
    "setMutationDefaults": OperationSpec(
      shape: .members([arg("mutationKey", .value(.queryKey)), arg("options", .mutationOptions)]),
      records: .nothing),
    "refetch": OperationSpec(
      shape: .members([arg("observer", .observer), arg("options", .flags(FixtureVocabulary.refetchOptions), required: false)]),
      records: .settle),
    "getCurrentResult": OperationSpec(shape: .members([arg("observer", .observer)]), records: .value),
    "getOptimisticResult": OperationSpec(
      shape: .members([arg("observer", .observer), arg("options", .queryOptions(requireKey: true))]),
      records: .value),
    "setFocused": OperationSpec(shape: .members([arg("focused", .value(.oneOf([.bool, .undefined])))]), records: .nothing),
    "setOnline": OperationSpec(shape: .members([arg("online", .value(.bool))]), records: .nothing),
    "expect": OperationSpec(shape: .checks, records: .nothing),
    "tick": OperationSpec(shape: .substeps, records: .nothing),
    "subscribeCache": OperationSpec(shape: .substeps, records: .nothing),
  ]

  /// The rule for each query option's value.
  static let queryOptionRules: [String: ValueRule] = {
    let refetchOn = ValueRule.oneOf([.bool, .literal("always"), .constRecipe, .undefined])
    return [
      "queryKey": .queryKey,
      "queryFn": .oneOf([.functionName, .undefined]),
      "staleTime": .oneOf([.milliseconds, .literal("Infinity"), .literal("static"), .recipes(["const", "dataBelow"]), .undefined]),
      "gcTime": .oneOf([.milliseconds, .literal("Infinity"), .constRecipe, .undefined]),
      "retry": .oneOf([.bool, .integer(min: 0), .literal("Infinity"), .recipes(["failureCountLessThan", "const"]), .undefined]),
      "retryDelay": .oneOf([.milliseconds, .recipes(["linear", "const"]), .undefined]),
      "enabled": .oneOf([.bool, .recipes(["const", "dataBelow"]), .undefined]),
      "select": .oneOf([.recipes(["identity", "countCalls", "pluck", "length", "throw", "const"]), .undefined]),
      "placeholderData": .oneOf([.recipes(["previousData", "const"]), .data]),
      "initialData": .oneOf([.constRecipe, .data]),
      "initialDataUpdatedAt": .oneOf([.milliseconds, .constRecipe, .undefined]),
      "refetchOnMount": refetchOn,
      "refetchOnWindowFocus": refetchOn,
      "refetchOnReconnect": refetchOn,
      "refetchInterval": .oneOf([.milliseconds, .falseValue, .recipes(["const", "dataBelow"]), .undefined]),
      "refetchIntervalInBackground": .oneOf([.bool, .undefined]),
      "notifyOnChangeProps": .oneOf([.array(.string), .literal("all"), .constRecipe, .undefined]),
      "structuralSharing": .oneOf([.bool, .recipes(["keepPrevious", "takeNew"]), .undefined]),
      "networkMode": .oneOf([.literal("online"), .literal("always"), .literal("offlineFirst"), .undefined]),
      "meta": .oneOf([.dataObject, .undefined]),
      "retryOnMount": .oneOf([.bool, .undefined]),
      "queryHash": .oneOf([.string, .undefined]),
      "queryKeyHashFn": .oneOf([.recipes(["joinKey"]), .undefined]),
    ].merging(infiniteOptionRules) { core, _ in core }.merging(persisterOptionRules) { core, _ in core }
  }()

  /// The rule for each mutation option's value (function and callback names are checked by name).
  static let mutationOptionRules: [String: ValueRule] = [
    "mutationKey": .queryKey,
    "retry": .oneOf([.bool, .integer(min: 0), .literal("Infinity"), .recipes(["failureCountLessThan", "const"])]),
    "retryDelay": .oneOf([.milliseconds, .recipes(["linear", "const"])]),
    "gcTime": .oneOf([.milliseconds, .literal("Infinity")]),
    "networkMode": .oneOf([.literal("online"), .literal("always"), .literal("offlineFirst")]),
    "meta": .dataObject,
  ]

  /// The rule for each filter member's value.
  static let filterRules: [String: ValueRule] = [
    "queryKey": .queryKey,
    "exact": .bool,
    "type": .oneOf([.literal("active"), .literal("inactive"), .literal("all")]),
    "stale": .bool,
    "fetchStatus": .oneOf([.literal("fetching"), .literal("paused"), .literal("idle")]),
    "predicate": .recipes(["keyIncludes", "stateIs", "const"]),
    "refetchType": .oneOf([.literal("active"), .literal("inactive"), .literal("all"), .literal("none")]),
  ]
}
