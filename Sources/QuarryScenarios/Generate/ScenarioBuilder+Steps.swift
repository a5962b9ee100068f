import Quarry

/// The random steps: each picks an operation valid in the current state.
extension ScenarioBuilder {
  mutating func step() {
    advance()
    guard random.chance(10) else { return operation() }
    let first = steps.count
    inTick = true
    for _ in 0..<random.int(2...3) { operation() }
    inTick = false
    let inner = Array(steps[first...])
    steps.removeSubrange(first...)
    steps.append(["at": .number(Double(time)), "tick": .array(inner)])
  }

  /// Records a step that returns a value (`as` always given).
  mutating func query(_ operation: String, _ arguments: JSONValue) {
    var step: [String: JSONValue] = [operation: arguments, "as": .string(handle())]
    if !inTick { step["at"] = .number(Double(time)) }
    steps.append(.object(step))
  }

  mutating func operation() {
    let subscribed = observers.indices.filter { observers[$0].subscribed }
    let unsubscribed = observers.indices.filter { !observers[$0].subscribed }
    switch random.int(0...99) {
    case 0..<14:
      let operation = random.pick(["fetchQuery", "fetchQuery", "prefetchQuery", "ensureQueryData"])
      emit(operation, queryOptions(observer: false), recording: operation != "prefetchQuery" || random.chance(50))
    case 14..<26 where observers.count < 5:
      let name = "o\(observers.count + 1)"
      observers.append((name, true))
      emit("observe", ["observer": .string(name), "options": queryOptions(observer: true)], recording: true)
    case 26..<33 where !subscribed.isEmpty:
      let index = random.pick(subscribed)
      observers[index].subscribed = false
      emit("unsubscribe", ["observer": .string(observers[index].name)], recording: false)
    case 33..<37 where !unsubscribed.isEmpty:
      let index = random.pick(unsubscribed)
      observers[index].subscribed = true
      emit("subscribe", ["observer": .string(observers[index].name)], recording: false)
    case 37..<44 where !observers.isEmpty:
      let name = random.pick(observers).name
      emit("setOptions", ["observer": .string(name), "options": queryOptions(observer: true)], recording: false)
    case 44..<47 where !observers.isEmpty:
      var arguments: [String: JSONValue] = ["observer": .string(random.pick(observers).name)]
      if random.chance(40) { arguments["options"] = ["cancelRefetch": .bool(random.chance(50))] }
      emit("refetch", .object(arguments), recording: true)
    case 47..<50 where !observers.isEmpty:
      query("getCurrentResult", ["observer": .string(random.pick(observers).name)])
    case 50..<55:
      focused.toggle()
      emit("setFocused", ["focused": .bool(focused)], recording: false)
    case 55..<60:
      online.toggle()
      emit("setOnline", ["online": .bool(online)], recording: false)
    case 60..<74:
      clientOperation()
    case 74..<80:
      var arguments: [String: JSONValue] = ["queryKey": random.pick(keys)]
      if random.chance(50) { arguments["updater"] = ["$fn": "increment", "by": 1] } else { arguments["data"] = .number(Double(random.int(10...99))) }
      emit("setQueryData", .object(arguments), recording: true)
    case 80..<85:
      query(random.pick(["getQueryData", "getQueryState"]), ["queryKey": random.pick(keys)])
    case 85..<88:
      let operation = random.pick(["isFetching", "isFetching", "findAll", "getQueriesData"])
      var arguments: [String: JSONValue] = [:]
      if operation == "getQueriesData" || random.chance(50) { arguments["filters"] = filters() }
      query(operation, .object(arguments))
    case 88..<94 where !mutationFunctions.isEmpty:
      var options: [String: JSONValue] = ["mutationFn": "m0"]
      if random.chance(30) { options["retry"] = .number(Double(random.int(0...2))) }
      if random.chance(20) { options["networkMode"] = random.pick(["always", "offlineFirst"] as [JSONValue]) }
      emit("mutate", ["options": .object(options), "variables": .number(Double(random.int(0...9)))], recording: true)
    case 94..<98 where !observers.isEmpty:
      listenerStep()
    case 98..<100:
      rareStep()
    default:
      emit("fetchQuery", queryOptions(observer: false), recording: true)
    }
  }

  /// Subscribes a named listener (sometimes one that unsubscribes itself), or unsubscribes or
  /// subscribes again one that can be.
  mutating func listenerStep() {
    if let index = listeners.indices.first(where: { _ in random.chance(40) }) {
      let listener = listeners[index]
      listeners[index].subscribed.toggle()
      emit(listener.subscribed ? "unsubscribe" : "subscribe", ["observer": .string(listener.observer), "listener": .string(listener.name)], recording: false)
      return
    }
    listenerCount += 1
    let name = "l\(listenerCount)", observer = random.pick(observers).name
    if random.chance(40) {
      emit("subscribe", ["observer": .string(observer), "listener": .string(name), "unsubscribeAfter": .number(Double(random.int(1...3)))], recording: false)
    } else {
      listeners.append((observer, name, true))
      emit("subscribe", ["observer": .string(observer), "listener": .string(name)], recording: false)
    }
  }

  /// Less common operations: optimistic results, query defaults, mutation observers, resuming
  /// paused mutations.
  mutating func rareStep() {
    switch random.int(0...4) {
    case 0 where !observers.isEmpty:
      query("getOptimisticResult", ["observer": .string(random.pick(observers).name), "options": queryOptions(observer: true)])
    case 1:
      var options: [String: JSONValue] = [:]
      if random.chance(60) { options["staleTime"] = random.pick([0, 20, "Infinity", "static"] as [JSONValue]) }
      if random.chance(40) { options["retry"] = .number(Double(random.int(0...2))) }
      if random.chance(40) { options["gcTime"] = random.pick([0, 30] as [JSONValue]) }
      emit("setQueryDefaults", ["queryKey": .array([random.pick(["todos", "user"] as [JSONValue])]), "options": .object(options)], recording: false)
    case 2 where !mutationFunctions.isEmpty:
      mutationObservers += 1
      emit("observeMutation", ["observer": .string("mo\(mutationObservers)"), "options": ["mutationFn": "m0"]], recording: true)
    case 3 where mutationObservers > 0:
      let name = JSONValue.string("mo\(random.int(1...mutationObservers))")
      if random.chance(70) {
        emit("mutate", ["observer": name, "variables": .number(Double(random.int(0...9)))], recording: true)
      } else {
        emit("reset", ["observer": name], recording: false)
      }
    case 4 where !mutationFunctions.isEmpty:
      emit("resumePausedMutations", [:], recording: true)
    default:
      var options = queryOptions(observer: false)
      if case .object(var members) = options {
        members["revalidateIfStale"] = .bool(random.chance(50))
        options = .object(members)
      }
      emit("ensureQueryData", options, recording: true)
    }
  }

  mutating func clientOperation() {
    let operation = random.pick(["invalidateQueries", "invalidateQueries", "refetchQueries", "cancelQueries", "resetQueries", "removeQueries"])
    var arguments: [String: JSONValue] = [:]
    if random.chance(80) { arguments["filters"] = filters() }
    if operation == "invalidateQueries", random.chance(40), case .object(var f) = arguments["filters"] ?? [:] {
      f["refetchType"] = random.pick(["active", "inactive", "all", "none"] as [JSONValue])
      arguments["filters"] = .object(f)
    }
    switch operation {
    case "invalidateQueries", "refetchQueries", "resetQueries":
      if random.chance(30) {
        var options: [String: JSONValue] = ["cancelRefetch": .bool(random.chance(50))]
        if random.chance(20) { options["throwOnError"] = true }
        arguments["options"] = .object(options)
      }
    case "cancelQueries":
      if random.chance(40) { arguments["options"] = ["revert": .bool(random.chance(50)), "silent": .bool(random.chance(50))] }
    default: break
    }
    emit(operation, .object(arguments), recording: operation != "removeQueries")
  }

  mutating func filters() -> JSONValue {
    var result: [String: JSONValue] = [:]
    if random.chance(80) {
      let key = random.pick(keys)
      if case .array(let elements) = key, random.chance(50) {
        result["queryKey"] = .array(Array(elements.prefix(random.int(1...elements.count))))
      } else {
        result["queryKey"] = key
      }
      if random.chance(30) { result["exact"] = .bool(random.chance(50)) }
    }
    if random.chance(25) { result["type"] = random.pick(["active", "inactive", "all"] as [JSONValue]) }
    if random.chance(15) { result["stale"] = .bool(random.chance(50)) }
    if random.chance(10) { result["fetchStatus"] = random.pick(["idle", "fetching", "paused"] as [JSONValue]) }
    return .object(result)
  }

  mutating func queryOptions(observer: Bool) -> JSONValue {
    var options: [String: JSONValue] = ["queryKey": random.pick(keys), "queryFn": .string(random.pick(queryFunctions))]
    if random.chance(30) { options["staleTime"] = random.pick([0, 5, 30, 100, "Infinity"] as [JSONValue]) }
    if random.chance(15) { options["gcTime"] = random.pick([0, 20, 100] as [JSONValue]) }
    if random.chance(8) { options["initialData"] = .number(Double(random.int(0...9))) }
    if random.chance(15) { options["retry"] = .number(Double(random.int(0...2))) }
    if random.chance(10) { options["retryDelay"] = .number(Double(random.pick([0, 3, 15]))) }
    if random.chance(10) { options["networkMode"] = random.pick(["online", "always", "offlineFirst"] as [JSONValue]) }
    guard observer else { return .object(options) }
    if random.chance(15) { options["enabled"] = .bool(random.chance(30)) }
    if random.chance(5) { options["enabled"] = ["$fn": "dataBelow", "n": 3, "then": true, "else": false] }
    if random.chance(5) { options["staleTime"] = ["$fn": "dataBelow", "n": 5, "then": 0, "else": "Infinity"] }
    if random.chance(15) { options["refetchInterval"] = random.pick([15, 40] as [JSONValue]) }
    if random.chance(5) { options["refetchIntervalInBackground"] = true }
    if random.chance(15) { options["refetchOnWindowFocus"] = random.pick([true, false, "always"] as [JSONValue]) }
    if random.chance(15) { options["refetchOnReconnect"] = random.pick([true, false, "always"] as [JSONValue]) }
    if random.chance(15) { options["refetchOnMount"] = random.pick([true, false, "always"] as [JSONValue]) }
    if random.chance(10) { options["select"] = random.pick([["$fn": "identity"], ["$fn": "countCalls"]] as [JSONValue]) }
    if random.chance(10) { options["placeholderData"] = random.pick([["$fn": "previousData"], 7] as [JSONValue]) }
    if random.chance(10) { options["notifyOnChangeProps"] = ["$fn": "const", "value": ["data", "status"]] }
    if random.chance(5) { options["retryOnMount"] = false }
    return .object(options)
  }
}
