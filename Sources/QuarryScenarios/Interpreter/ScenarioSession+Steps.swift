import Quarry

extension ScenarioSession {
  func observerEntry(_ args: ArgumentReader) throws -> (String, ObserverEntry) {
    let name = try args.string("observer")
    guard let entry = observers[name] else { throw args.fail("observer", "expected the name of an observer created earlier; \"\(name)\" is not one") }
    return (name, entry)
  }

  /// Registers `observer` as `name` (`observe`, `observeInfinite` and their `create…` twins);
  /// when `subscribing` (`observe…`), subscribes its default listener and returns its current
  /// result as the step's value. Node twin: `addObserver` (ScenarioSession+Steps.mjs).
  func addObserver(_ observer: QueryObserver, named name: String, subscribing: Bool, handle: String?) {
    observers[name] = ObserverEntry(observer: observer)
    observerNames[ObjectIdentifier(observer)] = name
    if subscribing {
      subscribe(name)
      returned(TraceValues.result(observer.getCurrentResult()), handle: handle)
    }
  }

  /// Subscribes a listener (`""` is the observer's default one); with `unsubscribeAfter`, the
  /// listener unsubscribes itself on that call (once `subscribe` has returned its function).
  func subscribe(_ name: String, listener: String = "", unsubscribeAfter: Int? = nil) {
    let calls = CallCounter()
    let state = SelfUnsubscribe()
    let unsubscribe = observers[name]!.observer.subscribe { [unowned self] result in
      let n = calls.next()
      let written = TraceValues.result(result)
      if listener.isEmpty {
        observers[name]!.notifications += 1
        observers[name]!.received.append(written)
      }
      var ev: TraceEvent = ["ev": "result", "observer": .string(name)]
      // `written` is the template's copy: its members written in the template's sorted order.
      ev.set("result", written, madeBy: TraceValues.resultTemplate(result, hasData: written["data"] != nil))
      if !listener.isEmpty { ev["listener"] = .string(listener) }
      emit(ev)
      if n == unsubscribeAfter {
        if state.installed { dropListener(name, listener) } else { state.requested = true }
      }
    }
    observers[name]!.subs[listener] = unsubscribe
    state.installed = true
    if state.requested { dropListener(name, listener) }
  }

  /// Calls and forgets a listener's unsubscribe function.
  func dropListener(_ name: String, _ listener: String) {
    guard let unsubscribe = observers[name]?.subs.removeValue(forKey: listener) else { return }
    unsubscribe()
  }

  /// `[[key, data], ...]`, with undefined data written as `null` as `JSON.stringify` does.
  func keyDataPairs(_ pairs: [(queryKey: QueryKey, data: (any Sendable)?)]) -> JSONValue {
    .array(pairs.map { .array([$0.queryKey.jsonValue, TraceValues.json($0.data) ?? .null]) })
  }

  func perform(_ step: Step) throws {
    let a = try ArgumentReader(step.operation == "tick" ? Optional<JSONValue>.none : step.arguments, file: scenario.file, path: step.path)
    if step.operation == "subscribeCache" { return try subscribeCache(step, a) }
    let p = step.path
    let h = step.handle
    let json: @Sendable ((any Sendable)?) -> JSONValue? = { TraceValues.json($0) }
    if try performOnQueriesObserver(step, a) { return }
    switch step.operation {
    case "fetchQuery":
      track(client.fetchQueryPromise(try decoder.queryOptions(step.arguments, p)), handle: h, json)
    case "prefetchQuery":
      track(client.prefetchQueryPromise(try decoder.queryOptions(step.arguments, p)), handle: h) { _ in nil }
    case "ensureQueryData":
      let options = try decoder.queryOptions(step.arguments, p, extra: ["revalidateIfStale"])
      let revalidate = try a.optionalBool("revalidateIfStale") ?? false
      track(client.ensureQueryDataPromise(options, revalidateIfStale: revalidate), handle: h, json)
    case "getQueryData":
      returned(json(client.getQueryData(try a.queryKey())), handle: h)
    case "getQueryState":
      returned(client.getQueryState(try a.queryKey()).map(TraceValues.state), handle: h)
    case "setQueryData":
      let updater = try decoder.updater(data: a["data"], updater: a["updater"], p)
      let updatedAt = a.has("updatedAt") ? try a.number("updatedAt") : nil
      returned(json(client.setQueryData(try a.queryKey(), updatedAt: updatedAt, updater)), handle: h)
    case "getQueriesData":
      let f = try decoder.filters(a["filters"], "\(p).filters")
      returned(keyDataPairs(client.getQueriesData(f.filters)), handle: h)
    case "setQueriesData":
      let f = try decoder.filters(a["filters"], "\(p).filters")
      let updater = try decoder.updater(data: a["data"], updater: a["updater"], p)
      returned(keyDataPairs(client.setQueriesData(f.filters, updater)), handle: h)
    case "invalidateQueries", "refetchQueries", "cancelQueries", "resetQueries":
      let f = try decoder.filters(a["filters"], "\(p).filters")
      let o = try decoder.callOptions(a["options"], "\(p).options")
      let promise: Promise<Void>
      switch step.operation {
      case "invalidateQueries": promise = client.invalidateQueriesPromise(f, o.refetch)
      case "refetchQueries": promise = client.refetchQueriesPromise(f.filters, o.refetch)
      case "cancelQueries": promise = client.cancelQueriesPromise(f.filters, o.cancel)
      default: promise = client.resetQueriesPromise(f.filters, o.refetch)
      }
      track(promise, handle: h) { _ in nil }
    case "removeQueries":
      client.removeQueries(try decoder.filters(a["filters"], "\(p).filters").filters)
    case "isFetching":
      returned(.number(Double(client.isFetching(try decoder.filters(a["filters"], "\(p).filters").filters))), handle: h)
    case "setQueryDefaults":
      client.setQueryDefaults(try a.queryKey(), try decoder.queryOptions(a["options"], "\(p).options"))
    case "clear":
      client.clear()
    case "find":
      let f = try decoder.filters(a["filters"], "\(p).filters")
      returned(client.queryCache.find(f.filters).map { TraceValues.state($0.state) }, handle: h)
    case "findAll":
      let f = try decoder.filters(a["filters"], "\(p).filters")
      returned(.array(client.queryCache.findAll(f.filters).map { .string($0.queryHash) }), handle: h)
    case "observe", "createObserver":
      let name = try a.string("observer")
      let options = try decoder.queryOptions(a["options"], "\(p).options")
      addObserver(QueryObserver(client: client, options: options), named: name, subscribing: step.operation == "observe", handle: h)
    case "subscribe" where mutationObservers[a["observer"]?.stringValue ?? ""] != nil:
      let (name, _) = try mutationObserverEntry(a)
      subscribeMutationObserver(name)
    case "unsubscribe" where mutationObservers[a["observer"]?.stringValue ?? ""] != nil:
      let (name, entry) = try mutationObserverEntry(a)
      entry.unsubscribe?()
      mutationObservers[name]!.unsubscribe = nil
    case "setOptions" where mutationObservers[a["observer"]?.stringValue ?? ""] != nil:
      let (_, entry) = try mutationObserverEntry(a)
      entry.observer.setOptions(try mutationOptions(a["options"], "\(p).options"))
    case "getCurrentResult" where mutationObservers[a["observer"]?.stringValue ?? ""] != nil:
      let (_, entry) = try mutationObserverEntry(a)
      returned(TraceValues.mutationResult(entry.observer.getCurrentResult()), handle: h)
    case "subscribe":
      let (name, entry) = try observerEntry(a)
      let listener = a.has("listener") ? try a.string("listener") : ""
      if entry.subs[listener] != nil { throw a.fail("observer", "observer \"\(name)\" is already subscribed") }
      subscribe(name, listener: listener, unsubscribeAfter: a.has("unsubscribeAfter") ? Int(try a.number("unsubscribeAfter")) : nil)
    case "unsubscribe":
      let (name, entry) = try observerEntry(a)
      let listener = a.has("listener") ? try a.string("listener") : ""
      if entry.subs[listener] == nil { throw a.fail("observer", "observer \"\(name)\" is not subscribed") }
      dropListener(name, listener)
    case "setOptions":
      let (_, entry) = try observerEntry(a)
      entry.observer.setOptions(try decoder.queryOptions(a["options"], "\(p).options"))
    case "refetch":
      let (_, entry) = try observerEntry(a)
      let o = try decoder.callOptions(a["options"], "\(p).options")
      track(entry.observer.refetchPromise(o.refetch), handle: h) { TraceValues.result($0) }
    case "getCurrentResult":
      let (_, entry) = try observerEntry(a)
      returned(TraceValues.result(entry.observer.getCurrentResult()), handle: h)
    case "getOptimisticResult":
      let (_, entry) = try observerEntry(a)
      let options = client.defaultQueryOptions(try decoder.queryOptions(a["options"], "\(p).options"))
      returned(TraceValues.result(entry.observer.getOptimisticResult(options)), handle: h)
    case "setFocused":
      client.focusManager.setFocused(isUndefinedMarker(a["focused"]) ? nil : try a.bool("focused"))
    case "setOnline":
      client.onlineManager.setOnline(try a.bool("online"))
    case "expect":
      try check(a)
    case "tick":
      // One tick: no jobs run between these operations.
      for substep in step.substeps { try perform(substep) }
    default:
      if try performMutationStep(step, a) { return }
      if try performHydration(step, a) { return }
      guard try performPaged(step, a) else { throw a.fail(nil, "unknown operation \(step.operation)") }
    }
  }
}

extension ScenarioSession {
  /// `subscribeCache`: a cache listener that performs `then` for matching events, `times` times.
  func subscribeCache(_ step: Step, _ a: ArgumentReader) throws {
    let when = try a.nested("when")!
    let type = try when.string("type")
    let action = when.has("action") ? try when.string("action") : nil
    let hash = when.has("queryKey") ? try when.queryKey().queryHash : nil
    let times = a.has("times") ? Int(try a.number("times")) : 1
    let matches = CallCounter()
    let unsubscribe = client.queryCache.subscribe { [unowned self] event in
      guard event.type == type else { return }
      if let action, event.action?.type != action { return }
      if let hash, event.query.queryHash != hash { return }
      guard matches.next() <= times else { return }
      do {
        for substep in step.substeps { try perform(substep) }
      } catch {
        failures.append("a cache subscriber's step threw at t=\(TraceValues.show(.number(now))): \(error)")
      }
    }
    cacheActors.append(unsubscribe)
  }
}

/// Whether a self-unsubscribing listener's subscription is installed yet, and whether it asked to
/// unsubscribe before it was (a listener called during `subscribe` itself).
final class SelfUnsubscribe: @unchecked Sendable {
  // Safe: a scenario session runs every job on the thread that drives it.
  var installed = false
  var requested = false
}

