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
  func fail(_ path: FixturePath, _ expected: String) -> FixtureError {
    FixtureError(file: file, path: path.text, expected: expected)
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
  func object(_ value: JSONValue, _ path: FixturePath, _ what: String) throws(FixtureError) -> [String: JSONValue] {
    guard case .object(let members) = value else { throw fail(path, "expected \(what), found \(found(value))") }
    return members
  }

  /// Rejects members not in `allowed`, naming the allowed ones.
  func onlyMembers(_ members: [String: JSONValue], _ allowed: [String], _ path: FixturePath, _ what: String) throws(FixtureError) {
    // Members all allowed: nothing to name, so no need of the sorted order that picks the first.
    if members.keys.allSatisfy({ FixtureValidator.isCertainlyListed($0, in: allowed) }) { return }
    for key in FixtureValidator.sortedNames(members.keys) where !allowed.contains(key) {
      throw fail(path.member(key), "unknown \(what) \(list([key])); allowed: \(allowed.joined(separator: ", "))")
    }
  }

  /// Whether `names` certainly holds `name`: `contains`, comparing UTF-8 lengths first (most
  /// allowed names differ from a member's in length, and `==` of two different strings costs a
  /// comparison call). Names of different lengths can still be equal (the Kelvin sign is
  /// canonically `K`), so `false` is only a maybe, which `onlyMembers` asks `contains` about.
  static func isCertainlyListed(_ name: String, in names: [String]) -> Bool {
    let count = name.utf8.count
    return names.contains { $0.utf8.count == count && $0 == name }
  }

  /// The members a `query` check takes, and a `mutation` check's.
  static let queryCheckMembers = ["queryKey", "exists"] + FixtureVocabulary.queryStateFields
  static let mutationCheckMembers = ["mutationId", "exists"] + FixtureVocabulary.mutationStateFields
  /// The members of query filters that take `refetchType`.
  static let refetchFilterMembers = FixtureVocabulary.filterMembers + ["refetchType"]

  /// The value as a whole number within `Int`, or `nil`.
  static func integer(_ value: JSONValue) -> Int? {
    guard case .number(let n) = value, n.rounded() == n, abs(n) <= 9_007_199_254_740_991 else { return nil }
    return Int(exactly: n)
  }

  /// A whole number at least `min`, or an error.
  func integer(_ value: JSONValue, min: Int, _ path: FixturePath) throws(FixtureError) -> Int {
    guard let n = FixtureValidator.integer(value), n >= min else {
      throw fail(path, "expected \(ValueRule.integer(min: min).description), found \(found(value))")
    }
    return n
  }

  /// `names.sorted()` (by `String`'s `<`): names all ASCII are sorted by their bytes, which is
  /// that order for them (ASCII is its own normal form), comparing first eight bytes read once
  /// into integers; any other name sends the whole list to `sorted()`. (`String`'s `<` costs a
  /// call into its Unicode comparison for each pair.)
  static func sortedNames<C: Collection>(_ names: C) -> [String] where C.Element == String {
    var entries: [(prefix: UInt64, name: String)] = []
    entries.reserveCapacity(names.count)
    for name in names {
      var name = name
      guard name.withUTF8({ bytes in bytes.allSatisfy { $0 < 0x80 } }) else { return names.sorted() }
      entries.append((JSONValue.jsKeyPrefix(name), name))
    }
    if entries.count < 2 { return entries.map(\.name) }
    entries.sort { a, b in
      if a.prefix != b.prefix { return a.prefix < b.prefix }
      var x = a.name
      var y = b.name
      return x.withUTF8 { x in y.withUTF8 { y in x.lexicographicallyPrecedes(y) } }
    }
    return entries.map(\.name)
  }
}
