/// The JSON text writers of `JSONValue+Encoding.swift`, writing UTF-8 bytes into one buffer:
/// the same text byte for byte, several times faster than appending to a `String` piece by piece.
/// `QueryKey.queryHash` (TanStack's `hashKey`) and `canonicalJSON` use it.
extension JSONValue {
  /// The JSON text of the value with members in `order`: byte-identical to `write(to:order:)`.
  func jsonText(order: MemberOrder) -> String {
    var capacity = 256
    while true {
      let text: String?? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
        var sink = ByteSink(buffer: buffer)
        guard writeBytes(to: &sink, order: order, depth: 0) else { return .some(nil) }
        guard !sink.overflowed else { return nil }
        return .some(String(decoding: UnsafeBufferPointer(rebasing: buffer[..<sink.count]), as: UTF8.self))
      }
      switch text {
      case .some(.some(let text)): return text
      case .some(.none):
        // Deeper than the recursion limit: the iterative writer.
        var out = ""
        write(to: &out, order: order)
        return out
      case .none: capacity *= 8
      }
    }
  }

  /// Writes the value; `false` when it is nested deeper than `recursionLimit`.
  private func writeBytes(to sink: inout ByteSink, order: MemberOrder, depth: Int) -> Bool {
    guard depth < JSONValue.recursionLimit else { return false }
    switch self {
    case .null, .undefined: sink.append("null")
    case .bool(let b): sink.append(b ? "true" : "false")
    case .number(let n): JSONValue.writeNumberBytes(n, to: &sink)
    case .string(let s): JSONValue.writeStringBytes(s, to: &sink)
    case .array(let items):
      sink.append(UInt8(ascii: "["))
      var first = true
      for item in items {
        if !first { sink.append(UInt8(ascii: ",")) }
        first = false
        guard item.writeBytes(to: &sink, order: order, depth: depth + 1) else { return false }
      }
      sink.append(UInt8(ascii: "]"))
    case .object(let members):
      sink.append(UInt8(ascii: "{"))
      var first = true
      func member(_ name: String, _ value: JSONValue) -> Bool {
        if value.isUndefined { return true }
        if !first { sink.append(UInt8(ascii: ",")) }
        first = false
        JSONValue.writeStringBytes(name, to: &sink)
        sink.append(UInt8(ascii: ":"))
        return value.writeBytes(to: &sink, order: order, depth: depth + 1)
      }
      if members.count == 1, let (name, value) = members.first {
        guard member(name, value) else { return false }
      } else {
        for name in JSONValue.orderedNames(members.keys, order) {
          guard member(name, members[name]!) else { return false }
        }
      }
      sink.append(UInt8(ascii: "}"))
    }
    return true
  }

  /// `writeNumber`'s text: whole numbers below 2^53 digit by digit, the rest through
  /// `ecmaScriptString`.
  private static func writeNumberBytes(_ n: Double, to sink: inout ByteSink) {
    guard n.isFinite else { return sink.append("null") }
    guard abs(n) < 9_007_199_254_740_992, let whole = Int64(exactly: n) else {
      for byte in ecmaScriptString(n).utf8 { sink.append(byte) }
      return
    }
    var magnitude = whole.magnitude
    if whole < 0 { sink.append(UInt8(ascii: "-")) }
    var digits: (UInt64, UInt64) = (0, 0)  // room for 16 digits, written backwards
    var count = 0
    withUnsafeMutableBytes(of: &digits) { raw in
      repeat {
        raw[15 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      } while magnitude > 0
      for i in (16 - count)..<16 { sink.append(raw[i]) }
    }
  }

  /// `writeString`'s text: a string literal with `JSON.stringify`'s escapes, byte by byte.
  private static func writeStringBytes(_ s: String, to sink: inout ByteSink) {
    sink.append(UInt8(ascii: "\""))
    var s = s
    s.withUTF8 { bytes in
      for byte in bytes {
        switch byte {
        case UInt8(ascii: "\""): sink.append("\\\"")
        case UInt8(ascii: "\\"): sink.append("\\\\")
        case 0x0A: sink.append("\\n")
        case 0x0D: sink.append("\\r")
        case 0x09: sink.append("\\t")
        case 0x08: sink.append("\\b")
        case 0x0C: sink.append("\\f")
        case 0..<0x20:
          sink.append("\\u00")
          let hex: StaticString = "0123456789abcdef"
          sink.append(hex.utf8Start[Int(byte >> 4)])
          sink.append(hex.utf8Start[Int(byte & 0xF)])
        default: sink.append(byte)
        }
      }
    }
    sink.append(UInt8(ascii: "\""))
  }
}

/// A fixed buffer of bytes that notes when more was written than fits.
struct ByteSink {
  let buffer: UnsafeMutableBufferPointer<UInt8>
  var count = 0
  var overflowed: Bool { count > buffer.count }

  init(buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    if count < buffer.count { buffer[count] = byte }
    count += 1
  }

  @inline(__always)
  mutating func append(_ text: StaticString) {
    let start = text.utf8Start
    for i in 0..<text.utf8CodeUnitCount { append(start[i]) }
  }
}
