import Quarry
/// The decoder's working state: the names declared so far while walking one fixture.
struct FixtureValidator {
  /// What a declared handle's operation records.
  struct Handle {
    var step: Int
    var operation: String
    var records: OperationSpec.Records
  }

  let file: String
  var functionNames: [String] = []
  var observers: [String: Int] = [:]
  var mutationObservers: Set<String> = []
  var callbackNames: [String] = []
  var handles: [String: Handle] = [:]

  init(file: String) { self.file = file }

  /// An error at `path`.
  func fail(_ path: String, _ expected: String) -> FixtureError {
    FixtureError(file: file, path: path, expected: expected)
  }

  /// A short rendering of a value for "found …".
  func found(_ value: JSONValue) -> String {
    let text = value.canonicalJSON
    guard text.count > 40 else { return text }
    return String(text.prefix(37)) + "..."
  }

  /// A quoted, comma-separated list of names.
  func list(_ names: [String]) -> String {
    names.map { JSONValue.string($0).canonicalJSON }.joined(separator: ", ")
  }

  /// The value as an object, or an error at `path`.
  func object(_ value: JSONValue, _ path: String, _ what: String) throws(FixtureError) -> [String: JSONValue] {
    guard case .object(let members) = value else { throw fail(path, "expected \(what), found \(found(value))") }
    return members
  }

  /// Rejects members not in `allowed`, naming the allowed ones.
  func onlyMembers(_ members: [String: JSONValue], _ allowed: [String], _ path: String, _ what: String) throws(FixtureError) {
    // Members all allowed: nothing to name, so no need of the sorted order that picks the first.
    if members.keys.allSatisfy({ allowed.contains($0) }) { return }
    for key in members.keys.sorted() where !allowed.contains(key) {
      throw fail(JSONPath.member(path, key), "unknown \(what) \(list([key])); allowed: \(allowed.joined(separator: ", "))")
    }
  }

  /// The value as a whole number within `Int`, or `nil`.
  static func integer(_ value: JSONValue) -> Int? {
    guard case .number(let n) = value, n.rounded() == n, abs(n) <= 9_007_199_254_740_991 else { return nil }
    return Int(exactly: n)
  }

  /// A whole number at least `min`, or an error.
  func integer(_ value: JSONValue, min: Int, _ path: String) throws(FixtureError) -> Int {
    guard let n = FixtureValidator.integer(value), n >= min else {
      throw fail(path, "expected \(ValueRule.integer(min: min).description), found \(found(value))")
    }
    return n
  }
}
