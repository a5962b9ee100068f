import Quarry
/// The operations of hydration: `dehydrate` and `hydrate` (Specs/README.md "Hydration").
extension OperationSpec {
  private static func arg(_ name: String, _ kind: Argument.Kind, required: Bool = true) -> Argument {
    Argument(name: name, required: required, kind: kind)
  }

  /// Every hydration operation by name.
  static let hydrationOperations: [String: OperationSpec] = [
    "dehydrate": OperationSpec(shape: .members([arg("options", .dehydrateOptions, required: false)]), records: .value),
    "hydrate": OperationSpec(
      shape: .members([
        arg("state", .value(.data), required: false),
        arg("from", .dehydratedHandle, required: false),
        arg("options", .hydrateOptions, required: false),
      ]),
      records: .nothing, exactlyOne: [["state", "from"]]),
    "newClient": OperationSpec(shape: .members([]), records: .nothing),
    "setStorage": OperationSpec(
      shape: .members([arg("quota", .value(.integer(min: 0)), required: false), arg("items", .value(.dataObject), required: false)]),
      records: .nothing),
    "persistClient": OperationSpec(
      shape: .members([
        arg("throttleTime", .value(.milliseconds), required: false),
        arg("maxAge", .value(.milliseconds), required: false),
        arg("buster", .value(.string), required: false),
        arg("retry", .value(.literal("removeOldestQuery")), required: false),
        arg("dehydrateOptions", .dehydrateOptions, required: false),
      ]),
      records: .settle),
    "unpersist": OperationSpec(shape: .members([]), records: .nothing),
  ]

  /// The per-query persister option (`{refetchOnRestore?, maxAge?, buster?}`, checked when decoded).
  static let persisterOptionRules: [String: ValueRule] = ["persister": .oneOf([.dataObject, .undefined])]

  /// The recipes each hydration option takes.
  static let hydrationOptionRules: [String: ValueRule] = [
    "shouldDehydrateQuery": .recipes(["keyIncludes", "stateIs", "const"]),
    "shouldDehydrateMutation": .recipes(["mutationStateIs", "const"]),
    "shouldRedactErrors": .recipes(["const"]),
    "serializeData": .recipes(["wrap", "pluck"]),
    "deserializeData": .recipes(["wrap", "pluck"]),
  ]
}

/// Checks of hydration arguments.
extension FixtureValidator {
  /// Checks `dehydrate`/`hydrate` options and a `from` handle.
  func checkHydrationArgument(_ value: JSONValue, _ kind: OperationSpec.Argument.Kind, _ path: FixturePath) throws(FixtureError) {
    switch kind {
    case .dehydratedHandle:
      guard case .string(let name) = value, handles[name]?.operation == "dehydrate" else {
        throw fail(path, "expected the handle (\"as\") of an earlier dehydrate step, found \(found(value))")
      }
    case .dehydrateOptions:
      let options = try object(value, path, "an object of dehydrate options")
      let names = ["shouldDehydrateQuery", "shouldDehydrateMutation", "shouldRedactErrors", "serializeData"]
      try onlyMembers(options, names, path, "dehydrate option")
      for key in FixtureValidator.sortedNames(options.keys) { try check(options[key]!, OperationSpec.hydrationOptionRules[key]!, path.member(key)) }
    default:
      let options = try object(value, path, "an object of hydrate options")
      try onlyMembers(options, ["queries", "mutations", "deserializeData"], path, "hydrate option")
      if let queries = options["queries"] { try checkQueryOptions(queries, path.member("queries"), requireKey: false) }
      if let mutations = options["mutations"] { try checkMutationOptions(mutations, path.member("mutations")) }
      if let deserialize = options["deserializeData"] {
        try check(deserialize, OperationSpec.hydrationOptionRules["deserializeData"]!, path.member("deserializeData"))
      }
    }
  }
}
