import Quarry

extension ScenarioSession {
  func observerEntry(_ args: ArgumentReader) throws -> (String, ObserverEntry) {
    let name = try args.string("observer")
    guard let entry = observers[name] else { throw args.fail("observer", "expected the name of an observer created earlier; \"\(name)\" is not one") }
    return (name, entry)
  }

  func subscribe(_ name: String) {
    let unsubscribe = observers[name]!.observer.subscribe { [unowned self] result in
      observers[name]!.notifications += 1
      emit(["ev": "result", "observer": .string(name), "result": TraceValues.result(result)])
    }
    observers[name]!.unsubscribe = unsubscribe
  }

  /// `[[key, data], ...]`, with undefined data written as `null` as `JSON.stringify` does.
  func keyDataPairs(_ pairs: [(queryKey: QueryKey, data: (any Sendable)?)]) -> JSONValue {
    .array(pairs.map { .array([$0.queryKey.jsonValue, TraceValues.json($0.data) ?? .null]) })
  }

  func perform(_ step: Step) throws {
    let a = try ArgumentReader(step.arguments, file: scenario.file, path: step.path)
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
      let observer = QueryObserver(client: client, options: options)
      observers[name] = ObserverEntry(observer: observer)
      observerNames[ObjectIdentifier(observer)] = name
      if step.operation == "observe" {
        subscribe(name)
        returned(TraceValues.result(observer.getCurrentResult()), handle: h)
      }
    case "subscribe":
      let (name, _) = try observerEntry(a)
      subscribe(name)
    case "unsubscribe":
      let (name, entry) = try observerEntry(a)
      entry.unsubscribe?()
      observers[name]!.unsubscribe = nil
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
    default:
      guard try performPaged(step, a) else { throw a.fail(nil, "unknown operation \(step.operation)") }
    }
  }
}
