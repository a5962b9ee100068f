import Quarry
/// Steps: one operation member, `at`, `as`, and the operation's arguments.
extension FixtureValidator {
  /// Decodes step `index`, advancing `lastAt` to its time.
  mutating func decodeStep(_ value: JSONValue, index: Int, lastAt: inout Int, within tick: FixturePath? = nil) throws(FixtureError) -> Step {
    // A step keeps its place as text (`Step.location`): a top-level step's is written directly.
    let location = tick?.text ?? JSONPath.element("steps", index)
    let path = tick ?? FixturePath(location)
    let members = try object(value, path, "a step object with one operation member")
    let operations = FixtureVocabulary.operations
    // One walk over the members finds "at", "as" and, in the usual step, its one known operation
    // with its arguments: no sorting, and no name looked up again.
    var atValue: JSONValue?
    var handleValue: JSONValue?
    var only: (name: String, arguments: JSONValue)?
    var others = 0
    for (key, member) in members {
      if key == "at" {
        atValue = member
      } else if key == "as" {
        handleValue = member
      } else {
        only = (key, member)
        others += 1
      }
    }
    let operation: String
    let spec: OperationSpec
    let arguments: JSONValue
    if others == 1, let only, let known = OperationSpec.all[only.name] {
      (operation, spec, arguments) = (only.name, known, only.arguments)
    } else {
      var found: [String] = []
      for key in FixtureValidator.sortedNames(members.keys) where key != "at" && key != "as" {
        guard OperationSpec.all[key] != nil else {
          throw fail(path.member(key), "unknown operation \(list([key])); a step has one of: \(operations.joined(separator: ", ")), plus \"at\" and \"as\"")
        }
        found.append(key)
      }
      guard found.count == 1, let name = found.first, let known = OperationSpec.all[name] else {
        if found.isEmpty { throw fail(path, "expected one operation member: \(operations.joined(separator: ", "))") }
        throw fail(path, "expected exactly one operation member, found \(list(found))")
      }
      (operation, spec, arguments) = (name, known, members[name]!)
    }

    if tick != nil, atValue != nil {
      throw fail(path.member("at"), "no \"at\" inside a tick: its operations run at the tick step's time")
    }
    var at: Int?
    if let atValue {
      let time = try integer(atValue, min: 0, path.member("at"))
      guard time >= lastAt else {
        throw fail(path.member("at"), "expected a time ≥ \(lastAt) (time never goes back), found \(time)")
      }
      at = time
      lastAt = time
    }

    var handle: String?
    if let handleValue {
      let handlePath = path.member("as")
      guard case .string(let name) = handleValue, !name.isEmpty else {
        throw fail(handlePath, "expected a non-empty handle name, found \(self.found(handleValue))")
      }
      guard spec.records != .nothing else { throw fail(handlePath, "no \"as\": \(operation) records nothing") }
      if let earlier = handles[name] {
        throw fail(handlePath, "a new handle name; \(list([name])) is already declared at steps[\(earlier.step)]")
      }
      handle = name
    }

    let argumentsPath = path.member(operation)
    if case .substeps = spec.shape {
      guard tick == nil else { throw fail(argumentsPath, "no \(operation) inside a tick or a cache subscriber") }
      var list = arguments
      var listPath = argumentsPath
      if operation == "subscribeCache" {
        try checkCacheSubscriber(arguments, argumentsPath)
        list = arguments["then"] ?? .null
        listPath = argumentsPath.member("then")
      }
      guard case .array(let items) = list, !items.isEmpty else {
        throw fail(listPath, "expected a non-empty array of steps (each one operation and an optional \"as\")")
      }
      var substeps: [Step] = []
      for (i, item) in items.enumerated() {
        substeps.append(try decodeStep(item, index: index, lastAt: &lastAt, within: listPath.element(i)))
      }
      return Step(index: index, at: at, operation: operation, arguments: arguments, handle: nil, substeps: substeps, location: location)
    }
    _ = try object(arguments, argumentsPath, "an object of arguments")
    try checkArguments(arguments, spec: spec, operation: operation, step: index, argumentsPath)
    if let handle { handles[handle] = Handle(step: index, operation: operation, records: spec.records) }
    return Step(index: index, at: at, operation: operation, arguments: arguments, handle: handle, location: location)
  }

  /// Checks an operation's arguments against its spec and declares new observers.
  mutating func checkArguments(_ value: JSONValue, spec: OperationSpec, operation: String, step: Int, _ path: FixturePath) throws(FixtureError) {
    switch spec.shape {
    case .substeps:
      return  // decoded by `decodeStep`
    case .checks:
      try checkExpectations(value, path)
    case .queryOptions(let extra):
      try checkQueryOptions(value, path, requireKey: true, extra: extra)
    case .members(let arguments):
      let members = try object(value, path, "an object of arguments")
      let names = arguments.map(\.name)
      if !members.keys.allSatisfy(names.contains) {
        for key in FixtureValidator.sortedNames(members.keys) where !names.contains(key) {
          let takes = names.isEmpty ? "no arguments ({})" : list(names)
          throw fail(path.member(key), "unknown argument \(list([key])); \(operation) takes \(takes)")
        }
      }
      for group in spec.exactlyOne {
        let present = group.filter { members[$0] != nil }
        guard present.count == 1 else {
          throw fail(path, "expected exactly one of \(list(group)), found \(present.isEmpty ? "neither" : list(present))")
        }
      }
      var declared: String?
      var declaredMutationObserver = false
      for argument in arguments {
        guard let member = members[argument.name] else {
          if argument.required { throw fail(path.member(argument.name), "missing; \(operation) needs \(list([argument.name]))") }
          continue
        }
        let argumentPath = path.member(argument.name)
        switch argument.kind {
        case .value(let rule):
          try check(member, rule, argumentPath)
        case .queryOptions(let requireKey):
          try checkQueryOptions(member, argumentPath, requireKey: requireKey)
        case .filters(let refetchType):
          try checkFilters(member, argumentPath, refetchType: refetchType)
        case .flags(let flags):
          let options = try object(member, argumentPath, "an object of options")
          try onlyMembers(options, flags, argumentPath, "option")
          try forEachMember(options) { key, flag throws(FixtureError) in try check(flag, .bool, argumentPath.member(key)) }
        case .declareObserver:
          guard case .string(let name) = member, !name.isEmpty else {
            throw fail(argumentPath, "expected a non-empty observer name, found \(found(member))")
          }
          if let earlier = observers[name] {
            throw fail(argumentPath, "a new observer name; \(list([name])) is already declared at steps[\(earlier)]")
          }
          declared = name
        case .observer:
          try checkObserver(member, argumentPath)
        case .mutationOptions:
          try checkMutationOptions(member, argumentPath)
        case .mutationFilters:
          try checkMutationFilters(member, argumentPath)
        case .declareMutationObserver:
          guard case .string(let name) = member, !name.isEmpty else {
            throw fail(argumentPath, "expected a non-empty observer name, found \(found(member))")
          }
          if let earlier = observers[name] {
            throw fail(argumentPath, "a new observer name; \(list([name])) is already declared at steps[\(earlier)]")
          }
          declared = name
          declaredMutationObserver = true
        case .mutationObserver:
          try checkObserver(member, argumentPath)
          guard case .string(let name) = member, mutationObservers.contains(name) else {
            throw fail(argumentPath, "expected a mutation observer (declared by observeMutation or createMutationObserver), found \(found(member))")
          }
        case .mutateOptions:
          guard members["observer"] != nil else { throw fail(argumentPath, "per-call callbacks need an \"observer\"") }
          let callbacks = try object(member, argumentPath, "an object of per-call callbacks")
          try onlyMembers(callbacks, FixtureVocabulary.mutateOptions, argumentPath, "per-call callback")
          for key in FixtureValidator.sortedNames(callbacks.keys) { try checkCallbackName(callbacks[key]!, argumentPath.member(key)) }
        case .observerOptions:
          if case .string(let name)? = members["observer"], mutationObservers.contains(name) {
            try checkMutationOptions(member, argumentPath)
          } else {
            try checkQueryOptions(member, argumentPath, requireKey: true)
          }
        case .queryOptionsList, .queriesOptions:
          try checkPagedArgument(member, argument.kind, argumentPath)
        case .dehydrateOptions, .hydrateOptions, .dehydratedHandle:
          try checkHydrationArgument(member, argument.kind, argumentPath)
        }
      }
      if let declared {
        observers[declared] = step
        if declaredMutationObserver { mutationObservers.insert(declared) }
      }
    }
  }

  /// Checks `subscribeCache`'s `when` and `times` (its `then` steps are decoded as steps).
  func checkCacheSubscriber(_ value: JSONValue, _ path: FixturePath) throws(FixtureError) {
    let members = try object(value, path, #"{"when": {...}, "then": [steps], "times": n}"#)
    try onlyMembers(members, ["when", "then", "times"], path, "subscribeCache member")
    let whenPath = path.member("when")
    guard let whenValue = members["when"] else { throw fail(whenPath, "missing; expected {\"type\": event type, ...}") }
    let when = try object(whenValue, whenPath, "an object: type, action, queryKey")
    try onlyMembers(when, ["type", "action", "queryKey"], whenPath, "event filter")
    let types = ["added", "removed", "updated", "observerAdded", "observerRemoved", "observerResultsUpdated", "observerOptionsUpdated"]
    guard case .string(let type)? = when["type"], types.contains(type) else {
      throw fail(whenPath.member("type"), "expected a cache event type: \(types.joined(separator: ", "))")
    }
    if let action = when["action"] { try check(action, .string, whenPath.member("action")) }
    if let key = when["queryKey"] { try check(key, .queryKey, whenPath.member("queryKey")) }
    if let times = members["times"] { _ = try integer(times, min: 1, path.member("times")) }
  }

  /// Checks a reference to an observer declared by an earlier `observe` or `createObserver`.
  func checkObserver(_ value: JSONValue, _ path: FixturePath) throws(FixtureError) {
    guard case .string(let name) = value else { throw fail(path, "expected an observer name, found \(found(value))") }
    try checkObserverName(name, path)
  }

  /// Checks that `name` is an observer declared earlier.
  func checkObserverName(_ name: String, _ path: FixturePath) throws(FixtureError) {
    guard observers[name] != nil else {
      let declared = observers.isEmpty ? "none is declared yet" : "declared: \(FixtureValidator.sortedNames(observers.keys).joined(separator: ", "))"
      throw fail(path, "expected an observer declared by an earlier observe or createObserver, found \(list([name])) (\(declared))")
    }
  }
}
