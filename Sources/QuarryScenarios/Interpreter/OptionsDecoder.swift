import Quarry

/// Turns a fixture's options, filters and recipes into the engine's types.
struct OptionsDecoder {
  let file: String
  /// Looks up a scripted function by name.
  let function: (String) -> QueryFunction?
  /// Wraps a query function with the scenario's per-query persister (`persister` option,
  /// `ScenarioSession+Persist`).
  var persisted: ((QueryFnOption?, JSONValue, String) throws -> QueryFnOption)?

  func fail(_ path: String, _ expected: String) -> FixtureError {
    FixtureError(file: file, path: path, expected: expected)
  }

  /// Data from a fixture: JSON, with `{"$undefined":true}` as `undefined` (`nil`).
  func data(_ value: JSONValue) -> JSONValue? { fixtureValue(value) }

  /// Fixture data decoded once into one object: every use hands the engine the same box, as a
  /// JavaScript value or `() => V` hands out the same reference. `nil` is `undefined`.
  func sharedData(_ value: JSONValue?) -> DataBox? { value.flatMap(data).map { DataBox($0) } }

  func number(_ value: JSONValue, _ path: String) throws -> Double {
    switch value {
    case .number(let n): return n
    case .string("Infinity"): return .infinity
    default: throw fail(path, "expected a number or \"Infinity\"")
    }
  }

  func constValue(_ value: JSONValue, _ path: String) throws -> JSONValue? {
    guard let r = recipe(value) else { return nil }
    guard r.name == "const", let v = r.args["value"] else { throw fail(path, "expected a {\"$fn\":\"const\",\"value\":...} recipe") }
    return v
  }

  func staleTime(_ value: JSONValue, _ path: String) throws -> StaleTime {
    if value == .string("static") { return .static }
    return .milliseconds(try number(value, path))
  }

  func refetchOn(_ value: JSONValue, _ path: String) throws -> RefetchOnOption {
    switch value {
    case .bool(true): return .ifStale
    case .bool(false): return .never
    case .string("always"): return .always
    default: throw fail(path, "expected true, false or \"always\"")
    }
  }

  func notifyOnChangeProps(_ value: JSONValue, _ path: String) throws -> NotifyOnChangeProps {
    if value == .string("all") { return .all }
    guard case .array(let items) = value else { throw fail(path, "expected \"all\" or an array of property names") }
    return .props(try items.enumerated().map { i, item in
      guard case .string(let s) = item else { throw fail("\(path)[\(i)]", "expected a property name") }
      return s
    })
  }

  /// Query options; `extra` names members the caller reads itself.
  func queryOptions(_ value: JSONValue?, _ path: String, extra: Set<String> = []) throws -> QueryOptions {
    guard case .object(let o)? = value else { throw fail(path, "expected query options (an object)") }
    var options = QueryOptions()
    for (name, v) in o.sorted(by: { $0.key < $1.key }) {
      let p = "\(path).\(name)"
      if extra.contains(name) { continue }
      if isUndefinedMarker(v) { continue }
      switch name {
      case "queryKey":
        guard case .array(let parts) = v else { throw fail(p, "expected a query key (an array)") }
        options.queryKey = QueryKey(parts.map(fixtureElement))
      case "queryFn":
        guard case .string(let fnName) = v else { throw fail(p, "expected a function name") }
        if fnName == "$skipToken" {
          options.queryFn = .skipToken
        } else {
          guard let fn = function(fnName) else { throw fail(p, "expected the name of a function in \"functions\"") }
          options.queryFn = .function(fn)
        }
      case "staleTime":
        if let choice = try dataBelow(v, p, { try staleTime($0, $1) }) {
          options.staleTime = .function(FunctionBox { @Sendable query in choice(query) })
        } else if let c = try constValue(v, p) {
          let st = try staleTime(c, p)
          options.staleTime = .function(FunctionBox { @Sendable _ in st })
        } else {
          options.staleTime = .value(try staleTime(v, p))
        }
      case "gcTime": options.gcTime = try number(v, p)
      case "retry":
        if let r = recipe(v) {
          if r.name == "failureCountLessThan", case .number(let n)? = r.args["n"] {
            let limit = Int(n)
            options.retry = .function(FunctionBox { @Sendable count, _ in count < limit })
          } else if r.name == "const", case .bool(let b)? = r.args["value"] {
            options.retry = .function(FunctionBox { @Sendable _, _ in b })
          } else {
            throw fail(p, "expected a retry recipe")
          }
        } else if case .bool(let b) = v {
          options.retry = .bool(b)
        } else {
          options.retry = .count(Int(try number(v, p)))
        }
      case "retryDelay":
        if let r = recipe(v) {
          if r.name == "linear", case .number(let ms)? = r.args["ms"] {
            options.retryDelay = .function(FunctionBox { @Sendable count, _ in Double(count) * ms })
          } else if r.name == "const", case .number(let ms)? = r.args["value"] {
            options.retryDelay = .function(FunctionBox { @Sendable _, _ in ms })
          } else {
            throw fail(p, "expected a retryDelay recipe")
          }
        } else {
          options.retryDelay = .milliseconds(try number(v, p))
        }
      case "networkMode":
        guard case .string(let s) = v, let mode = NetworkMode(rawValue: s) else { throw fail(p, "expected online, always or offlineFirst") }
        options.networkMode = mode
      case "enabled", "retryOnMount":
        let option: QueryBoolOption
        if name == "enabled", let choice = try dataBelow(v, p, { value, path in
          guard case .bool(let b) = value else { throw fail(path, "expected a boolean") }
          return b
        }) {
          option = .function(FunctionBox { @Sendable query in choice(query) })
        } else if let c = try constValue(v, p) {
          guard case .bool(let b) = c else { throw fail(p, "expected a boolean") }
          option = .function(FunctionBox { @Sendable _ in b })
        } else {
          guard case .bool(let b) = v else { throw fail(p, "expected a boolean") }
          option = .value(b)
        }
        if name == "enabled" { options.enabled = option } else { options.retryOnMount = option }
      case "select": options.select = try select(v, p)
      case "placeholderData":
        if let r = recipe(v) {
          switch r.name {
          case "previousData": options.placeholderData = .function(FunctionBox { @Sendable previous, _ in previous })
          case "const":
            let c = sharedData(r.args["value"])
            options.placeholderData = .function(FunctionBox { @Sendable _, _ in c })
          default: throw fail(p, "expected a placeholderData recipe")
          }
        } else if let d = data(v) {
          options.placeholderData = .value(d)
        }
      case "initialData":
        if let r = recipe(v) {
          guard r.name == "const" else { throw fail(p, "expected a const recipe") }
          let c = sharedData(r.args["value"])
          options.initialData = .function(FunctionBox { @Sendable in c })
        } else if let d = data(v) {
          options.initialData = .value(infiniteAware(d))
        }
      case "initialDataUpdatedAt":
        // The function form is called once, when the query is created: its constant is the same.
        options.initialDataUpdatedAt = try number(try constValue(v, p) ?? v, p)
      case "refetchOnMount", "refetchOnWindowFocus", "refetchOnReconnect":
        let option: RefetchOnOption
        if let c = try constValue(v, p) {
          let inner = try refetchOn(c, p)
          option = .function(FunctionBox { @Sendable _ in inner })
        } else {
          option = try refetchOn(v, p)
        }
        switch name {
        case "refetchOnMount": options.refetchOnMount = option
        case "refetchOnWindowFocus": options.refetchOnWindowFocus = option
        default: options.refetchOnReconnect = option
        }
      case "refetchInterval":
        if let choice = try dataBelow(v, p, { value, path in value == .bool(false) ? nil : try number(value, path) }) {
          options.refetchInterval = .function(FunctionBox { @Sendable query in choice(query) })
        } else if let c = try constValue(v, p) {
          let ms: Double? = c == .bool(false) ? nil : try number(c, p)
          options.refetchInterval = .function(FunctionBox { @Sendable _ in ms })
        } else if v == .bool(false) {
          options.refetchInterval = .never
        } else {
          options.refetchInterval = .milliseconds(try number(v, p))
        }
      case "refetchIntervalInBackground":
        guard case .bool(let b) = v else { throw fail(p, "expected a boolean") }
        options.refetchIntervalInBackground = b
      case "notifyOnChangeProps":
        if let c = try constValue(v, p) {
          let inner = try notifyOnChangeProps(c, "\(p).value")
          options.notifyOnChangeProps = .function(FunctionBox { @Sendable in inner })
        } else {
          options.notifyOnChangeProps = try notifyOnChangeProps(v, p)
        }
      case "structuralSharing":
        if let r = recipe(v) {
          switch r.name {
          case "keepPrevious":
            options.structuralSharing = .function(FunctionBox { @Sendable previous, data in previous ?? data })
          case "takeNew":
            options.structuralSharing = .function(FunctionBox { @Sendable _, data in data })
          default: throw fail(p, "expected a keepPrevious or takeNew recipe")
          }
        } else {
          guard case .bool(let b) = v else { throw fail(p, "expected a boolean") }
          options.structuralSharing = .value(b)
        }
      case "meta": options.meta = fixtureValue(v)
      case "queryHash":
        guard case .string(let hash) = v else { throw fail(p, "expected a string") }
        options.queryHash = hash
      case "queryKeyHashFn":
        guard let r = recipe(v), r.name == "joinKey", case .string(let separator)? = r.args["separator"] else {
          throw fail(p, "expected a joinKey recipe")
        }
        options.queryKeyHashFn = FunctionBox { @Sendable key in joinKey(key.parts, separator) }
      case "throwOnError":
        guard case .bool(let b) = v else { throw fail(p, "expected a boolean") }
        options.throwOnError = b
      case "persister":
        continue  // applied below, over the final queryFn
      default:
        guard try infiniteOption(name, v, p, &options) else { throw fail(p, "unknown query option") }
      }
    }
    if let config = o["persister"], !isUndefinedMarker(config), let persisted {
      options.queryFn = try persisted(options.queryFn, config, "\(path).persister")
    }
    return options
  }

  /// A `dataBelow` recipe: `query => (query.state.data ?? 0) < n ? then : else`, with `then` and
  /// `else` decoded by `decode`; `nil` when `value` is not one.
  func dataBelow<T: Sendable>(_ value: JSONValue, _ path: String, _ decode: (JSONValue, String) throws -> T) throws -> (@Sendable (Query) -> T)? {
    guard let r = recipe(value), r.name == "dataBelow" else { return nil }
    guard case .number(let n)? = r.args["n"], let thenValue = r.args["then"], let elseValue = r.args["else"] else {
      throw fail(path, "expected a dataBelow recipe with n, then and else")
    }
    let yes = try decode(thenValue, "\(path).then")
    let no = try decode(elseValue, "\(path).else")
    return { query in
      // JavaScript's `(data ?? 0) < n`: undefined and null count as 0, other non-numbers compare false.
      let data: Double
      switch query.state.data as? JSONValue {
      case nil, .null?: data = 0
      case .number(let x)?: data = x
      default: data = .nan
      }
      return data < n ? yes : no
    }
  }

  func select(_ v: JSONValue, _ p: String) throws -> SelectFunction {
    guard let r = recipe(v) else { throw fail(p, "expected a select recipe") }
    switch r.name {
    case "identity": return SelectFunction { $0 }
    case "countCalls":
      let counter = CallCounter()
      return SelectFunction { _ in JSONValue.number(Double(counter.next())) }
    case "pluck":
      guard let key = r.args["key"] else { throw fail(p, "expected a key") }
      return SelectFunction { data in
        let json = TraceValues.json(data)
        switch (json, key) {
        case (.object?, .string(let k)):
          // `d[k]` by exact code units; a member set to undefined reads as undefined.
          guard let member = json?[k], !member.isUndefined else { return nil as JSONValue? }
          return member as JSONValue?
        case (.array(let a)?, .number(let n)):
          let i = Int(n)
          return a.indices.contains(i) && !a[i].isUndefined ? a[i] as JSONValue? : nil as JSONValue?
        default: return nil as JSONValue?
        }
      }
    case "length":
      return SelectFunction { data in
        switch TraceValues.json(data) {
        case .array(let a)?: return JSONValue.number(Double(a.count))
        case .string(let s)?: return JSONValue.number(Double(s.utf16.count))
        default: return nil as JSONValue?
        }
      }
    case "throw":
      guard case .string(let message)? = r.args["message"] else { throw fail(p, "expected a message") }
      return SelectFunction { _ in throw ScriptError(message: message) }
    case "const":
      let c = sharedData(r.args["value"])
      return SelectFunction { _ in c ?? (nil as JSONValue?) }
    default: throw fail(p, "expected a select recipe")
    }
  }

  /// A `setQueryData` value or updater.
  func updater(data dataValue: JSONValue?, updater updaterValue: JSONValue?, _ p: String) throws -> @Sendable ((any Sendable)?) -> (any Sendable)? {
    if let dataValue {
      let d = data(dataValue).map { DataBox(infiniteAware($0)) }
      return { _ in d }
    }
    guard let r = recipe(updaterValue) else { throw fail("\(p).updater", "expected an updater recipe") }
    switch r.name {
    case "increment":
      guard case .number(let by)? = r.args["by"] else { throw fail("\(p).updater.by", "expected a number") }
      return { old in
        if case .number(let n)? = old as? JSONValue { return JSONValue.number(n + by) }
        return JSONValue.number(by)
      }
    case "append":
      let v = r.args["value"].flatMap(data) ?? .undefined
      return { old in
        if case .array(let a)? = old as? JSONValue { return JSONValue.array(a + [v]) }
        return JSONValue.array([v])
      }
    case "undefined": return { _ in nil }
    case "const":
      let c = sharedData(r.args["value"])
      return { _ in c }
    default: throw fail("\(p).updater", "expected an updater recipe")
    }
  }

  /// Query filters (and `refetchType` for invalidation).
  func filters(_ value: JSONValue?, _ path: String) throws -> InvalidateQueryFilters {
    guard let value else { return InvalidateQueryFilters() }
    guard case .object(let o) = value else { throw fail(path, "expected filters (an object)") }
    var f = QueryFilters()
    var refetchType: InvalidateQueryFilters.RefetchType?
    for (name, v) in o {
      let p = "\(path).\(name)"
      switch name {
      case "queryKey":
        guard case .array(let parts) = v else { throw fail(p, "expected a query key (an array)") }
        f.queryKey = QueryKey(parts.map(fixtureElement))
      case "exact":
        guard case .bool(let b) = v else { throw fail(p, "expected a boolean") }
        f.exact = b
      case "type":
        guard case .string(let s) = v, let t = QueryFilters.QueryTypeFilter(rawValue: s) else { throw fail(p, "expected active, inactive or all") }
        f.type = t
      case "stale":
        guard case .bool(let b) = v else { throw fail(p, "expected a boolean") }
        f.stale = b
      case "fetchStatus":
        guard case .string(let s) = v, let st = FetchStatus(rawValue: s) else { throw fail(p, "expected fetching, paused or idle") }
        f.fetchStatus = st
      case "predicate":
        if let r = recipe(v), r.name == "stateIs", case .string(let field)? = r.args["field"] {
          let wanted = TraceValues.show(fixtureValue(r.args["value"]))
          f.predicate = { query in TraceValues.show(TraceValues.state(query.state)[field]) == wanted }
          continue
        }
        guard let r = recipe(v), r.name == "keyIncludes" || r.name == "const", let argument = r.args["value"] else {
          throw fail(p, "expected a keyIncludes, stateIs or const recipe")
        }
        if r.name == "const" {
          // `() => V`: the filter keeps the query when V is truthy.
          let keep = fixtureValue(argument)?.isTruthy ?? false
          f.predicate = { _ in keep }
        } else {
          // Deep-equal as the trace writes values (`undefined` and `null` alike), as run.mjs compares.
          let needle = TraceValues.show(fixtureValue(argument))
          f.predicate = { query in query.queryKey.parts.contains { TraceValues.show($0) == needle } }
        }
      case "refetchType":
        guard case .string(let s) = v, let t = InvalidateQueryFilters.RefetchType(rawValue: s) else { throw fail(p, "expected active, inactive, all or none") }
        refetchType = t
      default:
        throw fail(p, "unknown filter")
      }
    }
    return InvalidateQueryFilters(f, refetchType: refetchType)
  }

  /// `cancelRefetch`, `throwOnError`, `revert`, `silent`.
  func callOptions(_ value: JSONValue?, _ path: String) throws -> (refetch: RefetchOptions, cancel: CancelOptions) {
    var r = RefetchOptions()
    var c = CancelOptions()
    guard let value else { return (r, c) }
    guard case .object(let o) = value else { throw fail(path, "expected options (an object)") }
    for (name, v) in o {
      guard case .bool(let b) = v else { throw fail("\(path).\(name)", "expected a boolean") }
      switch name {
      case "cancelRefetch": r.cancelRefetch = b
      case "throwOnError": r.throwOnError = b
      case "revert": c.revert = b
      case "silent": c.silent = b
      default: throw fail("\(path).\(name)", "unknown option")
      }
    }
    return (r, c)
  }
}

/// Counts the calls of one recipe function (a session runs on one thread).
final class CallCounter: @unchecked Sendable {
  // Safe: a scenario session runs every job on the thread that drives it.
  private var calls = 0
  func next() -> Int {
    calls += 1
    return calls
  }
}

/// JavaScript's `array.join(separator)`: `null` as empty, arrays joined with `,`, objects as
/// `[object Object]`.
func joinKey(_ parts: [JSONValue], _ separator: String) -> String {
  parts.map { part in
    switch part {
    case .null, .undefined: return ""
    case .string(let s): return s
    case .bool(let b): return b ? "true" : "false"
    case .number(let n): return JSONValue.ecmaScriptString(n)
    case .array(let items): return joinKey(items, ",")
    case .object: return "[object Object]"
    }
  }.joined(separator: separator)
}

