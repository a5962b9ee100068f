import Quarry
/// The top level of a fixture: format, ID, title, client and functions.
extension FixtureValidator {
  /// Validates a whole fixture and builds its scenario.
  mutating func scenario(from value: JSONValue) throws(FixtureError) -> Scenario {
    let root = try object(value, .root, "a JSON object (the fixture)")
    try onlyMembers(root, FixtureVocabulary.topLevelMembers, .root, "top-level member")

    guard let format = root["format"] else { throw fail("format", "missing; expected 1") }
    guard format == .number(1) else { throw fail("format", "expected 1, found \(found(format))") }

    guard let idValue = root["id"] else { throw fail("id", "missing; expected an ID like \"dedup-001\"") }
    guard case .string(let id) = idValue, FixtureDecoder.isValidID(id) else {
      throw fail("id", "expected an ID of the form <area>-NNN (lowercase letters, '-', three digits), found \(found(idValue))")
    }
    let expectedID = FixtureDecoder.expectedID(forFile: file)
    guard id == expectedID else { throw fail("id", "expected the file name \(list([expectedID])), found \(list([id]))") }

    guard let titleValue = root["title"] else { throw fail("title", "missing; expected what the scenario shows") }
    guard case .string(let title) = titleValue, !title.isEmpty else {
      throw fail("title", "expected a non-empty string, found \(found(titleValue))")
    }
    guard title.count <= FixtureDecoder.maximumTitleLength else {
      throw fail("title", "expected at most \(FixtureDecoder.maximumTitleLength) characters, found \(title.count)")
    }

    if let source = root["source"], source.stringValue == nil {
      throw fail("source", "expected a string, found \(found(source))")
    }

    var functions: [String: [Outcome]] = [:]
    if let functionsValue = root["functions"] { functions = try decodeFunctions(functionsValue) }
    var streams: [String: StreamScript] = [:]
    if let streamsValue = root["streams"] { streams = try decodeStreams(streamsValue, functionNames: FixtureValidator.sortedNames(functions.keys)) }
    functionNames = (FixtureValidator.sortedNames(functions.keys) + FixtureValidator.sortedNames(streams.keys)).sorted()

    var callbacks: [String: JSONValue] = [:]
    if case .object(let members)? = root["callbacks"] { callbackNames = FixtureValidator.sortedNames(members.keys) }
    if let callbacksValue = root["callbacks"] { callbacks = try decodeCallbacks(callbacksValue) }

    if let client = root["client"] { try checkClient(client) }

    guard let stepsValue = root["steps"] else { throw fail("steps", "missing; expected an array of steps") }
    guard case .array(let stepValues) = stepsValue, !stepValues.isEmpty else {
      throw fail("steps", "expected a non-empty array of steps, found \(found(stepsValue))")
    }
    var steps: [Step] = []
    var lastAt = 0
    for (index, stepValue) in stepValues.enumerated() {
      steps.append(try decodeStep(stepValue, index: index, lastAt: &lastAt))
    }
    var scenario = Scenario(id: id, title: title, file: file, client: root["client"], functions: functions, callbacks: callbacks, steps: steps)
    scenario.streams = streams
    return scenario
  }

  /// Checks `client`: `{"defaultOptions": {"queries": {...}, "mutations": {...}}}`.
  func checkClient(_ value: JSONValue) throws(FixtureError) {
    let client = try object(value, "client", "an object with \"defaultOptions\", \"queryCache\" and/or \"mutationCache\"")
    try onlyMembers(client, ["defaultOptions", "queryCache", "mutationCache"], "client", "client member")
    if let callbacksValue = client["queryCache"] {
      let callbacks = try object(callbacksValue, "client.queryCache", "an object of QueryCache callbacks")
      try onlyMembers(callbacks, ["onSuccess", "onError", "onSettled"], "client.queryCache", "QueryCache callback")
      for key in FixtureValidator.sortedNames(callbacks.keys) where callbacks[key] != .bool(true) {
        throw fail(FixturePath("client.queryCache").member(key), "expected true, found \(found(callbacks[key]!))")
      }
    }
    if let cacheValue = client["mutationCache"] {
      let cachePath = FixturePath("client").member("mutationCache")
      let hooks = try object(cacheValue, cachePath, "an object of mutation cache callbacks")
      try onlyMembers(hooks, FixtureVocabulary.mutationHooks, cachePath, "mutation cache callback")
      for key in FixtureValidator.sortedNames(hooks.keys) { try checkCallbackName(hooks[key]!, cachePath.member(key)) }
    }
    guard let defaultsValue = client["defaultOptions"] else { return }
    let path: FixturePath = "client.defaultOptions"
    let defaults = try object(defaultsValue, path, "an object with \"queries\", \"mutations\", \"dehydrate\" and/or \"hydrate\"")
    try onlyMembers(defaults, ["queries", "mutations", "dehydrate", "hydrate"], path, "defaultOptions member")
    if let dehydrate = defaults["dehydrate"] { try checkHydrationArgument(dehydrate, .dehydrateOptions, path.member("dehydrate")) }
    if let hydrate = defaults["hydrate"] { try checkHydrationArgument(hydrate, .hydrateOptions, path.member("hydrate")) }
    if let queries = defaults["queries"] {
      try checkQueryOptions(queries, path.member("queries"), requireKey: false)
    }
    if let mutations = defaults["mutations"] {
      try checkMutationOptions(mutations, path.member("mutations"))
    }
  }

  /// Checks a mutation options object.
  func checkMutationOptions(_ value: JSONValue, _ path: FixturePath) throws(FixtureError) {
    let options = try object(value, path, "an object of mutation options")
    try onlyMembers(options, FixtureVocabulary.mutationOptions, path, "mutation option")
    try forEachMember(options) { key, member throws(FixtureError) in
      let memberPath = path.member(key)
      switch key {
      case "mutationFn":
        guard case .string(let name) = member, functionNames.contains(name) else {
          throw fail(memberPath, "expected a function declared in \"functions\", found \(found(member))")
        }
      case "onMutate", "onSuccess", "onError", "onSettled":
        try checkCallbackName(member, memberPath)
      case "scope":
        let scope = try object(member, memberPath, "a scope {\"id\": ...}")
        try onlyMembers(scope, ["id"], memberPath, "scope member")
        guard case .string? = scope["id"] else { throw fail(memberPath.member("id"), "expected a string") }
      default:
        try check(member, OperationSpec.mutationOptionRules[key] ?? .data, memberPath)
      }
    }
  }

  /// Checks a mutation filters object.
  func checkMutationFilters(_ value: JSONValue, _ path: FixturePath) throws(FixtureError) {
    let filters = try object(value, path, "an object of mutation filters")
    try onlyMembers(filters, FixtureVocabulary.mutationFilterMembers, path, "mutation filter")
    if let key = filters["mutationKey"] { try check(key, .queryKey, path.member("mutationKey")) }
    if let exact = filters["exact"] { try check(exact, .bool, path.member("exact")) }
    if let status = filters["status"] {
      try check(status, .oneOf([.literal("idle"), .literal("pending"), .literal("success"), .literal("error")]), path.member("status"))
    }
  }

  /// Checks a reference to a callback declared in `callbacks`.
  func checkCallbackName(_ value: JSONValue, _ path: FixturePath) throws(FixtureError) {
    guard case .string(let name) = value, callbackNames.contains(name) else {
      let declared = callbackNames.isEmpty ? "none are declared" : "declared: \(callbackNames.joined(separator: ", "))"
      throw fail(path, "expected a callback declared in \"callbacks\", found \(found(value)) (\(declared))")
    }
  }

  /// Decodes `callbacks`: a name to `{"do": [operations], "return" or "throw", "async"}`.
  mutating func decodeCallbacks(_ value: JSONValue) throws(FixtureError) -> [String: JSONValue] {
    let members = try object(value, "callbacks", "an object mapping callback names to scripted callbacks")
    for name in FixtureValidator.sortedNames(members.keys) {
      let path = FixturePath("callbacks").member(name)
      guard !name.isEmpty, !name.hasPrefix("$") else {
        throw fail(path, "expected a callback name that is not empty and does not start with '$'")
      }
      let spec = try object(members[name]!, path, "a scripted callback object")
      try onlyMembers(spec, FixtureVocabulary.callbackMembers, path, "callback member")
      if spec["return"] != nil, spec["throw"] != nil { throw fail(path, "expected at most one of \"return\" and \"throw\"") }
      if let returned = spec["return"] { try checkData(returned, path.member("return")) }
      if let thrown = spec["throw"] { try check(thrown, .string, path.member("throw")) }
      if let async = spec["async"] { try check(async, .bool, path.member("async")) }
      guard let ops = spec["do"] else { continue }
      let opsPath = path.member("do")
      guard case .array(let items) = ops else { throw fail(opsPath, "expected an array of operations, found \(found(ops))") }
      for (index, item) in items.enumerated() {
        let itemPath = opsPath.element(index)
        let op = try object(item, itemPath, "an operation object")
        let names = op.keys.filter { $0 != "await" && $0 != "as" }.sorted()
        guard names.count == 1, let opName = names.first, FixtureVocabulary.callbackOperations.contains(opName), let opSpec = OperationSpec.all[opName] else {
          throw fail(itemPath, "expected exactly one of \(FixtureVocabulary.callbackOperations.joined(separator: ", ")), plus \"await\" and \"as\"")
        }
        if let awaitValue = op["await"] { try check(awaitValue, .bool, itemPath.member("await")) }
        if let asValue = op["as"] { try check(asValue, .string, itemPath.member("as")) }
        try checkArguments(op[opName]!, spec: opSpec, operation: opName, step: -1, itemPath.member(opName))
      }
    }
    return members
  }

  /// Decodes `functions`: a name to a non-empty list of outcomes.
  func decodeFunctions(_ value: JSONValue) throws(FixtureError) -> [String: [Outcome]] {
    let members = try object(value, "functions", "an object mapping function names to outcome lists")
    var functions: [String: [Outcome]] = [:]
    for name in FixtureValidator.sortedNames(members.keys) {
      let path = FixturePath("functions").member(name)
      guard !name.isEmpty, !name.hasPrefix("$") else {
        throw fail(path, "expected a function name that is not empty and does not start with '$'")
      }
      guard case .array(let outcomeValues) = members[name]!, !outcomeValues.isEmpty else {
        throw fail(path, "expected a non-empty array of outcomes, found \(found(members[name]!))")
      }
      var outcomes: [Outcome] = []
      for (index, outcomeValue) in outcomeValues.enumerated() {
        let outcomePath = path.element(index)
        if let previous = outcomes.last, previous.times == nil {
          throw fail(outcomePath, "no outcome after one used \"forever\" (it is never reached)")
        }
        outcomes.append(try decodeOutcome(outcomeValue, outcomePath))
      }
      functions[name] = outcomes
    }
    return functions
  }

  /// Decodes one scripted outcome.
  func decodeOutcome(_ value: JSONValue, _ path: FixturePath) throws(FixtureError) -> Outcome {
    let members = try object(value, path, "an outcome object with \"return\" or \"throw\"")
    try onlyMembers(members, FixtureVocabulary.outcomeMembers, path, "outcome member")
    var after: Int?
    if let afterValue = members["after"] { after = try integer(afterValue, min: 0, path.member("after")) }
    let result: Outcome.Result
    let kinds = ["return", "throw", "reject", "throwSync"]
    let present = kinds.filter { members[$0] != nil }
    guard present.count == 1, let kind = present.first, let given = members[kind] else {
      throw fail(path, "expected exactly one of \(list(kinds)), found \(present.isEmpty ? "none" : list(present))")
    }
    switch kind {
    case "return":
      let rule = ValueRule.oneOf([.recipes(["queryKey", "pageParam", "callCount", "context", "variables"]), .data])
      try check(given, rule, path.member("return"))
      result = .value(given)
    case "reject":
      try checkData(given, path.member("reject"))
      result = .rejection(given)
    default:
      guard case .string(let message) = given else {
        throw fail(path.member(kind), "expected an error message string, found \(found(given))")
      }
      if kind == "throwSync", members["after"] != nil {
        throw fail(path.member("after"), "no \"after\" with \"throwSync\": it throws when called")
      }
      result = kind == "throw" ? .error(message) : .syncError(message)
    }
    var readSignal = false
    if let signal = members["readSignal"] {
      guard case .bool(let flag) = signal else {
        throw fail(path.member("readSignal"), "expected true or false, found \(found(signal))")
      }
      readSignal = flag
    }
    var onAbort = false
    if let listens = members["onAbort"] {
      guard case .bool(let flag) = listens else {
        throw fail(path.member("onAbort"), "expected true or false, found \(found(listens))")
      }
      onAbort = flag
    }
    var times: Int? = 1
    if let timesValue = members["times"] {
      if timesValue == .string("forever") {
        times = nil
      } else if let n = FixtureValidator.integer(timesValue), n >= 1 {
        times = n
      } else {
        throw fail(path.member("times"), "expected a whole number ≥ 1 or \"forever\", found \(found(timesValue))")
      }
    }
    return Outcome(after: after, result: result, readSignal: readSignal, times: times, onAbort: onAbort)
  }

  /// Checks a query options object.
  func checkQueryOptions(_ value: JSONValue, _ path: FixturePath, requireKey: Bool, extra: [String: ValueRule] = [:]) throws(FixtureError) {
    let options = try object(value, path, "an object of query options")
    let allowed = extra.isEmpty ? FixtureVocabulary.queryOptions : FixtureVocabulary.queryOptions + FixtureValidator.sortedNames(extra.keys)
    try onlyMembers(options, allowed, path, "query option")
    if requireKey, options["queryKey"] == nil {
      throw fail(path.member("queryKey"), "missing; expected a query key (an array)")
    }
    try forEachMember(options) { key, option throws(FixtureError) in
      let rule = OperationSpec.queryOptionRules[key] ?? extra[key] ?? .data
      try check(option, rule, path.member(key))
    }
  }

  /// Checks a query filters object.
  func checkFilters(_ value: JSONValue, _ path: FixturePath, refetchType: Bool) throws(FixtureError) {
    let filters = try object(value, path, "an object of query filters")
    let allowed = refetchType ? FixtureValidator.refetchFilterMembers : FixtureVocabulary.filterMembers
    try onlyMembers(filters, allowed, path, "filter")
    try forEachMember(filters) { key, filter throws(FixtureError) in
      try check(filter, OperationSpec.filterRules[key] ?? .data, path.member(key))
    }
  }
}
