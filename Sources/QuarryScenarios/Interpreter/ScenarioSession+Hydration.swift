import Quarry

/// Steps of hydration: `dehydrate` writes the snapshot's JSON (what a persister stores) and keeps
/// the snapshot under its handle; `hydrate` restores a literal snapshot or a kept one.
/// Node twin: Conformance/tanstack/Interpreter/ScenarioSession+Hydration.mjs.
extension ScenarioSession {
  /// Performs a hydration step; `false` when `step` is not one.
  func performHydration(_ step: Step, _ a: ArgumentReader) throws -> Bool {
    let p = step.path
    switch step.operation {
    case "dehydrate":
      let options = try dehydrateOptions(a["options"], "\(p).options")
      let snapshot = dehydrate(client, options: options)
      if let handle = step.handle { snapshots[handle] = snapshot }
      returned(try snapshot.json(), handle: step.handle)
    case "setStorage", "persistClient", "unpersist":
      try performPersist(step, a)
    case "newClient":
      // Another client with the fixture's configuration, in the current one's environment (Swift's
      // focus and online managers are per client; TanStack's are global).
      let old = client!
      unlisten()
      oldClients.append(old)
      try makeClient()
      client.focusManager.setFocused(old.focusManager.isFocused)
      client.onlineManager.setOnline(old.onlineManager.isOnline)
    case "hydrate":
      let options = try a["options"].map { try hydrateOptions($0, "\(p).options") }
      if a.has("from") {
        hydrate(client, snapshots[try a.string("from")]!, options: options)
      } else {
        try hydrate(client, json: fixtureValue(a["state"]) ?? .undefined, options: options)
      }
    default:
      return false
    }
    return true
  }

  /// `client.defaultOptions.dehydrate` and `.hydrate`.
  func hydrationDefaults(_ d: ArgumentReader, into defaults: inout DefaultOptions) throws {
    if let o = d["dehydrate"] { defaults.dehydrate = try dehydrateOptions(o, "client.defaultOptions.dehydrate") }
    if let o = d["hydrate"] { defaults.hydrate = try hydrateOptions(o, "client.defaultOptions.hydrate") }
  }

  func dehydrateOptions(_ value: JSONValue?, _ path: String) throws -> DehydrateOptions {
    var options = DehydrateOptions()
    guard case .object(let o)? = value else { return options }
    if let r = recipe(o["shouldDehydrateQuery"]) {
      options.shouldDehydrateQuery = try queryPredicate(r, "\(path).shouldDehydrateQuery")
    }
    if let r = recipe(o["shouldDehydrateMutation"]) {
      if r.name == "const" {
        let keep = fixtureValue(r.args["value"])?.isTruthy ?? false
        options.shouldDehydrateMutation = { _ in keep }
      } else {
        let field = r.args["field"]?.stringValue ?? ""
        let wanted = TraceValues.show(fixtureValue(r.args["value"]))
        options.shouldDehydrateMutation = { TraceValues.show(TraceValues.mutationState($0.state)[field]) == wanted }
      }
    }
    if let r = recipe(o["shouldRedactErrors"]) {
      let answer = fixtureValue(r.args["value"])
      options.shouldRedactErrors = { _ in answer?.boolValue ?? (answer?.isTruthy ?? false) }
    }
    if let r = recipe(o["serializeData"]) { options.serializeData = transform(r) }
    return options
  }

  /// `(query) => boolean` from a filter predicate recipe (`keyIncludes`, `stateIs`, `const`).
  private func queryPredicate(_ r: (name: String, args: [String: JSONValue]), _ path: String) throws -> @Sendable (Query) -> Bool {
    let filters = try decoder.filters(.object(["predicate": .object(r.args)]), path).filters
    guard let predicate = filters.predicate else { throw decoder.fail(path, "expected a predicate recipe") }
    return predicate
  }

  /// `wrap` (`d => ({[key]: d})`) or `pluck` (`d => d[key]`) on JSON data.
  private func transform(_ r: (name: String, args: [String: JSONValue])) -> @Sendable (any Sendable) -> any Sendable {
    let key = r.args["key"] ?? .null
    if r.name == "wrap" {
      let name = key.stringValue ?? ""
      return { data in JSONValue.object([name: TraceValues.json(data) ?? .undefined]) }
    }
    return { data in
      let json = TraceValues.json(data)
      switch key {
      case .string(let name): return json?[name] ?? JSONValue.undefined
      case .number(let i): return json?.arrayValue.flatMap { Int(i) < $0.count ? $0[Int(i)] : nil } ?? JSONValue.undefined
      default: return JSONValue.undefined
      }
    }
  }

  private func hydrateOptions(_ value: JSONValue, _ path: String) throws -> HydrateOptions {
    var options = HydrateOptions()
    guard case .object(let o) = value else { return options }
    if let queries = o["queries"] { options.queries = try decoder.queryOptions(queries, "\(path).queries") }
    if let mutations = o["mutations"] { options.mutations = try mutationOptions(mutations, "\(path).mutations") }
    if let r = recipe(o["deserializeData"]) { options.deserializeData = transform(r) }
    return options
  }
}
