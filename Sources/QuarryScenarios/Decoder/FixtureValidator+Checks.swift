import Quarry
/// The checks of an `expect` step.
extension FixtureValidator {
  /// Checks an `expect` step's checks object.
  func checkExpectations(_ value: JSONValue, _ path: FixturePath) throws(FixtureError) {
    let checks = try object(value, path, "an object of checks")
    try onlyMembers(checks, FixtureVocabulary.checks, path, "check")
    try forEachMember(checks) { key, checkValue throws(FixtureError) in
      let checkPath = path.member(key)
      switch key {
      case "calls":
        let calls = try object(checkValue, checkPath, "an object mapping function names to call counts")
        for name in FixtureValidator.sortedNames(calls.keys) {
          let namePath = checkPath.member(name)
          guard functionNames.contains(name) || callbackNames.contains(name) else {
            throw fail(namePath, "expected a function declared in \"functions\" or a callback in \"callbacks\" (declared: \((functionNames + callbackNames).joined(separator: ", ")))")
          }
          _ = try integer(calls[name]!, min: 0, namePath)
        }
      case "query":
        try checkQueryCheck(checkValue, checkPath)
      case "queries":
        guard case .array(let items) = checkValue else {
          throw fail(checkPath, "expected an array of query checks, found \(found(checkValue))")
        }
        for (index, item) in items.enumerated() { try checkQueryCheck(item, checkPath.element(index)) }
      case "result":
        let results = try object(checkValue, checkPath, "an object mapping observer names to result fields")
        for name in FixtureValidator.sortedNames(results.keys) {
          let observerPath = checkPath.member(name)
          try checkObserverName(name, observerPath)
          let fields = try object(results[name]!, observerPath, "an object of result fields")
          let allowed = mutationObservers.contains(name) ? FixtureVocabulary.mutationResultFields : FixtureVocabulary.resultFields
          try onlyMembers(fields, allowed, observerPath, "result field")
          try forEachMember(fields) { field, value throws(FixtureError) in try checkData(value, observerPath.member(field)) }
        }
      case "received":
        let lists = try object(checkValue, checkPath, "an object mapping observer names to lists of result fields")
        for name in FixtureValidator.sortedNames(lists.keys) {
          let observerPath = checkPath.member(name)
          try checkObserverName(name, observerPath)
          guard case .array(let items) = lists[name]! else {
            throw fail(observerPath, "expected an array of result fields, found \(found(lists[name]!))")
          }
          for (index, item) in items.enumerated() {
            let itemPath = observerPath.element(index)
            let fields = try object(item, itemPath, "an object of result fields")
            try onlyMembers(fields, FixtureVocabulary.resultFields, itemPath, "result field")
            try forEachMember(fields) { field, value throws(FixtureError) in try checkData(value, itemPath.member(field)) }
          }
        }
      case "notifications":
        let counts = try object(checkValue, checkPath, "an object mapping observer names to listener call counts")
        for name in FixtureValidator.sortedNames(counts.keys) {
          let observerPath = checkPath.member(name)
          try checkObserverName(name, observerPath)
          _ = try integer(counts[name]!, min: 0, observerPath)
        }
      case "settled":
        let settled = try object(checkValue, checkPath, "an object mapping handles to how they settled")
        for name in FixtureValidator.sortedNames(settled.keys) {
          let handlePath = checkPath.member(name)
          try checkHandle(name, records: .settle, handlePath)
          let outcome = try object(settled[name]!, handlePath, #"{"value": V}, {"error": M} or {"pending": true}"#)
          try onlyMembers(outcome, ["value", "error", "pending"], handlePath, "settled member")
          guard outcome.count == 1 else {
            throw fail(handlePath, #"expected exactly one of "value", "error" and "pending""#)
          }
          if let value = outcome["value"] { try checkData(value, handlePath.member("value")) }
          if let error = outcome["error"] { try check(error, .string, handlePath.member("error")) }
          if let pending = outcome["pending"], pending != .bool(true) {
            throw fail(handlePath.member("pending"), "expected true, found \(found(pending))")
          }
        }
      case "returned":
        let returned = try object(checkValue, checkPath, "an object mapping handles to returned values")
        for name in FixtureValidator.sortedNames(returned.keys) {
          let handlePath = checkPath.member(name)
          try checkHandle(name, records: .value, handlePath)
          try checkData(returned[name]!, handlePath)
        }
      case "sameData":
        guard case .array(let items) = checkValue else {
          throw fail(checkPath, #"expected an array of {"a": ref, "b": ref, "same": true|false}, found \#(found(checkValue))"#)
        }
        for (index, item) in items.enumerated() {
          let itemPath = checkPath.element(index)
          let members = try object(item, itemPath, #"{"a": ref, "b": ref, "same": true|false}"#)
          try onlyMembers(members, ["a", "b", "same"], itemPath, "sameData member")
          for side in ["a", "b"] {
            let sidePath = itemPath.member(side)
            guard let ref = members[side] else { throw fail(sidePath, #"missing; expected {"observer": name} or {"query": key}"#) }
            try checkDataRef(ref, sidePath)
          }
          guard let same = members["same"] else { throw fail(itemPath.member("same"), "missing; expected true or false") }
          try check(same, .bool, itemPath.member("same"))
        }
      case "aborted":
        let functions = try object(checkValue, checkPath, "an object mapping function names to {call number: aborted}")
        for name in FixtureValidator.sortedNames(functions.keys) {
          let namePath = checkPath.member(name)
          guard functionNames.contains(name) else {
            throw fail(namePath, "expected a function declared in \"functions\" (declared: \(functionNames.joined(separator: ", ")))")
          }
          let calls = try object(functions[name]!, namePath, "an object mapping call numbers to true or false")
          for call in FixtureValidator.sortedNames(calls.keys) {
            guard let n = Int(call), n >= 1, String(n) == call else {
              throw fail(namePath.member(call), "expected a call number (1, 2, ...) as the member name")
            }
            try check(calls[call]!, .bool, namePath.member(call))
          }
        }
      case "mutation":
        try checkMutationCheck(checkValue, checkPath)
      case "mutations":
        guard case .array(let items) = checkValue else {
          throw fail(checkPath, "expected an array of mutation checks, found \(found(checkValue))")
        }
        for (index, item) in items.enumerated() { try checkMutationCheck(item, checkPath.element(index)) }
      default:  // cacheSize, mutationCount
        _ = try integer(checkValue, min: 0, checkPath)
      }
    }
  }

  /// Checks a data reference of `sameData`: `{"observer": name}` or `{"query": key}`.
  func checkDataRef(_ value: JSONValue, _ path: FixturePath) throws(FixtureError) {
    let members = try object(value, path, #"{"observer": name} or {"query": key}"#)
    try onlyMembers(members, ["observer", "query"], path, "data reference")
    guard members.count == 1 else { throw fail(path, #"expected exactly one of "observer" and "query""#) }
    if let observer = members["observer"] { try checkObserver(observer, path.member("observer")) }
    if let key = members["query"] { try check(key, .queryKey, path.member("query")) }
  }

  /// Checks one `mutation` check: `{mutationId, ...state fields}` or `{mutationId, "exists": false}`.
  func checkMutationCheck(_ value: JSONValue, _ path: FixturePath) throws(FixtureError) {
    let fields = try object(value, path, "a mutation check object with \"mutationId\"")
    try onlyMembers(fields, FixtureValidator.mutationCheckMembers, path, "mutation check field")
    guard let id = fields["mutationId"] else { throw fail(path.member("mutationId"), "missing; expected a mutation id (1, 2, ...)") }
    _ = try integer(id, min: 1, path.member("mutationId"))
    if let exists = fields["exists"] {
      let existsPath = path.member("exists")
      guard case .bool(let flag) = exists else { throw fail(existsPath, "expected true or false, found \(found(exists))") }
      if !flag, fields.count > 2 { throw fail(existsPath, "no other fields with \"exists\": false") }
    }
    try forEachMember(fields) { field, value throws(FixtureError) in
      guard field != "mutationId", field != "exists" else { return }
      try checkData(value, path.member(field))
    }
  }

  /// Checks one `query` check: `{queryKey, ...state fields}` or `{queryKey, "exists": false}`.
  func checkQueryCheck(_ value: JSONValue, _ path: FixturePath) throws(FixtureError) {
    let fields = try object(value, path, "a query check object with \"queryKey\"")
    try onlyMembers(fields, FixtureValidator.queryCheckMembers, path, "query check field")
    guard let key = fields["queryKey"] else { throw fail(path.member("queryKey"), "missing; expected a query key (an array)") }
    try check(key, .queryKey, path.member("queryKey"))
    if let exists = fields["exists"] {
      let existsPath = path.member("exists")
      guard case .bool(let flag) = exists else { throw fail(existsPath, "expected true or false, found \(found(exists))") }
      if !flag, fields.count > 2 { throw fail(existsPath, "no other fields with \"exists\": false") }
    }
    try forEachMember(fields) { field, value throws(FixtureError) in
      guard field != "queryKey", field != "exists" else { return }
      try checkData(value, path.member(field))
    }
  }

  /// Checks that `name` is a handle declared by an earlier step that records `records`.
  func checkHandle(_ name: String, records: OperationSpec.Records, _ path: FixturePath) throws(FixtureError) {
    let what = records == .settle ? "a promise (settle)" : "a returned value"
    guard let handle = handles[name] else {
      let declared = handles.isEmpty ? "none is declared yet" : "declared: \(FixtureValidator.sortedNames(handles.keys).joined(separator: ", "))"
      throw fail(path, "expected a handle declared by an earlier step's \"as\", found \(list([name])) (\(declared))")
    }
    guard handle.records == records else {
      throw fail(path, "expected a handle that records \(what); \(list([name])) is a \(handle.operation) at steps[\(handle.step)]")
    }
  }
}
