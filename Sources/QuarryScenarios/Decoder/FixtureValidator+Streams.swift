import Quarry
/// The `streams` member of a fixture: scripted streams read by `streamedQuery`.
extension FixtureValidator {
  /// Decodes `streams`: a name to a stream; names may not repeat one in `functions`.
  func decodeStreams(_ value: JSONValue, functionNames: [String]) throws(FixtureError) -> [String: StreamScript] {
    let members = try object(value, "streams", "an object mapping stream names to streams")
    var streams: [String: StreamScript] = [:]
    for name in FixtureValidator.sortedNames(members.keys) {
      let path = FixturePath("streams").member(name)
      guard !name.isEmpty, !name.hasPrefix("$") else {
        throw fail(path, "expected a stream name that is not empty and does not start with '$'")
      }
      guard !functionNames.contains(name) else { throw fail(path, "expected a name not used in \"functions\"; \(list([name])) is") }
      streams[name] = try decodeStream(members[name]!, path)
    }
    return streams
  }

  private func decodeStream(_ value: JSONValue, _ path: FixturePath) throws(FixtureError) -> StreamScript {
    let members = try object(value, path, "a stream object with \"outcomes\"")
    try onlyMembers(members, FixtureVocabulary.streamMembers, path, "stream member")
    var stream = StreamScript(outcomes: [])
    if let mode = members["refetchMode"] {
      guard case .string(let name) = mode, FixtureVocabulary.refetchModes.contains(name) else {
        throw fail(path.member("refetchMode"), "expected one of \(list(FixtureVocabulary.refetchModes)), found \(found(mode))")
      }
      stream.refetchMode = name
    }
    switch (members["reducer"], members["initialValue"]) {
    case (nil, nil): break
    case (let reducer?, let initialValue?):
      let reducerPath = path.member("reducer")
      let recipe = try object(reducer, reducerPath, "a reducer recipe")
      try onlyMembers(recipe, ["$fn"], reducerPath, "reducer member")
      guard case .string(let name)? = recipe["$fn"], FixtureVocabulary.streamReducers.contains(name) else {
        throw fail(reducerPath.member("$fn"), "expected one of \(list(FixtureVocabulary.streamReducers))")
      }
      try check(initialValue, .data, path.member("initialValue"))
      stream.reducer = name
      stream.initialValue = initialValue
    default:
      throw fail(path, "expected both or neither of \"reducer\" and \"initialValue\"")
    }
    let outcomesPath = path.member("outcomes")
    guard case .array(let outcomeValues)? = members["outcomes"], !outcomeValues.isEmpty else {
      throw fail(outcomesPath, "expected a non-empty array of stream outcomes")
    }
    for (index, outcomeValue) in outcomeValues.enumerated() {
      let outcomePath = outcomesPath.element(index)
      if let previous = stream.outcomes.last, previous.times == nil {
        throw fail(outcomePath, "no outcome after one used \"forever\" (it is never reached)")
      }
      stream.outcomes.append(try decodeStreamOutcome(outcomeValue, outcomePath))
    }
    return stream
  }

  private func decodeStreamOutcome(_ value: JSONValue, _ path: FixturePath) throws(FixtureError) -> StreamOutcome {
    let members = try object(value, path, "a stream outcome object with \"chunks\"")
    try onlyMembers(members, FixtureVocabulary.streamOutcomeMembers, path, "stream outcome member")
    let chunksPath = path.member("chunks")
    guard case .array(let chunkValues)? = members["chunks"] else { throw fail(chunksPath, "expected an array of chunks") }
    var outcome = StreamOutcome(chunks: [])
    for (index, chunkValue) in chunkValues.enumerated() {
      let chunkPath = chunksPath.element(index)
      let chunk = try object(chunkValue, chunkPath, "a chunk object")
      try onlyMembers(chunk, FixtureVocabulary.chunkMembers, chunkPath, "chunk member")
      var after: Int?
      if let afterValue = chunk["after"] { after = try integer(afterValue, min: 0, chunkPath.member("after")) }
      switch (chunk["value"], chunk["throw"]) {
      case (let v?, nil):
        try check(v, .data, chunkPath.member("value"))
        outcome.chunks.append(StreamChunk(after: after, result: .value(v)))
      case (nil, let thrown?):
        guard case .string(let message) = thrown else {
          throw fail(chunkPath.member("throw"), "expected an error message string, found \(found(thrown))")
        }
        guard index == chunkValues.count - 1 else { throw fail(chunkPath, "expected \"throw\" only in the last chunk") }
        outcome.chunks.append(StreamChunk(after: after, result: .error(message)))
      default:
        throw fail(chunkPath, "expected exactly one of \"value\" and \"throw\"")
      }
    }
    if let signal = members["readSignal"] {
      guard case .bool(let flag) = signal else {
        throw fail(path.member("readSignal"), "expected true or false, found \(found(signal))")
      }
      outcome.readSignal = flag
    }
    if let timesValue = members["times"] {
      if timesValue == .string("forever") {
        outcome.times = nil
      } else if let n = FixtureValidator.integer(timesValue), n >= 1 {
        outcome.times = n
      } else {
        throw fail(path.member("times"), "expected a whole number ≥ 1 or \"forever\", found \(found(timesValue))")
      }
    }
    return outcome
  }
}
