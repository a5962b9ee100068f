/// The top level of a fixture: format, ID, title, client and functions.
extension FixtureValidator {
  /// Validates a whole fixture and builds its scenario.
  mutating func scenario(from value: JSONValue) throws(FixtureError) -> Scenario {
    let root = try object(value, JSONPath.root, "a JSON object (the fixture)")
    try onlyMembers(root, FixtureVocabulary.topLevelMembers, JSONPath.root, "top-level member")

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
    if let streamsValue = root["streams"] { streams = try decodeStreams(streamsValue, functionNames: functions.keys.sorted()) }
    functionNames = (functions.keys.sorted() + streams.keys.sorted()).sorted()

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
    var scenario = Scenario(id: id, title: title, file: file, client: root["client"], functions: functions, steps: steps)
    scenario.streams = streams
    return scenario
  }

  /// Checks `client`: `{"defaultOptions": {"queries": {...}, "mutations": {...}}}`.
  func checkClient(_ value: JSONValue) throws(FixtureError) {
    let client = try object(value, "client", "an object with \"defaultOptions\"")
    try onlyMembers(client, ["defaultOptions"], "client", "client member")
    guard let defaultsValue = client["defaultOptions"] else { return }
    let path = "client.defaultOptions"
    let defaults = try object(defaultsValue, path, "an object with \"queries\" and/or \"mutations\"")
    try onlyMembers(defaults, ["queries", "mutations"], path, "defaultOptions member")
    if let queries = defaults["queries"] {
      try checkQueryOptions(queries, JSONPath.member(path, "queries"), requireKey: false)
    }
    if let mutations = defaults["mutations"] {
      let mutationsPath = JSONPath.member(path, "mutations")
      let options = try object(mutations, mutationsPath, "an object of mutation options")
      try onlyMembers(options, FixtureVocabulary.mutationOptions, mutationsPath, "mutation option")
      for key in options.keys.sorted() {
        try check(options[key]!, OperationSpec.mutationOptionRules[key] ?? .data, JSONPath.member(mutationsPath, key))
      }
    }
  }

  /// Decodes `functions`: a name to a non-empty list of outcomes.
  func decodeFunctions(_ value: JSONValue) throws(FixtureError) -> [String: [Outcome]] {
    let members = try object(value, "functions", "an object mapping function names to outcome lists")
    var functions: [String: [Outcome]] = [:]
    for name in members.keys.sorted() {
      let path = JSONPath.member("functions", name)
      guard !name.isEmpty, !name.hasPrefix("$") else {
        throw fail(path, "expected a function name that is not empty and does not start with '$'")
      }
      guard case .array(let outcomeValues) = members[name]!, !outcomeValues.isEmpty else {
        throw fail(path, "expected a non-empty array of outcomes, found \(found(members[name]!))")
      }
      var outcomes: [Outcome] = []
      for (index, outcomeValue) in outcomeValues.enumerated() {
        let outcomePath = JSONPath.element(path, index)
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
  func decodeOutcome(_ value: JSONValue, _ path: String) throws(FixtureError) -> Outcome {
    let members = try object(value, path, "an outcome object with \"return\" or \"throw\"")
    try onlyMembers(members, FixtureVocabulary.outcomeMembers, path, "outcome member")
    var after: Int?
    if let afterValue = members["after"] { after = try integer(afterValue, min: 0, JSONPath.member(path, "after")) }
    let result: Outcome.Result
    switch (members["return"], members["throw"]) {
    case (let returned?, nil):
      let rule = ValueRule.oneOf([.recipes(["queryKey", "pageParam", "callCount"]), .data])
      try check(returned, rule, JSONPath.member(path, "return"))
      result = .value(returned)
    case (nil, let thrown?):
      guard case .string(let message) = thrown else {
        throw fail(JSONPath.member(path, "throw"), "expected an error message string, found \(found(thrown))")
      }
      result = .error(message)
    case (nil, nil):
      throw fail(path, "expected exactly one of \"return\" and \"throw\", found neither")
    case (_?, _?):
      throw fail(path, "expected exactly one of \"return\" and \"throw\", found both")
    }
    var readSignal = false
    if let signal = members["readSignal"] {
      guard case .bool(let flag) = signal else {
        throw fail(JSONPath.member(path, "readSignal"), "expected true or false, found \(found(signal))")
      }
      readSignal = flag
    }
    var times: Int? = 1
    if let timesValue = members["times"] {
      if timesValue == .string("forever") {
        times = nil
      } else if let n = FixtureValidator.integer(timesValue), n >= 1 {
        times = n
      } else {
        throw fail(JSONPath.member(path, "times"), "expected a whole number ≥ 1 or \"forever\", found \(found(timesValue))")
      }
    }
    return Outcome(after: after, result: result, readSignal: readSignal, times: times)
  }

  /// Checks a query options object.
  func checkQueryOptions(_ value: JSONValue, _ path: String, requireKey: Bool, extra: [String: ValueRule] = [:]) throws(FixtureError) {
    let options = try object(value, path, "an object of query options")
    let allowed = FixtureVocabulary.queryOptions + extra.keys.sorted()
    try onlyMembers(options, allowed, path, "query option")
    if requireKey, options["queryKey"] == nil {
      throw fail(JSONPath.member(path, "queryKey"), "missing; expected a query key (an array)")
    }
    for key in options.keys.sorted() {
      let rule = OperationSpec.queryOptionRules[key] ?? extra[key] ?? .data
      try check(options[key]!, rule, JSONPath.member(path, key))
    }
  }

  /// Checks a query filters object.
  func checkFilters(_ value: JSONValue, _ path: String, refetchType: Bool) throws(FixtureError) {
    let filters = try object(value, path, "an object of query filters")
    let allowed = FixtureVocabulary.filterMembers + (refetchType ? ["refetchType"] : [])
    try onlyMembers(filters, allowed, path, "filter")
    for key in filters.keys.sorted() {
      try check(filters[key]!, OperationSpec.filterRules[key] ?? .data, JSONPath.member(path, key))
    }
  }
}
