/// The JSON text writers of `JSONValue+Encoding.swift`, writing UTF-8 bytes into one buffer:
/// the same text byte for byte, several times faster than appending to a `String` piece by piece.
/// `QueryKey.queryHash` (TanStack's `hashKey`) and `canonicalJSON` use it.
extension JSONValue {
  /// The JSON text of the value with members in `order`: byte-identical to `write(to:order:)`.
  ///
  /// Its buffer loop is `writtenText`'s, written out: through that function's closure a key's
  /// hash took about 80 instructions more (callgrind, `--only hashKey`).
  func jsonText(order: MemberOrder) -> String {
    var capacity = 1024
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

  /// The canonical JSON text of an object of `members`, as `JSONValue.object` of them would write
  /// it, without making that dictionary: the names (no two equal) are put in order by sorting
  /// their indices, so none is hashed (the scenario runner writes its trace events this way).
  ///
  /// A member may come with `order`: the positions of its value's members (the value must be an
  /// object) in sorted order, which the caller knows for an object copied from a template of the
  /// same names (a copy keeps the template's layout); its members are written at those positions
  /// without sorting them. An `order` that does not fit the value's member count is ignored.
  package static func canonicalJSON(
    ofMembers members: [(name: String, value: JSONValue, order: [Dictionary<String, JSONValue>.Index]?)]
  ) -> String {
    let text: String? = members.withUnsafeBufferPointer { members in
      withUnsafeTemporaryAllocation(of: (prefix: UInt64, index: Int).self, capacity: members.count) { order -> String? in
        // Insertion sort (an event has a handful of members) of the names' prefixes.
        for i in 0..<members.count {
          let prefix = jsKeyPrefix(members[i].name)
          var j = i
          while j > 0 {
            let other = order[j - 1]
            guard jsKeyPrefixOrder(prefix, other.prefix) ?? jsKeyOrder(members[i].name, members[other.index].name) else { break }
            order[j] = other
            j -= 1
          }
          order[j] = (prefix, i)
        }
        return writtenText { sink in
          sink.append(UInt8(ascii: "{"))
          var first = true
          for k in 0..<members.count {
            let member = members.baseAddress! + order[k].index
            if let positions = member.pointee.order, case .object(let object) = member.pointee.value, positions.count == object.count {
              // An object is never undefined: the member is written.
              writeMemberNameBytes(member.pointee.name, first: &first, to: &sink)
              guard writeObjectBytes(object, at: positions, to: &sink) else { return false }
              continue
            }
            guard writeMemberBytes(member.pointee.name, member.pointee.value, first: &first, order: .sorted, depth: 1, to: &sink) else { return false }
          }
          sink.append(UInt8(ascii: "}"))
          return true
        }
      }
    }
    if let text { return text }
    // Deeper than the recursion limit: the dictionary's writer.
    return JSONValue.object(Dictionary(members.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })).canonicalJSON
  }

  /// Writes an object (at depth 1) with its members at `positions`, in that order.
  private static func writeObjectBytes(_ members: [String: JSONValue], at positions: [Dictionary<String, JSONValue>.Index], to sink: inout ByteSink) -> Bool {
    sink.append(UInt8(ascii: "{"))
    var first = true
    for position in positions {
      let (name, value) = members[position]
      guard writeMemberBytes(name, value, first: &first, order: .sorted, depth: 2, to: &sink) else { return false }
    }
    sink.append(UInt8(ascii: "}"))
    return true
  }

  /// Writes one object member, `name:value` (after a comma unless it is the `first`), at
  /// `depth`; an undefined value writes nothing, as JSON.stringify leaves the member out.
  /// `false` when the value is nested deeper than `recursionLimit`.
  @inline(__always)
  private static func writeMemberBytes(
    _ name: String, _ value: JSONValue, first: inout Bool, order: MemberOrder, depth: Int, to sink: inout ByteSink
  ) -> Bool {
    if value.isUndefined { return true }
    writeMemberNameBytes(name, first: &first, to: &sink)
    return withUnsafePointer(to: value) { writeBytes($0, to: &sink, order: order, depth: depth) }
  }

  /// Writes a member's `name:` (after a comma unless it is the `first`).
  @inline(__always)
  private static func writeMemberNameBytes(_ name: String, first: inout Bool, to sink: inout ByteSink) {
    if !first { sink.append(UInt8(ascii: ",")) }
    first = false
    writeStringBytes(name, to: &sink)
    sink.append(UInt8(ascii: ":"))
  }

  /// What `write` writes into a stack buffer (a larger one while the text does not fit), or
  /// `nil` when `write` answers `false` (deeper than the recursion limit).
  private static func writtenText(_ write: (inout ByteSink) -> Bool) -> String? {
    var capacity = 1024
    while true {
      let text: String?? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
        var sink = ByteSink(buffer: buffer)
        guard write(&sink) else { return .some(nil) }
        guard !sink.overflowed else { return nil }
        return .some(String(decoding: UnsafeBufferPointer(rebasing: buffer[..<sink.count]), as: UTF8.self))
      }
      if let text { return text }
      capacity *= 8
    }
  }

  /// Writes the value; `false` when it is nested deeper than `recursionLimit`.
  private func writeBytes(to sink: inout ByteSink, order: MemberOrder, depth: Int) -> Bool {
    withUnsafePointer(to: self) { JSONValue.writeBytes($0, to: &sink, order: order, depth: depth) }
  }

  /// Writes the value at `value`, read in place: a value copied out of an array or dictionary
  /// (a `for in`, or a method called on an element) costs an outlined copy and destroy of the
  /// enum, retaining and releasing its payload.
  private static func writeBytes(_ value: UnsafePointer<JSONValue>, to sink: inout ByteSink, order: MemberOrder, depth: Int) -> Bool {
    guard depth < JSONValue.recursionLimit else { return false }
    switch value.pointee {
    case .null, .undefined: sink.append("null")
    case .bool(let b): sink.append(b ? "true" : "false")
    case .number(let n): writeNumberBytes(n, to: &sink)
    case .string(let s): writeStringBytes(s, to: &sink)
    case .array(let items):
      sink.append(UInt8(ascii: "["))
      let written = items.withUnsafeBufferPointer { items in
        for i in items.indices {
          if i > 0 { sink.append(UInt8(ascii: ",")) }
          guard writeBytes(items.baseAddress! + i, to: &sink, order: order, depth: depth + 1) else { return false }
        }
        return true
      }
      guard written else { return false }
      sink.append(UInt8(ascii: "]"))
    case .object(let members):
      sink.append(UInt8(ascii: "{"))
      var first = true
      func member(_ name: String, _ value: JSONValue) -> Bool {
        writeMemberBytes(name, value, first: &first, order: order, depth: depth + 1, to: &sink)
      }
      if members.count == 1 {
        // The one member at the first index (`first` went through the generic
        // `Collection.first`, iteration through an iterator's second `next()`).
        let (name, value) = members[members.startIndex]
        guard member(name, value) else { return false }
      } else {
        for position in JSONValue.orderedPositions(members, order) {
          let (name, value) = members[position]
          guard member(name, value) else { return false }
        }
      }
      sink.append(UInt8(ascii: "}"))
    }
    return true
  }

  /// `writeNumber`'s text. Whole numbers below 2^53 in magnitude (`-0` among them, written `0`)
  /// are written digit by digit, as `ecmaScriptString` writes them (`String(Int64)`); the rest
  /// through `ecmaScriptString`, and NaN and the infinities as `null`.
  private static func writeNumberBytes(_ n: Double, to sink: inout ByteSink) {
    // False for NaN and the infinities; in range, the conversion cannot trap.
    if abs(n) < 9_007_199_254_740_992 {
      let whole = Int64(n)
      if Double(whole) == n { return writeWholeBytes(whole, to: &sink) }
      for byte in ecmaScriptString(n).utf8 { sink.append(byte) }
      return
    }
    guard n.isFinite else { return sink.append("null") }
    for byte in ecmaScriptString(n).utf8 { sink.append(byte) }
  }

  /// The decimal digits of `whole` (below 2^53 in magnitude), with `-` when negative.
  @inline(__always)
  private static func writeWholeBytes(_ whole: Int64, to sink: inout ByteSink) {
    var magnitude = whole.magnitude
    if whole < 0 { sink.append(UInt8(ascii: "-")) }
    if magnitude < 10 { return sink.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)) }
    var count = 2
    var bound: UInt64 = 100
    while magnitude >= bound && count < 16 {
      bound &*= 10
      count += 1
    }
    sink.reserve(count) { digits in
      // Two digits a division, from the right (`digitPairs` holds "00" to "99").
      var i = count
      let pairs = digitPairs.utf8Start
      while i >= 2 {
        let pair = Int(truncatingIfNeeded: magnitude % 100) &* 2
        magnitude /= 100
        i -= 2
        digits[i] = pairs[pair]
        digits[i + 1] = pairs[pair + 1]
      }
      if i == 1 { digits[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude) }
    }
  }

  /// "00" to "99", for ``writeWholeBytes(_:to:)``.
  private static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

  /// `writeString`'s text: a string literal with `JSON.stringify`'s escapes. Runs of bytes that
  /// need no escape are copied whole.
  private static func writeStringBytes(_ s: String, to sink: inout ByteSink) {
    sink.append(UInt8(ascii: "\""))
    // Native and small strings lend their UTF-8 in place; a bridged one is made contiguous first.
    if s.utf8.withContiguousStorageIfAvailable({ writeEscapedBytes($0, to: &sink) }) == nil {
      var s = s
      s.withUTF8 { writeEscapedBytes($0, to: &sink) }
    }
    sink.append(UInt8(ascii: "\""))
  }

  @inline(__always)
  private static func writeEscapedBytes(_ bytes: UnsafeBufferPointer<UInt8>, to sink: inout ByteSink) {
    var runStart = 0
    for i in 0..<bytes.count {
      let byte = bytes[i]
      // Everything from 0x20 up but `"` and `\` is written as it is (multi-byte sequences too).
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
      sink.append(UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
      runStart = i + 1
      switch byte {
      case UInt8(ascii: "\""): sink.append("\\\"")
      case UInt8(ascii: "\\"): sink.append("\\\\")
      case 0x0A: sink.append("\\n")
      case 0x0D: sink.append("\\r")
      case 0x09: sink.append("\\t")
      case 0x08: sink.append("\\b")
      case 0x0C: sink.append("\\f")
      default:
        sink.append("\\u00")
        let hex: StaticString = "0123456789abcdef"
        sink.append(hex.utf8Start[Int(byte >> 4)])
        sink.append(hex.utf8Start[Int(byte & 0xF)])
      }
    }
    sink.append(UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
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

  /// Appends `bytes` with one copy.
  @inline(__always)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    let n = bytes.count
    if n <= buffer.count - count, n > 0 {
      UnsafeMutableRawPointer(buffer.baseAddress! + count).copyMemory(from: bytes.baseAddress!, byteCount: n)
    }
    count += n
  }

  /// Appends `n` bytes that `fill` writes, when they fit (only counted otherwise).
  @inline(__always)
  mutating func reserve(_ n: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Void) {
    if n <= buffer.count - count { fill(buffer.baseAddress! + count) }
    count += n
  }
}
