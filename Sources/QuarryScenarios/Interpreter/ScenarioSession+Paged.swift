import Quarry

/// Steps of infinite queries and queries observers.
extension ScenarioSession {
  /// Performs an infinite-query or queries-observer step; `false` when `step` is not one.
  func performPaged(_ step: Step, _ a: ArgumentReader) throws -> Bool {
    let p = step.path
    let h = step.handle
    let json: @Sendable ((any Sendable)?) -> JSONValue? = { TraceValues.json($0) }
    switch step.operation {
    case "fetchInfiniteQuery":
      track(client.fetchInfiniteQueryPromise(try decoder.queryOptions(step.arguments, p)), handle: h, json)
    case "prefetchInfiniteQuery":
      track(client.prefetchInfiniteQueryPromise(try decoder.queryOptions(step.arguments, p)), handle: h) { _ in nil }
    case "ensureInfiniteQueryData":
      let options = try decoder.queryOptions(step.arguments, p, extra: ["revalidateIfStale"])
      let revalidate = try a.optionalBool("revalidateIfStale") ?? false
      track(client.ensureInfiniteQueryDataPromise(options, revalidateIfStale: revalidate), handle: h, json)
    case "observeInfinite", "createInfiniteObserver":
      let name = try a.string("observer")
      let options = try decoder.queryOptions(a["options"], "\(p).options")
      addObserver(
        InfiniteQueryObserver(client: client, options: options), named: name,
        subscribing: step.operation == "observeInfinite", handle: h)
    case "fetchNextPage", "fetchPreviousPage":
      let (name, entry) = try observerEntry(a)
      guard let observer = entry.observer as? InfiniteQueryObserver else {
        throw a.fail("observer", "expected an infinite observer; \"\(name)\" is not one")
      }
      let o = try decoder.callOptions(a["options"], "\(p).options")
      let promise = step.operation == "fetchNextPage"
        ? observer.fetchNextPagePromise(o.refetch) : observer.fetchPreviousPagePromise(o.refetch)
      track(promise, handle: h) { TraceValues.result($0) }
    case "observeQueries", "createQueriesObserver":
      let name = try a.string("observer")
      let queries = try queriesList(a, p)
      // The entry exists before the observer so that its combine can record what it returns.
      queriesObservers[name] = QueriesEntry(observer: QueriesObserver(client: client, queries: []))
      let options = try queriesOptions(a, p, observer: name)
      let observer = QueriesObserver(client: client, queries: queries, options: options)
      queriesObservers[name]!.observer = observer
      if step.operation == "observeQueries" {
        subscribeQueries(name)
        returned(.array(observer.getCurrentResult().map(TraceValues.result)), handle: h)
      }
    case "setQueries":
      let (name, entry) = try queriesEntry(a)
      entry.observer.setQueries(try queriesList(a, p), options: try queriesOptions(a, p, observer: name))
    case "getQueriesOptimisticResult":
      let (name, entry) = try queriesEntry(a)
      let options = try queriesOptions(a, p, observer: name)
      let optimistic = entry.observer.getOptimisticResult(try queriesList(a, p), combine: options?.combine)
      var out: [String: JSONValue] = ["results": .array(optimistic.results.map(TraceValues.result))]
      if options?.combine != nil { out["combined"] = TraceValues.json(optimistic.combine(nil)) ?? .null }
      returned(.object(out), handle: h)
    default:
      return false
    }
    return true
  }
}

/// A queries observer of a scenario.
struct QueriesEntry {
  var observer: QueriesObserver
  var unsubscribe: (@Sendable () -> Void)?
  var notifications = 0
  /// What its combine recipe last returned (written with each listener call).
  var lastCombined: JSONValue??
  /// Its combine functions by recipe text.
  var combines: [String: QueriesCombine] = [:]
}

extension ScenarioSession {
  /// `subscribe`, `unsubscribe` and `getCurrentResult` on a queries observer; `false` when the
  /// step is another operation or names another kind of observer.
  func performOnQueriesObserver(_ step: Step, _ a: ArgumentReader) throws -> Bool {
    guard ["subscribe", "unsubscribe", "getCurrentResult"].contains(step.operation),
      case .string(let name)? = a["observer"], let entry = queriesObservers[name]
    else { return false }
    switch step.operation {
    case "subscribe": subscribeQueries(name)
    case "unsubscribe":
      entry.unsubscribe?()
      queriesObservers[name]!.unsubscribe = nil
    default:
      returned(.array(entry.observer.getCurrentResult().map(TraceValues.result)), handle: step.handle)
    }
    return true
  }

  func subscribeQueries(_ name: String) {
    let unsubscribe = queriesObservers[name]!.observer.subscribe { [unowned self] results in
      queriesObservers[name]!.notifications += 1
      var event: TraceEvent = ["ev": "result", "observer": .string(name), "result": .array(results.map(TraceValues.result))]
      if let combined = queriesObservers[name]!.lastCombined, let value = combined { event["combined"] = value }
      emit(event)
    }
    queriesObservers[name]!.unsubscribe = unsubscribe
  }

  func queriesEntry(_ a: ArgumentReader) throws -> (String, QueriesEntry) {
    let name = try a.string("observer")
    guard let entry = queriesObservers[name] else { throw a.fail("observer", "expected a queries observer; \"\(name)\" is not one") }
    return (name, entry)
  }

  func queriesList(_ a: ArgumentReader, _ p: String) throws -> [QueryOptions] {
    guard case .array(let items)? = a["queries"] else { throw a.fail("queries", "expected an array of query options") }
    return try items.enumerated().map { try decoder.queryOptions($1, "\(p).queries[\($0)]") }
  }

  /// `{combine}`: the combine recipe records its output under the observer's name.
  func queriesOptions(_ a: ArgumentReader, _ p: String, observer name: String) throws -> QueriesObserverOptions? {
    guard let value = a["options"], !isUndefinedMarker(value) else { return nil }
    let options = try ArgumentReader(value, file: scenario.file, path: "\(p).options")
    guard let combineValue = options["combine"], !isUndefinedMarker(combineValue) else { return QueriesObserverOptions() }
    guard let r = recipe(combineValue) else { throw options.fail("combine", "expected a combine recipe") }
    // One function per observer and recipe: the same recipe again is the same combine.
    if let cached = queriesObservers[name]?.combines[combineValue.canonicalJSON] {
      return QueriesObserverOptions(combine: cached)
    }
    let body: @Sendable ([QueryObserverResult]) -> JSONValue
    var reading: [String] = []
    switch r.name {
    case "pluckAll":
      guard case .string(let key)? = r.args["key"] else { throw options.fail("combine", "expected a key") }
      reading = [key]
      body = { results in .array(results.map { TraceValues.result($0)[key] ?? .null }) }
    case "length": body = { results in .number(Double(results.count)) }
    case "countCalls":
      let counter = CallCounter()
      body = { _ in .number(Double(counter.next())) }
    case "const":
      let c = r.args["value"].flatMap(decoder.data) ?? .null
      body = { _ in c }
    default: throw options.fail("combine", "expected a combine recipe")
    }
    let combine = QueriesCombine(reading: reading) { [unowned self] results in
      let value = body(results)
      self.queriesObservers[name]?.lastCombined = .some(value)
      return value
    }
    queriesObservers[name]?.combines[combineValue.canonicalJSON] = combine
    return QueriesObserverOptions(combine: combine)
  }
}
