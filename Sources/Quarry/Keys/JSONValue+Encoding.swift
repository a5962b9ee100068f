import Foundation

/// Canonical JSON text: sorted object keys, no white space, JavaScript's number and string forms.
extension JSONValue {
  /// The canonical JSON text of the value, byte-identical to JavaScript's
  /// `JSON.stringify` with object keys sorted.
  ///
  /// ```swift
  /// let value: JSONValue = ["b": 1, "a": [true, nil]]
  /// print(value.canonicalJSON)  // {"a":[true,null],"b":1}
  /// ```
  public var canonicalJSON: String {
    var out = ""
    out.reserveCapacity(32)
    write(to: &out)
    return out
  }

  /// Appends the canonical JSON text of the value to `out`.
  public func write(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n): JSONValue.writeNumber(n, to: &out)
    case .string(let s): JSONValue.writeString(s, to: &out)
    case .array(let items):
      out += "["
      var first = true
      for item in items {
        if !first { out += "," }
        first = false
        item.write(to: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      var first = true
      for key in members.keys.sorted(by: JSONValue.jsKeyOrder) {
        if !first { out += "," }
        first = false
        JSONValue.writeString(key, to: &out)
        out += ":"
        members[key]!.write(to: &out)
      }
      out += "}"
    }
  }

  /// JavaScript's default `sort()` order for strings: by UTF-16 code units.
  @inlinable
  public static func jsKeyOrder(_ a: String, _ b: String) -> Bool {
    a.utf16.lexicographicallyPrecedes(b.utf16)
  }

  /// Writes a number as JavaScript's `JSON.stringify` does (`null` for non-finite values).
  public static func writeNumber(_ n: Double, to out: inout String) {
    guard n.isFinite else { out += "null"; return }
    if abs(n) < 9.007_199_254_740_992e15, let whole = Int64(exactly: n) {
      out += String(whole)
      return
    }
    out += String(format: n)
  }

  /// Writes a string literal with JavaScript's `JSON.stringify` escaping.
  public static func writeString(_ s: String, to out: inout String) {
    out += "\""
    for unit in s.unicodeScalars {
      switch unit {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      default:
        if unit.value < 0x20 {
          let hex = String(unit.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(unit)
        }
      }
    }
    out += "\""
  }
}

extension String {
  /// Formats a finite double like JavaScript's `Number.prototype.toString` for common magnitudes.
  fileprivate init(format n: Double) {
    var text = "\(n)"
    if text.hasSuffix(".0") { text.removeLast(2) }
    // Swift writes "1e-07"; JavaScript writes "1e-7" and "1e+21".
    if let e = text.firstIndex(of: "e") {
      var mantissa = String(text[..<e])
      if mantissa.hasSuffix(".0") { mantissa.removeLast(2) }
      var exponent = String(text[text.index(after: e)...])
      var sign = "+"
      if exponent.hasPrefix("-") { sign = "-"; exponent.removeFirst() } else if exponent.hasPrefix("+") { exponent.removeFirst() }
      while exponent.hasPrefix("0") && exponent.count > 1 { exponent.removeFirst() }
      text = mantissa + "e" + sign + exponent
    }
    self = text
  }
}

extension JSONValue: CustomStringConvertible {
  /// The canonical JSON text.
  public var description: String { canonicalJSON }
}
