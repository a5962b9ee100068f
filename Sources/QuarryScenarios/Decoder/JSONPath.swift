import Quarry
/// JSON paths for fixture messages, like `steps[3].fetchQuery.queryKey`; `$` is the whole fixture.
enum JSONPath {
  /// The path of the whole fixture.
  static let root = "$"

  /// The path of member `key` inside `path`.
  static func member(_ path: String, _ key: String) -> String {
    let plain = !key.isEmpty && key.unicodeScalars.allSatisfy { scalar in
      // ASCII's alphabetic scalars are its letters: asked without the Unicode property table.
      if scalar.isASCII {
        return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
          || scalar == "_" || scalar == "$" || scalar == "-"
      }
      return scalar.properties.isAlphabetic
    }
    let part = plain ? key : "[\(JSONValue.string(key).canonicalJSON)]"
    if path == root { return plain ? key : "$" + part }
    return plain ? "\(path).\(key)" : path + part
  }

  /// The path of element `index` inside `path`.
  static func element(_ path: String, _ index: Int) -> String {
    path == root ? "$[\(index)]" : "\(path)[\(index)]"
  }
}
