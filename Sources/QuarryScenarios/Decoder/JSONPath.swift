import Quarry
/// JSON paths for fixture messages, like `steps[3].fetchQuery.queryKey`; `$` is the whole fixture.
enum JSONPath {
  /// The path of the whole fixture.
  static let root = "$"

  /// The path of member `key` inside `path`.
  static func member(_ path: String, _ key: String) -> String {
    let plain = isPlainASCII(key) ?? (!key.isEmpty && key.unicodeScalars.allSatisfy { scalar in
      // ASCII's alphabetic scalars are its letters: asked without the Unicode property table.
      if scalar.isASCII { return isPlain(UInt8(truncatingIfNeeded: scalar.value)) }
      return scalar.properties.isAlphabetic
    })
    if path == root { return plain ? key : "$[\(JSONValue.string(key).canonicalJSON)]" }
    guard plain else { return path + "[\(JSONValue.string(key).canonicalJSON)]" }
    return joined(path, key)
  }

  /// `path + "." + key`, its bytes copied into a string made at its size (`String.append` and
  /// interpolation cost several hundred instructions a piece).
  static func joined(_ path: String, _ key: String) -> String {
    var path = path
    var key = key
    return path.withUTF8 { head in
      key.withUTF8 { tail in
        String(unsafeUninitializedCapacity: head.count + 1 + tail.count) { buffer in
          let base = buffer.baseAddress!
          if head.count > 0 { base.initialize(from: head.baseAddress!, count: head.count) }
          base[head.count] = UInt8(ascii: ".")
          if tail.count > 0 { (base + head.count + 1).initialize(from: tail.baseAddress!, count: tail.count) }
          return head.count + 1 + tail.count
        }
      }
    }
  }

  /// Whether an ASCII byte may stand in a plainly written member name: a letter, a digit, `_`, `$`, `-`.
  static func isPlain(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "-"):
      return true
    default:
      return false
    }
  }

  /// Whether `key` is written plainly, read from its UTF-8 bytes when they are all ASCII; `nil`
  /// for a name with other characters (or whose bytes are not contiguous), which the scalars decide.
  static func isPlainASCII(_ key: String) -> Bool? {
    let answer: Bool?? = key.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
      var plain = !bytes.isEmpty
      for byte in bytes {
        if byte >= 0x80 { return nil }
        if !isPlain(byte) { plain = false }
      }
      return plain
    }
    return answer ?? nil
  }

  /// The path of element `index` inside `path`.
  static func element(_ path: String, _ index: Int) -> String {
    path == root ? "$[\(index)]" : "\(path)[\(index)]"
  }
}
