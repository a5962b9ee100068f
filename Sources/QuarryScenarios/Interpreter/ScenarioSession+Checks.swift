import Quarry

extension ScenarioSession {
  /// Evaluates an `expect` step; failures are recorded with the step and time.
  func check(_ a: ArgumentReader) throws {
    var messages: [String] = []
    func compare(_ what: String, _ expected: JSONValue?, _ actual: JSONValue?) {
      let e = fixtureValue(expected)
      if TraceValues.show(e) != TraceValues.show(actual) {
        messages.append("\(what): expected \(TraceValues.show(e)), got \(TraceValues.show(actual))")
      }
    }
    if let calls = try a.nested("calls") {
      for (name, n) in calls.members.sorted(by: { $0.key < $1.key }) {
        if let script = scripts[name] {
          compare("calls.\(name)", n, .number(Double(script.calls)))
        } else if scenario.callbacks[name] != nil {
          compare("calls.\(name)", n, .number(Double(callbackCalls[name] ?? 0)))
        } else {
          throw calls.fail(name, "expected the name of a function in \"functions\" or a callback in \"callbacks\"")
        }
      }
    }
    func queryCheck(_ value: JSONValue, _ path: String) throws {
      let q = try ArgumentReader(value, file: scenario.file, path: path)
      let key = try q.queryKey()
      let label = "query \(key.queryHash)"
      let query = client.queryCache.find(QueryFilters(queryKey: key, exact: true))
      if q["exists"] == .bool(false) {
        if query != nil { messages.append("\(label): expected absent, but it exists") }
        return
      }
      guard let query else {
        messages.append("\(label): expected to exist, but it is absent")
        return
      }
      let state = TraceValues.state(query.state).objectValue ?? [:]
      for (field, expected) in q.members.sorted(by: { $0.key < $1.key }) where field != "queryKey" && field != "exists" {
        compare("\(label).\(field)", expected, state[field])
      }
    }
    if let q = a["query"] { try queryCheck(q, "\(a.path).query") }
    if let qs = a["queries"] {
      guard case .array(let items) = qs else { throw a.fail("queries", "expected an array of query checks") }
      for (i, item) in items.enumerated() { try queryCheck(item, "\(a.path).queries[\(i)]") }
    }
    if let results = try a.nested("result") {
      for (name, fields) in results.members.sorted(by: { $0.key < $1.key }) {
        let actual: [String: JSONValue]
        if let entry = mutationObservers[name] {
          actual = TraceValues.mutationResult(entry.observer.getCurrentResult()).objectValue ?? [:]
        } else if let entry = observers[name] {
          actual = TraceValues.result(entry.observer.getCurrentResult()).objectValue ?? [:]
        } else {
          throw results.fail(name, "expected the name of an observer created earlier")
        }
        guard case .object(let expected) = fields else { throw results.fail(name, "expected result fields (an object)") }
        for (field, value) in expected.sorted(by: { $0.key < $1.key }) {
          compare("result.\(name).\(field)", value, actual[field])
        }
      }
    }
    if let received = try a.nested("received") {
      for (name, list) in received.members.sorted(by: { $0.key < $1.key }) {
        guard let entry = observers[name] else { throw received.fail(name, "expected the name of an observer created earlier") }
        guard case .array(let items) = list else { throw received.fail(name, "expected an array of result fields") }
        if items.count != entry.received.count {
          messages.append("received.\(name): expected \(items.count) results, got \(entry.received.count)")
          continue
        }
        for (i, item) in items.enumerated() {
          guard case .object(let fields) = item else { throw received.fail(name, "expected result fields (an object)") }
          let actual = entry.received[i].objectValue ?? [:]
          for (field, value) in fields.sorted(by: { $0.key < $1.key }) {
            compare("received.\(name)[\(i)].\(field)", value, actual[field])
          }
        }
      }
    }
    if let counts = try a.nested("notifications") {
      for (name, n) in counts.members.sorted(by: { $0.key < $1.key }) {
        if let queries = queriesObservers[name] {
          compare("notifications.\(name)", n, .number(Double(queries.notifications)))
          continue
        }
        guard let notifications = observers[name]?.notifications ?? mutationObservers[name]?.notifications else {
          throw counts.fail(name, "expected the name of an observer created earlier")
        }
        compare("notifications.\(name)", n, .number(Double(notifications)))
      }
    }
    if let settled = try a.nested("settled") {
      for (handle, want) in settled.members.sorted(by: { $0.key < $1.key }) {
        guard let state = handles[handle] else {
          // Declared (the decoder checked) but not performed yet: a cache subscriber's step.
          messages.append("settled.\(handle): the step with this handle has not run")
          continue
        }
        let got: String
        switch state {
        case .pending: got = "pending"
        case .fulfilled(let v): got = "value \(TraceValues.show(v))"
        case .rejected(let e): got = "error \(TraceValues.show(e))"
        case .returned: throw settled.fail(handle, "handle \"\(handle)\" is not a promise; use \"returned\"")
        }
        let exp: String
        if want["pending"] != nil {
          exp = "pending"
        } else if let e = want["error"] {
          exp = "error \(TraceValues.show(e))"
        } else {
          exp = "value \(TraceValues.show(fixtureValue(want["value"])))"
        }
        if got != exp { messages.append("settled.\(handle): expected \(exp), got \(got)") }
      }
    }
    if let returnedChecks = try a.nested("returned") {
      for (handle, want) in returnedChecks.members.sorted(by: { $0.key < $1.key }) {
        guard let state = handles[handle] else {
          messages.append("returned.\(handle): the step with this handle has not run")
          continue
        }
        guard case .returned(let v) = state else { throw returnedChecks.fail(handle, "expected a handle of a value-returning step") }
        compare("returned.\(handle)", want, v)
      }
    }
    if let aborted = try a.nested("aborted") {
      for (name, calls) in aborted.members.sorted(by: { $0.key < $1.key }) {
        guard case .object(let byCall) = calls else { throw aborted.fail(name, "expected {call number: true or false}") }
        for (call, want) in byCall.sorted(by: { $0.key < $1.key }) {
          guard let n = Int(call), let signal = signals[name]?[n] else {
            messages.append("aborted.\(name).\(call): call \(call) of \(name) did not read its signal")
            continue
          }
          compare("aborted.\(name).\(call)", want, .bool(signal.isAborted))
        }
      }
    }
    if case .array(let pairs)? = a["sameData"] {
      for (i, pair) in pairs.enumerated() {
        let r = try ArgumentReader(pair, file: scenario.file, path: "\(a.path).sameData[\(i)]")
        let same = try r.bool("same")
        let (x, xLabel) = try dataRef(r, "a")
        let (y, yLabel) = try dataRef(r, "b")
        if sameDataObject(x, y) != same {
          messages.append("sameData[\(i)]: expected \(xLabel) and \(yLabel) to be \(same ? "the same object" : "different objects")")
        }
      }
    }
    func mutationCheck(_ value: JSONValue, _ path: String) throws {
      let q = try ArgumentReader(value, file: scenario.file, path: path)
      let id = Int(try q.number("mutationId"))
      let label = "mutation \(id)"
      let mutation = client.mutationCache.getAll().first { $0.mutationId == id }
      if q["exists"] == .bool(false) {
        if mutation != nil { messages.append("\(label): expected absent, but it exists") }
        return
      }
      guard let mutation else {
        messages.append("\(label): expected to exist, but it is absent")
        return
      }
      let state = TraceValues.mutationState(mutation.state).objectValue ?? [:]
      for (field, expected) in q.members.sorted(by: { $0.key < $1.key }) where field != "mutationId" && field != "exists" {
        compare("\(label).\(field)", expected, state[field])
      }
    }
    if let m = a["mutation"] { try mutationCheck(m, "\(a.path).mutation") }
    if let ms = a["mutations"] {
      guard case .array(let items) = ms else { throw a.fail("mutations", "expected an array of mutation checks") }
      for (i, item) in items.enumerated() { try mutationCheck(item, "\(a.path).mutations[\(i)]") }
    }
    if let count = a["mutationCount"] {
      compare("mutationCount", count, .number(Double(client.mutationCache.getAll().count)))
    }
    if let size = a["cacheSize"] {
      compare("cacheSize", size, .number(Double(client.queryCache.getAll().count)))
    }
    for name in observers.keys { observers[name]!.received = [] }
    for m in messages { failures.append("step \(stepIndex) (t=\(TraceValues.show(.number(now)))): \(m)") }
  }
}

extension ScenarioSession {
  /// The data a `sameData` reference names, with a label for messages.
  func dataRef(_ r: ArgumentReader, _ side: String) throws -> (DataBox?, String) {
    let ref = try ArgumentReader(r[side], file: scenario.file, path: "\(r.path).\(side)")
    if ref.has("observer") {
      let (name, entry) = try observerEntry(ref)
      return (entry.observer.getCurrentResult().dataBox, "observer \(name)'s data")
    }
    let key = try ref.queryKey("query")
    return (client.queryCache.find(QueryFilters(queryKey: key, exact: true))?.state.dataBox, "query \(key.queryHash)'s data")
  }
}
