import Quarry
/// Checking single values against `ValueRule`s, recipes and plain data.
extension FixtureValidator {
  /// Checks `value` against `rule`, with the most specific message it can give.
  func check(_ value: JSONValue, _ rule: ValueRule, _ path: FixturePath) throws(FixtureError) {
    if case .object(let members) = value, members["$fn"] != nil {
      let names = rule.recipeNames
      guard !names.isEmpty else {
        throw fail(path, "expected \(rule.description); a $fn recipe is not allowed here")
      }
      try checkRecipe(members, allowed: names, path)
      return
    }
    if case .object(let members) = value, members["$undefined"] != nil {
      try checkUndefinedMarker(members, path)
      guard rule.admitsUndefined else { throw fail(path, "expected \(rule.description), not undefined") }
      return
    }
    switch rule {
    case .data:
      try checkData(value, path)
    case .dataObject:
      _ = try object(value, path, "an object")
      try checkData(value, path)
    case .array(let item):
      guard case .array(let items) = value else { throw fail(path, "expected \(rule.description), found \(found(value))") }
      for (index, element) in items.enumerated() { try check(element, item, path.element(index)) }
    case .functionName:
      try checkFunctionName(value, path)
    case .oneOf(let rules):
      if case .string = value, rules.contains(where: { if case .functionName = $0 { true } else { false } }) {
        try checkFunctionName(value, path)
        return
      }
      for alternative in rules where matchesShallowly(value, alternative) {
        try check(value, alternative, path)
        return
      }
      throw fail(path, "expected \(rule.description), found \(found(value))")
    default:
      guard matchesShallowly(value, rule) else { throw fail(path, "expected \(rule.description), found \(found(value))") }
    }
  }

  /// Whether the value has the rule's outer form (nested values are checked by `check`).
  func matchesShallowly(_ value: JSONValue, _ rule: ValueRule) -> Bool {
    switch (rule, value) {
    case (.data, _): return true
    case (.dataObject, .object): return true
    case (.bool, .bool): return true
    case (.integer(let min), _): return FixtureValidator.integer(value).map { $0 >= min } ?? false
    case (.number(let min), .number(let n)): return n >= min
    case (.anyNumber, .number): return true
    case (.string, .string): return true
    case (.literal(let text), .string(let s)): return s == text
    case (.falseValue, .bool(false)): return true
    case (.array, .array): return true
    case (.functionName, .string): return true
    case (.oneOf(let rules), _): return rules.contains { matchesShallowly(value, $0) }
    default: return false
    }
  }

  /// Checks that `value` is a declared function name or `$skipToken`.
  func checkFunctionName(_ value: JSONValue, _ path: FixturePath) throws(FixtureError) {
    guard case .string(let name) = value else { throw fail(path, "expected \(ValueRule.functionName.description), found \(found(value))") }
    guard name == FixtureVocabulary.skipToken || functionNames.contains(name) else {
      let declared = functionNames.isEmpty ? "none are declared" : "declared: \(functionNames.joined(separator: ", "))"
      throw fail(path, "expected a function declared in \"functions\" or \"$skipToken\", found \(list([name])) (\(declared))")
    }
  }

  /// Checks `{"$undefined": true}` exactly.
  func checkUndefinedMarker(_ members: [String: JSONValue], _ path: FixturePath) throws(FixtureError) {
    guard members.count == 1, members["$undefined"] == .bool(true) else {
      throw fail(path, #"expected exactly {"$undefined":true}"#)
    }
  }

  /// Checks plain JSON data: no `$fn` recipes anywhere, `$undefined` markers well formed.
  func checkData(_ value: JSONValue, _ path: FixturePath) throws(FixtureError) {
    if FixtureValidator.isPlainData(value) { return }
    switch value {
    case .object(let members):
      if members["$fn"] != nil { throw fail(path, "expected plain data; a $fn recipe stands only for a whole option value") }
      if members["$undefined"] != nil { try checkUndefinedMarker(members, path); return }
      for key in FixtureValidator.sortedNames(members.keys) { try checkData(members[key]!, path.member(key)) }
    case .array(let items):
      for (index, item) in items.enumerated() { try checkData(item, path.element(index)) }
    default:
      return
    }
  }

  /// Whether `checkData` certainly accepts `value`: no member name anywhere in it starts with
  /// `$` (so it holds no `$fn` recipe and no `$undefined` marker). Answered without building a
  /// path or sorting a name; `false` leaves the answer to `checkData`'s walk, which names the place.
  static func isPlainData(_ value: JSONValue) -> Bool {
    // Recursive as the walk is (the parser nests no deeper than `JSONParser.maximumDepth`).
    switch value {
    case .object(let members):
      for (name, member) in members {
        if name.utf8.first == UInt8(ascii: "$") || !isPlainData(member) { return false }
      }
      return true
    case .array(let items):
      for item in items where !isPlainData(item) { return false }
      return true
    default:
      return true
    }
  }

  /// Checks a `$fn` recipe object against the recipes allowed at this place.
  func checkRecipe(_ members: [String: JSONValue], allowed: [String], _ path: FixturePath) throws(FixtureError) {
    let fnPath = path.member("$fn")
    guard case .string(let name) = members["$fn"] ?? .null else {
      throw fail(fnPath, "expected a recipe name: \(allowed.joined(separator: ", "))")
    }
    guard allowed.contains(name), let parameters = FixtureVocabulary.recipeParameters[name] else {
      throw fail(fnPath, "unknown recipe \(list([name])) here; allowed: \(allowed.joined(separator: ", "))")
    }
    for key in FixtureValidator.sortedNames(members.keys) where key != "$fn" && !parameters.contains(key) {
      let takes = parameters.isEmpty ? "no parameters" : "only \(list(parameters))"
      throw fail(path.member(key), "unknown member; the \(list([name])) recipe takes \(takes)")
    }
    for parameter in parameters {
      let parameterPath = path.member(parameter)
      guard let argument = members[parameter] else {
        throw fail(parameterPath, "missing; the \(list([name])) recipe needs \(list([parameter]))")
      }
      switch (name, parameter) {
      case ("pluck", _): try check(argument, .oneOf([.string, .integer(min: 0)]), parameterPath)
      case ("throw", _), ("joinKey", _): try check(argument, .string, parameterPath)
      case ("failureCountLessThan", _): try check(argument, .integer(min: 0), parameterPath)
      case ("linear", _): try check(argument, .number(min: 0), parameterPath)
      case ("increment", _), ("dataBelow", "n"): try check(argument, .anyNumber, parameterPath)
      case ("stateIs", "field"):
        guard case .string(let field) = argument, FixtureVocabulary.queryStateFields.contains(field) else {
          throw fail(parameterPath, "expected a query state field: \(FixtureVocabulary.queryStateFields.joined(separator: ", "))")
        }
      case ("dataBelow", _): try check(argument, .oneOf([.bool, .milliseconds, .literal("Infinity"), .literal("static")]), parameterPath)
      case ("paramPlus", _): try check(argument, .anyNumber, parameterPath)
      case ("pageField", _), ("pluckAll", _), ("wrap", _): try check(argument, .string, parameterPath)
      case ("mutationStateIs", "field"):
        guard case .string(let field) = argument, FixtureVocabulary.mutationStateFields.contains(field) else {
          throw fail(parameterPath, "expected a mutation state field: \(FixtureVocabulary.mutationStateFields.joined(separator: ", "))")
        }
      default: try checkData(argument, parameterPath)
      }
    }
  }
}
