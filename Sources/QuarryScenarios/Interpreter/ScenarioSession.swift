import Quarry

/// One replay of one scenario: the virtual scheduler, the client, and everything recorded.
final class ScenarioSession: @unchecked Sendable {
  // Safe: a session runs on one thread; the virtual scheduler runs every job and task
  // synchronously on the thread that drives it.
  struct Script {
    var outcomes: [Outcome]
    var cursor = 0
    var used = 0
    var calls = 0
    var function: QueryFunction?
    var mutationFunction: MutationFunction?
  }

  enum Handle {
    case pending
    case fulfilled(JSONValue?)
    case rejected(JSONValue)
    case returned(JSONValue?)
  }

  struct ObserverEntry {
    var observer: QueryObserver
    /// Unsubscribe functions by listener name (`""` is the default listener).
    var subs: [String: @Sendable () -> Void] = [:]
    /// Calls of the default listener.
    var notifications = 0
    /// The results the default listener received since the previous `expect` step.
    var received: [JSONValue] = []
  }

  let scenario: Scenario
  let scheduler = VirtualScheduler()
  var client: QueryClient!
  var trace: [String] = []
  var failures: [String] = []
  var scripts: [String: Script] = [:]
  var handles: [String: Handle] = [:]
  var observers: [String: ObserverEntry] = [:]
  var observerNames: [ObjectIdentifier: String] = [:]
  /// The abort signals of calls that read theirs, by function name and call number.
  var signals: [String: [Int: AbortSignal]] = [:]
  /// The unsubscribe functions of `subscribeCache` listeners.
  var cacheActors: [@Sendable () -> Void] = []
  var mutationObservers: [String: MutationObserverEntry] = [:]
  var callbackCalls: [String: Int] = [:]
  var constructingObserver: String?
  var callbackFunctions: [String: MutationCallback] = [:]
  /// Queries observers by name, and what their combine last produced (`ScenarioSession+Paged`).
  var queriesObservers: [String: QueriesEntry] = [:]
  /// Snapshots by the handle of the `dehydrate` step that made them (`ScenarioSession+Hydration`).
  var snapshots: [String: DehydratedState] = [:]
  /// The scenario's storage and persistence (`ScenarioSession+Persist`).
  var persist = PersistSession()
  /// Clients replaced by `newClient` steps, cleared at teardown.
  var oldClients: [QueryClient] = []
  /// Removes the runner's listeners from the current client.
  var unlisten: () -> Void = {}
  var stepIndex = -1
  /// Set when teardown starts: from then on nothing is written (Specs/README.md, Virtual time).
  var isTornDown = false
  lazy var decoder: OptionsDecoder = {
    var decoder = OptionsDecoder(file: scenario.file) { [unowned self] name in self.scriptFunction(name) }
    decoder.persisted = { [unowned self] queryFn, config, path in try persistedQueryFn(queryFn, config, path) }
    return decoder
  }()

  init(_ scenario: Scenario) {
    self.scenario = scenario
    for (name, outcomes) in scenario.functions { scripts[name] = Script(outcomes: outcomes) }
    for name in scenario.streams.keys { scripts[name] = Script(outcomes: []) }
  }

  var now: Double { scheduler.now() }

  func emit(_ event: consuming TraceEvent) {
    if isTornDown { return }
    // Taken, not copied: the time goes into the caller's member list (room for it was reserved).
    event["t"] = .number(now)
    trace.append(event.canonicalJSON)
  }

  // MARK: Scripted functions

  func scriptFunction(_ name: String) -> QueryFunction? {
    guard scripts[name] != nil else { return nil }
    if let fn = scripts[name]!.function { return fn }
    if scenario.streams[name] != nil { return streamFunction(name) }
    let fn = QueryFunction { [unowned self] context in
      let (n, outcome) = self.call(name, context)
      guard let outcome else { throw ScriptError(message: "script exhausted: \(name)") }
      if outcome.readSignal || outcome.onAbort {
        let signal = context.signal
        self.signals[name, default: [:]][n] = signal
        if outcome.onAbort {
          signal.onAbort { [unowned self] in self.emit(["ev": "abort", "fn": .string(name), "n": .number(Double(n))]) }
        }
      }
      if case .syncError(let message) = outcome.result { throw ScriptError(message: message) }
      if let after = outcome.after { await self.scheduler.sleep(Double(after)) }
      switch outcome.result {
      case .error(let message), .syncError(let message): throw ScriptError(message: message)
      case .rejection(let value): throw ScriptRejection(value: fixtureValue(value) ?? .null)
      case .value(let v):
        if let r = recipe(v) {
          switch r.name {
          case "queryKey": return context.queryKey.jsonValue
          case "pageParam": return context.pageParam as JSONValue?
          case "context":
            var members: [String: JSONValue] = ["queryKey": context.queryKey.jsonValue, "client": .bool(context.client === self.client)]
            if let meta = context.meta { members["meta"] = meta }
            return JSONValue.object(members)
          default: return JSONValue.number(Double(n))  // callCount: this call's own number
          }
        }
        return self.decoder.data(v)
      }
    }
    scripts[name]!.function = fn
    return fn
  }

  /// Records a call and picks its outcome; returns the call's number and the outcome, `nil` when
  /// the script is exhausted.
  func call(_ name: String, _ context: QueryFunctionContext) -> (Int, Outcome?) {
    var event: TraceEvent = ["key": .string(context.queryKey.queryHash)]
    if let pageParam = context.pageParam { event["pageParam"] = pageParam }
    return call(name, event: event)
  }

  /// Records a call with these event members; returns the call's number and its outcome.
  func call(_ name: String, event members: TraceEvent) -> (Int, Outcome?) {
    scripts[name]!.calls += 1
    let n = scripts[name]!.calls
    var event = members
    event["ev"] = "call"
    event["fn"] = .string(name)
    event["n"] = .number(Double(n))
    emit(event)
    var script = scripts[name]!
    defer { scripts[name] = script }
    while script.cursor < script.outcomes.count {
      let times = script.outcomes[script.cursor].times
      if times == nil || script.used < times! { break }
      script.cursor += 1
      script.used = 0
    }
    guard script.cursor < script.outcomes.count else {
      failures.append("script exhausted: \(name) (call \(n) at t=\(TraceValues.show(.number(now))))")
      return (n, nil)
    }
    script.used += 1
    return (n, script.outcomes[script.cursor])
  }

  // MARK: Replay

  func run() -> ScenarioRun {
    do {
      try replay()
    } catch let error as FixtureError {
      return ScenarioRun(trace: trace, failures: failures, error: error)
    } catch {
      failures.append("unexpected error: \(error)")
    }
    return ScenarioRun(trace: trace, failures: failures)
  }

  /// Creates the scenario's client (also a `newClient` step's) from the fixture's `client`, with
  /// the runner's cache listeners on it.
  func makeClient() throws {
    var defaults = DefaultOptions()
    var mutationCacheConfig = MutationCache.Config()
    if let client = scenario.client {
      let reader = try ArgumentReader(client, file: scenario.file, path: "client")
      if let d = try reader.nested("defaultOptions") {
        if let queries = d["queries"] {
          defaults.queries = try decoder.queryOptions(queries, "client.defaultOptions.queries")
        }
        if let mutations = d["mutations"] {
          defaults.mutations = try mutationOptions(mutations, "client.defaultOptions.mutations")
        }
        try hydrationDefaults(d, into: &defaults)
      }
      if let hooks = try reader.nested("mutationCache") {
        mutationCacheConfig = try mutationCacheConfiguration(hooks)
      }
    }
    client = QueryClient(
      scheduler: scheduler, defaultOptions: defaults, queryCacheConfig: try cacheCallbacks(), mutationCacheConfig: mutationCacheConfig)
    // The environment both runners replay in: explicitly focused and online.
    client.focusManager.setFocused(true)
    client.onlineManager.setOnline(true)
    client.mount()
    let unsubscribeCache = client.queryCache.subscribe { [unowned self] event in
      var ev: TraceEvent = ["ev": "cache", "type": .string(event.type), "key": .string(event.query.queryHash)]
      if let action = event.action { ev["action"] = .string(action.type) }
      if let observer = event.observer { ev["observer"] = .string(observerNames[ObjectIdentifier(observer)] ?? "?") }
      emit(ev)
    }
    let unsubscribeMutations = client.mutationCache.subscribe { [unowned self] event in
      var ev: TraceEvent = ["ev": "mutationCache", "type": .string(event.type)]
      if let mutation = event.mutation { ev["mutationId"] = .number(Double(mutation.mutationId)) }
      if let action = event.action { ev["action"] = .string(action.type) }
      if let observer = event.observer { ev["observer"] = .string(observerNames[ObjectIdentifier(observer)] ?? constructingObserver ?? "?") }
      emit(ev)
    }
    unlisten = {
      unsubscribeCache()
      unsubscribeMutations()
    }
  }

  private func replay() throws {
    try makeClient()
    defer {
      isTornDown = true
      persist.persistence?.unsubscribe()
      for unsubscribe in cacheActors { unsubscribe() }
      unlisten()
      for entry in observers.values { entry.observer.destroy() }
      for entry in queriesObservers.values { entry.observer.destroy() }
      for old in oldClients {
        old.clear()
        old.unmount()
      }
      client.clear()
      client.unmount()
    }
    for step in scenario.steps {
      if !scheduler.advance(to: Double(step.at ?? Int(now))) {
        failures.append("more than 100000 timers fired (an endless timer loop?)")
        return
      }
      stepIndex = step.index
      try perform(step)
    }
    if !scheduler.advance(to: now) {
      failures.append("more than 100000 timers fired (an endless timer loop?)")
      return
    }
    for query in client.queryCache.getAll() {
      emit(["ev": "final", "key": .string(query.queryHash), "state": TraceValues.state(query.state), "observers": .number(Double(query.observerCount))])
    }
    for mutation in client.mutationCache.getAll() {
      emit(["ev": "mutationFinal", "mutationId": .number(Double(mutation.mutationId)), "state": TraceValues.mutationState(mutation.state)])
    }
  }

  /// Records how a promise-returning step settles.
  func track<T: Sendable>(_ promise: Promise<T>, handle: String?, _ encode: @escaping @Sendable (T) -> JSONValue?) {
    if let handle { handles[handle] = .pending }
    promise.whenSettled { [unowned self] result in
      switch result {
      case .success(let v):
        let value = encode(v)
        guard let handle else { return }
        handles[handle] = .fulfilled(value)
        var ev: TraceEvent = ["ev": "settle", "handle": .string(handle)]
        if let value { ev["value"] = value }
        emit(ev)
      case .failure(let e):
        let text = TraceValues.errorText(e)
        guard let handle else { return }
        handles[handle] = .rejected(text)
        emit(["ev": "settle", "handle": .string(handle), "error": text])
      }
    }
  }

  /// Records what a value-returning step returned.
  func returned(_ value: JSONValue?, handle: String?) {
    guard let handle else { return }
    handles[handle] = .returned(value)
    var ev: TraceEvent = ["ev": "return", "handle": .string(handle)]
    if let value { ev["value"] = value }
    emit(ev)
  }
}

extension ScenarioSession {
  /// `client.queryCache`: QueryCache callbacks that write `cacheCallback` events.
  func cacheCallbacks() throws -> QueryCache.Config {
    var config = QueryCache.Config()
    guard case .object(let callbacks)? = scenario.client?["queryCache"] else { return config }
    if callbacks["onSuccess"] == .bool(true) {
      config.onSuccess = { [unowned self] data, query in
        self.cacheCallback("onSuccess", data, nil, query, withData: true, withError: false)
      }
    }
    if callbacks["onError"] == .bool(true) {
      config.onError = { [unowned self] error, query in
        self.cacheCallback("onError", nil, error, query, withData: false, withError: true)
      }
    }
    if callbacks["onSettled"] == .bool(true) {
      config.onSettled = { [unowned self] data, error, query in
        self.cacheCallback("onSettled", data, error, query, withData: true, withError: true)
      }
    }
    return config
  }

  /// Writes a `cacheCallback` event.
  func cacheCallback(_ callback: String, _ data: (any Sendable)?, _ error: (any Error)?, _ query: Query, withData: Bool, withError: Bool) {
    var ev: TraceEvent = ["ev": "cacheCallback", "callback": .string(callback), "key": .string(query.queryHash)]
    if withData, let data = TraceValues.json(data) { ev["data"] = data }
    if withError { ev["error"] = TraceValues.errorText(error) }
    emit(ev)
  }
}

