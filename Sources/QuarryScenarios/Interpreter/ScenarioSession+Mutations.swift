import Quarry

/// A mutation observer a fixture declared, with its listener.
struct MutationObserverEntry {
  var observer: MutationObserver
  var unsubscribe: (@Sendable () -> Void)?
  var notifications = 0
}

/// The values a scripted callback's `$ref`s read: its arguments and its operations' results.
final class CallbackEnvironment: @unchecked Sendable {
  // Safe: a scenario session runs every job on the thread that drives it.
  var values: [String: JSONValue?] = [:]
}

extension ScenarioSession {
  // MARK: Scripted mutation functions and callbacks

  /// The scripted function `name` as a mutation function: the call event carries the variables
  /// and the mutation key's hash (when there is a key).
  func mutationFunction(_ name: String) -> MutationFunction? {
    guard scripts[name] != nil else { return nil }
    if let fn = scripts[name]!.mutationFunction { return fn }
    let fn = MutationFunction { [unowned self] variables, context in
      var event: TraceEvent = [:]
      if let key = context.mutationKey { event["key"] = .string(key.queryHash) }
      if let v = TraceValues.json(variables) { event["variables"] = v }
      let (n, outcome) = self.call(name, event: event)
      guard let outcome else { throw ScriptError(message: "script exhausted: \(name)") }
      if case .syncError(let message) = outcome.result { throw ScriptError(message: message) }
      if let after = outcome.after { await self.scheduler.sleep(Double(after)) }
      switch outcome.result {
      case .error(let message), .syncError(let message): throw ScriptError(message: message)
      case .rejection(let value): throw ScriptRejection(value: fixtureValue(value) ?? .null)
      case .value(let v):
        if let r = recipe(v) {
          switch r.name {
          case "variables": return TraceValues.json(variables)
          case "callCount": return JSONValue.number(Double(n))  // this call's own number
          default: return Optional<JSONValue>.none
          }
        }
        return self.decoder.data(v)
      }
    }
    scripts[name]!.mutationFunction = fn
    return fn
  }

  /// The scripted callback `name` given to `hook` (`onSuccess`, `cache.onError`,
  /// `mutate.onSettled`, ...): one identity per hook and name, as the node runner has.
  func callback(_ name: String, hook: String, _ path: String) throws -> MutationCallback {
    let id = "\(hook) \(name)"
    if let cb = callbackFunctions[id] { return cb }
    guard case .object(let spec)? = scenario.callbacks[name] else {
      throw FixtureError(file: scenario.file, path: path, expected: "expected the name of a callback in \"callbacks\"")
    }
    var opList: [(name: String, args: JSONValue, await: Bool, as: String?)] = []
    if case .array(let items)? = spec["do"] {
      for case .object(let op) in items {
        guard let opName = op.keys.first(where: { $0 != "await" && $0 != "as" }) else { continue }
        opList.append((opName, op[opName]!, op["await"] == .bool(true), op["as"]?.stringValue))
      }
    }
    let ops = opList
    let isAsync = spec["async"] == .bool(true) || ops.contains { $0.await }
    let returned = spec["return"]
    let thrown = spec["throw"]?.stringValue
    let base = hook.split(separator: ".").last.map(String.init) ?? hook
    let isCache = hook.hasPrefix("cache.")
    let callbackPath = "callbacks.\(name)"
    let cb = MutationCallback(result: { [unowned self] input in
      let env = CallbackEnvironment()
      callbackCalls[name, default: 0] += 1
      var event: TraceEvent = ["ev": "callback", "hook": .string(hook), "fn": .string(name), "n": .number(Double(callbackCalls[name]!))]
      if base == "onSuccess" || base == "onSettled" {
        if let data = TraceValues.json(input.data) { event["data"] = data }
        env.values["data"] = TraceValues.json(input.data)
      }
      if base == "onError" || base == "onSettled" {
        event["error"] = TraceValues.errorText(input.error)
        env.values["error"] = TraceValues.errorText(input.error)
      }
      if let v = TraceValues.json(input.variables) { event["variables"] = v }
      env.values["variables"] = TraceValues.json(input.variables)
      if base != "onMutate" {
        if let c = TraceValues.json(input.context) { event["context"] = c }
        env.values["context"] = TraceValues.json(input.context)
      }
      if isCache, let mutation = input.mutation { event["mutationId"] = .number(Double(mutation.mutationId)) }
      emit(event)

      @Sendable func finish() -> Result<JSONValue?, any Error> {
        if let thrown { return .failure(ScriptError(message: thrown)) }
        return .success(resolveRefs(returned, env))
      }
      if !isAsync {
        for (i, op) in ops.enumerated() {
          let r = (try? performCallbackOp(op.name, op.args, env, "\(callbackPath).do[\(i)]")) ?? .value(nil)
          if let name = op.as, case .value(let v) = r { env.values[name] = v }
        }
        switch finish() {
        case .success(let v): return .value(v)
        case .failure(let e): return .thrown(e)
        }
      }
      let promise = Promise<(any Sendable)?>.pending(scheduler: scheduler)
      @Sendable func step(_ start: Int) {
        var i = start
        while i < ops.count {
          let op = ops[i]
          let r = (try? performCallbackOp(op.name, op.args, env, "\(callbackPath).do[\(i)]")) ?? .value(nil)
          let next = i + 1
          if op.await {
            switch r {
            case .promise(let p):
              p.whenSettled { result in
                switch result {
                case .success:
                  if let name = op.as { env.values[name] = Optional<JSONValue>.none }
                  step(next)
                case .failure(let e): promise.fail(e)
                }
              }
            case .value(let v):
              scheduler.enqueue {
                if let name = op.as { env.values[name] = v }
                step(next)
              }
            }
            return
          }
          if let name = op.as, case .value(let v) = r { env.values[name] = v }
          i = next
        }
        switch finish() {
        case .success(let v): promise.fulfill(v)
        case .failure(let e): promise.fail(e)
        }
      }
      step(0)
      return .promise(promise)
    })
    callbackFunctions[id] = cb
    return cb
  }

  enum CallbackOpResult {
    case value(JSONValue?)
    case promise(Promise<Void>)
  }

  /// Performs one operation of a scripted callback.
  func performCallbackOp(_ name: String, _ args: JSONValue, _ env: CallbackEnvironment, _ path: String) throws -> CallbackOpResult {
    let a = try ArgumentReader(args, file: scenario.file, path: "\(path).\(name)")
    switch name {
    case "getQueryData":
      return .value(TraceValues.json(client.getQueryData(try a.queryKey())))
    case "setQueryData":
      let key = try a.queryKey()
      let updater: @Sendable ((any Sendable)?) -> (any Sendable)?
      if let data = a["data"] {
        let value = resolveRefs(data, env)
        updater = { _ in value }
      } else if let r = recipe(a["updater"]), r.name == "append" {
        let value = resolveRefs(r.args["value"], env) ?? .null
        updater = { old in
          if case .array(let items)? = old as? JSONValue { return JSONValue.array(items + [value]) }
          return JSONValue.array([value])
        }
      } else {
        updater = try decoder.updater(data: nil, updater: a["updater"], a.path)
      }
      return .value(TraceValues.json(client.setQueryData(key, updater)))
    default:
      let f = try decoder.filters(a["filters"], "\(a.path).filters")
      let o = try decoder.callOptions(a["options"], "\(a.path).options")
      switch name {
      case "cancelQueries": return .promise(client.cancelQueriesPromise(f.filters, o.cancel))
      case "invalidateQueries": return .promise(client.invalidateQueriesPromise(f, o.refetch))
      default: return .promise(client.refetchQueriesPromise(f.filters, o.refetch))
      }
    }
  }

  /// Data with `{"$ref": name, "key"?: k}` replaced by the callback's values.
  func resolveRefs(_ value: JSONValue?, _ env: CallbackEnvironment) -> JSONValue? {
    guard let value else { return nil }
    switch value {
    case .array(let items): return .array(items.map { resolveRefs($0, env) ?? .null })
    case .object(let o):
      if isUndefinedMarker(value) { return nil }
      if case .string(let name)? = o["$ref"] {
        let x = env.values[name] ?? nil
        guard let key = o["key"] else { return x }
        switch (x, key) {
        case (.object(let m)?, .string(let k)): return m[k]
        case (.array(let items)?, .number(let n)):
          let i = Int(n)
          return items.indices.contains(i) ? items[i] : nil
        default: return nil
        }
      }
      var out: [String: JSONValue] = [:]
      for (k, x) in o { if let r = resolveRefs(x, env) { out[k] = r } }
      return .object(out)
    default: return value
    }
  }

  // MARK: Options

  /// Mutation options from a fixture.
  func mutationOptions(_ value: JSONValue?, _ path: String) throws -> MutationOptions {
    let a = try ArgumentReader(value, file: scenario.file, path: path)
    var options = MutationOptions()
    var retryHolder = QueryOptions()
    var queryLike: [String: JSONValue] = [:]
    for (name, v) in a.members.sorted(by: { $0.key < $1.key }) {
      let p = "\(path).\(name)"
      if isUndefinedMarker(v) { continue }
      switch name {
      case "mutationKey": options.mutationKey = try a.queryKey("mutationKey")
      case "mutationFn":
        guard case .string(let fnName) = v, let fn = mutationFunction(fnName) else { throw a.fail(name, "expected the name of a function in \"functions\"") }
        options.mutationFn = fn
      case "onMutate": options.onMutate = try callback(try a.string(name), hook: name, p)
      case "onSuccess": options.onSuccess = try callback(try a.string(name), hook: name, p)
      case "onError": options.onError = try callback(try a.string(name), hook: name, p)
      case "onSettled": options.onSettled = try callback(try a.string(name), hook: name, p)
      case "scope":
        let scope = try ArgumentReader(v, file: scenario.file, path: p)
        options.scope = MutationScope(id: try scope.string("id"))
      case "retry", "retryDelay", "gcTime", "networkMode", "meta": queryLike[name] = v
      default: throw a.fail(name, "unknown mutation option")
      }
    }
    if !queryLike.isEmpty {
      // These options share the query options' values and recipes.
      retryHolder = try decoder.queryOptions(.object(queryLike), path)
      options.retry = retryHolder.retry
      options.retryDelay = retryHolder.retryDelay
      options.gcTime = retryHolder.gcTime
      options.networkMode = retryHolder.networkMode
      options.meta = retryHolder.meta
    }
    return options
  }

  func mutationCacheConfiguration(_ a: ArgumentReader) throws -> MutationCache.Config {
    var config = MutationCache.Config()
    for (name, _) in a.members {
      let cb = try callback(try a.string(name), hook: "cache.\(name)", "\(a.path).\(name)")
      switch name {
      case "onMutate": config.onMutate = cb
      case "onSuccess": config.onSuccess = cb
      case "onError": config.onError = cb
      case "onSettled": config.onSettled = cb
      default: throw a.fail(name, "unknown mutation cache callback")
      }
    }
    return config
  }

  func mutateOptions(_ value: JSONValue?, _ path: String) throws -> MutateOptions? {
    guard let value else { return nil }
    let a = try ArgumentReader(value, file: scenario.file, path: path)
    var options = MutateOptions()
    for (name, _) in a.members {
      let cb = try callback(try a.string(name), hook: "mutate.\(name)", "\(path).\(name)")
      switch name {
      case "onSuccess": options.onSuccess = cb
      case "onError": options.onError = cb
      case "onSettled": options.onSettled = cb
      default: throw a.fail(name, "unknown per-call callback")
      }
    }
    return options
  }

  func mutationFilters(_ value: JSONValue?, _ path: String) throws -> MutationFilters {
    var f = MutationFilters()
    guard let value else { return f }
    let a = try ArgumentReader(value, file: scenario.file, path: path)
    if a.has("mutationKey") { f.mutationKey = try a.queryKey("mutationKey") }
    f.exact = try a.optionalBool("exact")
    if a.has("status") {
      guard let status = MutationStatus(rawValue: try a.string("status")) else { throw a.fail("status", "expected idle, pending, success or error") }
      f.status = status
    }
    return f
  }

  // MARK: Steps

  func mutationObserverEntry(_ a: ArgumentReader) throws -> (String, MutationObserverEntry) {
    let name = try a.string("observer")
    guard let entry = mutationObservers[name] else { throw a.fail("observer", "expected the name of a mutation observer created earlier; \"\(name)\" is not one") }
    return (name, entry)
  }

  func subscribeMutationObserver(_ name: String) {
    let unsubscribe = mutationObservers[name]!.observer.subscribe { [unowned self] result in
      mutationObservers[name]!.notifications += 1
      emit(["ev": "result", "observer": .string(name), "result": TraceValues.mutationResult(result)])
    }
    mutationObservers[name]!.unsubscribe = unsubscribe
  }

  /// Performs a mutation step; `false` when `step` is not one.
  func performMutationStep(_ step: Step, _ a: ArgumentReader) throws -> Bool {
    let p = step.path
    let h = step.handle
    let json: @Sendable (any Sendable) -> JSONValue? = { TraceValues.json($0) }
    switch step.operation {
    case "mutate":
      let variables = a["variables"].flatMap { decoder.data($0) }
      if a.has("observer") {
        let (_, entry) = try mutationObserverEntry(a)
        let options = try mutateOptions(a["mutateOptions"], "\(p).mutateOptions")
        track(entry.observer.mutatePromise(variables, options), handle: h, json)
      } else {
        let options = try mutationOptions(a["options"], "\(p).options")
        track(client.mutatePromise(options, variables: variables), handle: h, json)
      }
    case "observeMutation", "createMutationObserver":
      let name = try a.string("observer")
      let options = try mutationOptions(a["options"], "\(p).options")
      constructingObserver = name  // the constructor already notifies observerOptionsUpdated
      let observer = MutationObserver(client: client, options: options)
      constructingObserver = nil
      mutationObservers[name] = MutationObserverEntry(observer: observer)
      observerNames[ObjectIdentifier(observer)] = name
      if step.operation == "observeMutation" {
        subscribeMutationObserver(name)
        returned(TraceValues.mutationResult(observer.getCurrentResult()), handle: h)
      }
    case "reset":
      let (_, entry) = try mutationObserverEntry(a)
      entry.observer.reset()
    case "resumePausedMutations":
      track(client.resumePausedMutations() as Promise<[Void]>, handle: h) { _ in nil }
    case "isMutating":
      returned(.number(Double(client.isMutating(try mutationFilters(a["filters"], "\(p).filters")))), handle: h)
    case "findMutation":
      let m = client.mutationCache.find(try mutationFilters(a["filters"], "\(p).filters"))
      returned(m.map { .number(Double($0.mutationId)) }, handle: h)
    case "findAllMutations":
      let all = client.mutationCache.findAll(try mutationFilters(a["filters"], "\(p).filters"))
      returned(.array(all.map { .number(Double($0.mutationId)) }), handle: h)
    case "setMutationDefaults":
      client.setMutationDefaults(try a.queryKey("mutationKey"), try mutationOptions(a["options"], "\(p).options"))
    default:
      return false
    }
    return true
  }
}
