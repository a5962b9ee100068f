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
        let v = scalar.value
        return (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A) || (v >= 0x30 && v <= 0x39) || v == 0x5F || v == 0x24 || v == 0x2D
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
