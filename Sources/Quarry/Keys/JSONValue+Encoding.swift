/// JSON text: sorted object keys, no white space, JavaScript's number and string forms.
extension JSONValue {
  /// How a writer orders an object's members.
  enum MemberOrder {
    /// By UTF-16 code units (JavaScript's default `sort()`): the trace's canonical form.
    case sorted
    /// As a JavaScript object built from sorted keys enumerates them: array-index names
    /// (`"0"`…`"4294967294"`, no leading zeros) first in numeric order, then the rest sorted.
    /// This is what `JSON.stringify` writes for TanStack's `hashKey`.
    case javaScriptProperty
  }

  /// The canonical JSON text of the value, byte-identical to JavaScript's `JSON.stringify` with
  /// every object's member names sorted (by UTF-16 code units).
  ///
  /// ```swift
  /// let value: JSONValue = ["b": 1, "a": [true, nil]]
  /// print(value.canonicalJSON)  // {"a":[true,null],"b":1}
  /// ```
  /// `undefined` is written `null` in an array (or alone) and an object member holding it is left
  /// out. Numbers are written as ECMAScript's `Number::toString` writes them (`1e-7`, `1e+21`).
  public var canonicalJSON: String { jsonText(order: .sorted) }

  /// Appends the canonical JSON text of the value to `out`.
  public func write(to out: inout String) { write(to: &out, order: .sorted) }

  private enum Piece {
    case value(JSONValue)
    case text(String)
  }

  /// How deep the writers recurse before going on without recursion (fast for every real key,
  /// safe for any depth).
  static let recursionLimit = 128

  /// Appends the JSON text of the value with members in `order`; any depth is safe.
  func write(to out: inout String, order: MemberOrder) { writeRecursively(to: &out, order: order, depth: 0) }

  private func writeRecursively(to out: inout String, order: MemberOrder, depth: Int) {
    guard depth < JSONValue.recursionLimit else { return writeIteratively(to: &out, order: order) }
    switch self {
    case .null, .undefined: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n): JSONValue.writeNumber(n, to: &out)
    case .string(let s): JSONValue.writeString(s, to: &out)
    case .array(let items):
      out += "["
      var first = true
      for item in items {
        if !first { out += "," }
        first = false
        item.writeRecursively(to: &out, order: order, depth: depth + 1)
      }
      out += "]"
    case .object(let members):
      out += "{"
      var first = true
      for position in JSONValue.orderedPositions(members, order) {
        let (name, value) = members[position]
        if value.isUndefined { continue }
        if !first { out += "," }
        first = false
        JSONValue.writeString(name, to: &out)
        out += ":"
        value.writeRecursively(to: &out, order: order, depth: depth + 1)
      }
      out += "}"
    }
  }

  /// The same text with an explicit stack instead of recursion.
  private func writeIteratively(to out: inout String, order: MemberOrder) {
    var pending: [Piece] = [.value(self)]
    while let piece = pending.popLast() {
      switch piece {
      case .text(let text): out += text
      case .value(let value):
        switch value {
        case .null, .undefined: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): JSONValue.writeNumber(n, to: &out)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
          out += "["
          pending.append(.text("]"))
          for i in items.indices.reversed() {
            pending.append(.value(items[i]))
            if i > 0 { pending.append(.text(",")) }
          }
        case .object(let members):
          out += "{"
          pending.append(.text("}"))
          let written = JSONValue.orderedPositions(members, order).map { members[$0] }.filter { !$0.value.isUndefined }
          for (i, (name, value)) in written.enumerated().reversed() {
            pending.append(.value(value))
            var label = i > 0 ? "," : ""
            JSONValue.writeString(name, to: &label)
            label += ":"
            pending.append(.text(label))
          }
        }
      }
    }
  }

  /// The positions of an object's members in `order`: a writer reads each member at its
  /// position, without hashing its name again.
  static func orderedPositions(_ members: [String: JSONValue], _ order: MemberOrder) -> [Dictionary<String, JSONValue>.Index] {
    if members.count == 1 { return [members.startIndex] }
    let sorted = sortedByJSKeyOrder(members)
    guard order == .javaScriptProperty, sorted.contains(where: { arrayIndex(members[$0].key) != nil }) else { return sorted }
    let indices = sorted.compactMap { position in arrayIndex(members[position].key).map { (index: $0, position: position) } }
    return indices.sorted { $0.index < $1.index }.map(\.position) + sorted.filter { arrayIndex(members[$0].key) == nil }
  }

  /// The positions of `members` sorted by their names' `jsKeyOrder`, each name's first eight
  /// UTF-8 bytes read once into an integer (big-endian, zero-padded, so a shorter name's end
  /// reads as ASCII). Two integers decide where they first differ at a byte one of them has as
  /// ASCII, as `jsKeyOrder` decides; anything else (equal integers, two non-ASCII bytes) goes to
  /// `jsKeyOrder`. The sort moves integers and indices, not strings.
  static func sortedByJSKeyOrder(_ members: [String: JSONValue]) -> [Dictionary<String, JSONValue>.Index] {
    // One walk over the positions (no arrays of the names and of the positions made first).
    var entries: [(prefix: UInt64, position: Dictionary<String, JSONValue>.Index)] = []
    entries.reserveCapacity(members.count)
    let keys = members.keys
    var position = keys.startIndex
    while position != keys.endIndex {
      entries.append((jsKeyPrefix(keys[position]), position))
      keys.formIndex(after: &position)
    }
    entries.sort { a, b in
      jsKeyPrefixOrder(a.prefix, b.prefix) ?? jsKeyOrder(keys[a.position], keys[b.position])
    }
    return entries.map(\.position)
  }

  /// A name's first eight UTF-8 bytes as an integer (big-endian, zero-padded, so a shorter
  /// name's end reads as ASCII), for `jsKeyPrefixOrder`.
  @inline(__always)
  package static func jsKeyPrefix(_ name: String) -> UInt64 {
    var name = name
    return name.withUTF8 { bytes -> UInt64 in
      var prefix: UInt64 = 0
      var shift: UInt64 = 56
      for byte in bytes.prefix(8) {
        prefix |= UInt64(byte) << shift
        shift &-= 8
      }
      return prefix
    }
  }

  /// `jsKeyOrder` of two names from their `jsKeyPrefix`es where those decide it: where they first
  /// differ at a byte one of them has as ASCII. `nil` otherwise (equal prefixes, two non-ASCII
  /// bytes): `jsKeyOrder` of the names decides.
  @inline(__always)
  static func jsKeyPrefixOrder(_ a: UInt64, _ b: UInt64) -> Bool? {
    let difference = a ^ b
    if difference == 0 { return nil }
    let shift = UInt64(56 - (difference.leadingZeroBitCount & ~7))
    let x = (a >> shift) & 0xFF, y = (b >> shift) & 0xFF
    return x < 0x80 || y < 0x80 ? x < y : nil
  }

  /// The array index a member name stands for in JavaScript (a canonical numeric string below
  /// 2^32 - 1), or `nil`.
  static func arrayIndex(_ name: String) -> UInt32? {
    let units = name.utf8
    guard let first = units.first, units.count <= 10, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
    if first == UInt8(ascii: "0") { return units.count == 1 ? 0 : nil }
    var value: UInt64 = 0
    for unit in units {
      guard unit >= UInt8(ascii: "0"), unit <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + UInt64(unit - UInt8(ascii: "0"))
    }
    return value < 4_294_967_295 ? UInt32(value) : nil
  }

  /// JavaScript's default `sort()` order for strings: by UTF-16 code units.
  ///
  /// Compared through the strings' UTF-8 bytes while they agree. Where they first differ and one
  /// byte is ASCII, the equal bytes before it end at a character boundary in both strings, so
  /// that byte's order is the UTF-16 code units' order. Two differing non-ASCII bytes are
  /// compared through UTF-16 (UTF-8's order is the code points', which puts U+E000-U+FFFF
  /// before the surrogate pairs that UTF-16 puts first).
  @inlinable
  public static func jsKeyOrder(_ a: String, _ b: String) -> Bool {
    var left = a
    var right = b
    let byBytes: Bool? = left.withUTF8 { x in
      right.withUTF8 { y in
        let count = Swift.min(x.count, y.count)
        var i = 0
        while i < count {
          let p = x[i], q = y[i]
          if p != q { return p < 0x80 || q < 0x80 ? p < q : nil }
          i += 1
        }
        return x.count < y.count
      }
    }
    return byBytes ?? a.utf16.lexicographicallyPrecedes(b.utf16)
  }

  /// Writes a number as JavaScript's `JSON.stringify` does: ECMAScript's `Number::toString`
  /// for finite values (`-0` as `0`), `null` otherwise.
  public static func writeNumber(_ n: Double, to out: inout String) {
    guard n.isFinite else { out += "null"; return }
    out += ecmaScriptString(n)
  }

  /// ECMAScript's `Number::toString(x)` for a finite `x`: the shortest digits that round-trip,
  /// written plainly when the decimal exponent is in -6 ..< 21 and in exponent form otherwise.
  ///
  /// ```swift
  /// JSONValue.ecmaScriptString(0.000001)  // 0.000001
  /// JSONValue.ecmaScriptString(1e-7)      // 1e-7
  /// JSONValue.ecmaScriptString(1e21)      // 1e+21
  /// ```
  public static func ecmaScriptString(_ x: Double) -> String {
    if x == 0 { return "0" }
    // Whole numbers a 64-bit integer holds exactly (below 2^53) print their digits.
    if abs(x) < 9_007_199_254_740_992, let whole = Int64(exactly: x) { return String(whole) }
    if x < 0 { return "-" + ecmaScriptString(-x) }
    // Swift's description holds the shortest round-trip digits; take them apart.
    let text = x.description
    var mantissa = Substring(text)
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      mantissa = text[..<e]
      exponent = Int(text[text.index(after: e)...].drop(while: { $0 == "+" })) ?? 0
    }
    var digits = ""
    var pointAt = 0  // digits before the decimal point in the mantissa
    var seenPoint = false
    for c in mantissa {
      if c == "." { seenPoint = true; continue }
      digits.append(c)
      if !seenPoint { pointAt += 1 }
    }
    // n: the position of the decimal point relative to the digits (value = 0.d1d2… × 10^n).
    var n = pointAt + exponent
    while digits.count > 1, digits.first == "0" { digits.removeFirst(); n -= 1 }
    while digits.count > 1, digits.last == "0" { digits.removeLast() }
    let k = digits.count
    if k <= n && n <= 21 { return digits + String(repeating: "0", count: n - k) }
    if 0 < n && n <= 21 {
      let split = digits.index(digits.startIndex, offsetBy: n)
      return String(digits[..<split]) + "." + String(digits[split...])
    }
    if -6 < n && n <= 0 { return "0." + String(repeating: "0", count: -n) + digits }
    let e = n - 1
    let sign = e < 0 ? "-" : "+"
    let head = k == 1 ? digits : String(digits.prefix(1)) + "." + String(digits.dropFirst())
    return head + "e" + sign + String(abs(e))
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

extension JSONValue: CustomStringConvertible {
  /// The canonical JSON text.
  public var description: String { canonicalJSON }
}
