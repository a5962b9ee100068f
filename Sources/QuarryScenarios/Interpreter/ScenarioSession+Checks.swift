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
        guard let script = scripts[name] else { throw calls.fail(name, "expected the name of a function in \"functions\"") }
        compare("calls.\(name)", n, .number(Double(script.calls)))
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
        guard let entry = observers[name] else { throw results.fail(name, "expected the name of an observer created earlier") }
        let actual = TraceValues.result(entry.observer.getCurrentResult()).objectValue ?? [:]
        guard case .object(let expected) = fields else { throw results.fail(name, "expected result fields (an object)") }
        for (field, value) in expected.sorted(by: { $0.key < $1.key }) {
          compare("result.\(name).\(field)", value, actual[field])
        }
      }
    }
    if let counts = try a.nested("notifications") {
      for (name, n) in counts.members.sorted(by: { $0.key < $1.key }) {
        if let queries = queriesObservers[name] {
          compare("notifications.\(name)", n, .number(Double(queries.notifications)))
          continue
        }
        guard let entry = observers[name] else { throw counts.fail(name, "expected the name of an observer created earlier") }
        compare("notifications.\(name)", n, .number(Double(entry.notifications)))
      }
    }
    if let settled = try a.nested("settled") {
      for (handle, want) in settled.members.sorted(by: { $0.key < $1.key }) {
        guard let state = handles[handle] else { throw settled.fail(handle, "expected a handle named by an earlier step's \"as\"") }
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
        guard case .returned(let v)? = handles[handle] else { throw returnedChecks.fail(handle, "expected a handle of a value-returning step") }
        compare("returned.\(handle)", want, v)
      }
    }
    if let size = a["cacheSize"] {
      compare("cacheSize", size, .number(Double(client.queryCache.getAll().count)))
    }
    for m in messages { failures.append("step \(stepIndex) (t=\(TraceValues.show(.number(now)))): \(m)") }
  }
}
