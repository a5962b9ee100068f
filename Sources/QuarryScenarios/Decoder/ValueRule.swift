import Quarry
/// What a fixture value may be at one place: the decoder's small type language.
indirect enum ValueRule: Sendable {
  /// Any plain JSON data (`{"$undefined":true}` allowed, no `$fn` recipes).
  case data
  /// Plain JSON data that is an object.
  case dataObject
  /// A boolean.
  case bool
  /// A whole number at least `min`.
  case integer(min: Int)
  /// A number at least `min`.
  case number(min: Double)
  /// Any number.
  case anyNumber
  /// Any string.
  case string
  /// Exactly this string.
  case literal(String)
  /// Exactly `false`.
  case falseValue
  /// `{"$undefined":true}`.
  case undefined
  /// An array of values each matching the rule.
  case array(ValueRule)
  /// A `$fn` recipe among these names.
  case recipes([String])
  /// The name of a declared scripted function, or `$skipToken`.
  case functionName
  /// Any of these rules.
  case oneOf([ValueRule])

  /// A readable description for "expected …" messages.
  var description: String {
    switch self {
    case .data: return "JSON data"
    case .dataObject: return "an object"
    case .bool: return "true or false"
    case .integer(let min): return min == 0 ? "a whole number ≥ 0" : "a whole number ≥ \(min)"
    case .number(let min): return "a number ≥ \(JSONValue.number(min).canonicalJSON)"
    case .anyNumber: return "a number"
    case .string: return "a string"
    case .literal(let text): return JSONValue.string(text).canonicalJSON
    case .falseValue: return "false"
    case .undefined: return #"{"$undefined":true}"#
    case .array(let item): return "an array of \(item.pluralDescription)"
    case .recipes(let names): return names.map { #"{"$fn":"\#($0)"}"# }.joined(separator: ", ")
    case .functionName: return #"the name of a declared function or "$skipToken""#
    case .oneOf(let rules):
      let parts = rules.map(\.description)
      guard parts.count > 1 else { return parts.first ?? "nothing" }
      return parts.dropLast().joined(separator: ", ") + " or " + parts[parts.count - 1]
    }
  }

  private var pluralDescription: String {
    switch self {
    case .string: return "strings"
    case .data: return "JSON values"
    default: return "values matching \(description)"
    }
  }

  /// The recipe names this rule admits anywhere in it.
  var recipeNames: [String] {
    switch self {
    case .recipes(let names): return names
    case .oneOf(let rules): return rules.flatMap(\.recipeNames)
    default: return []
    }
  }

  /// Whether the rule admits `{"$undefined":true}`.
  var admitsUndefined: Bool {
    switch self {
    case .data, .undefined: return true
    case .oneOf(let rules): return rules.contains { $0.admitsUndefined }
    default: return false
    }
  }
}

/// Shorthand rules shared by options, filters and checks.
extension ValueRule {
  /// A duration in milliseconds, at least 0.
  static let milliseconds = ValueRule.number(min: 0)
  /// A `const` recipe, allowed for any option.
  static let constRecipe = ValueRule.recipes(["const"])
  /// A query key: an array of JSON data.
  static let queryKey = ValueRule.array(.data)
}
