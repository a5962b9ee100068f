import Quarry
/// A strict recursive-descent JSON parser (RFC 8259) producing `JSONValue`s.
///
/// Unlike `JSONSerialization` it keeps booleans and numbers apart, rejects duplicate object keys,
/// non-finite numbers, lone surrogates and trailing text, and reports errors by line and column.
///
/// ```swift
/// let value = try JSONParser.parse(#"{"a": [1, true]}"#)
/// ```
public struct JSONParser {
  /// The deepest nesting of arrays and objects accepted, so hostile input cannot exhaust the stack.
  /// Deep enough for fixtures that cross structural sharing's 500-level limit.
  public static let maximumDepth = 2_048

  private let bytes: [UInt8]
  private var index = 0
  private var depth = 0

  private init(bytes: [UInt8]) { self.bytes = bytes }

  /// Parses a whole JSON text.
  public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
    try parse(bytes: Array(text.utf8))
  }

  /// Parses a whole JSON text given as UTF-8 bytes (a leading byte-order mark is skipped).
  public static func parse(bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
    var parser = JSONParser(bytes: bytes)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
    parser.skipWhitespace()
    let value = try parser.parseValue()
    parser.skipWhitespace()
    if parser.index < bytes.count { throw parser.error("end of text after the JSON value") }
    return value
  }

  // MARK: Values

  private mutating func parseValue() throws(JSONParseError) -> JSONValue {
    guard index < bytes.count else { throw error("a JSON value, found the end of text") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
    case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
    case UInt8(ascii: "n"): try parseLiteral("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw error("a JSON value")
    }
  }

  private mutating func parseLiteral(_ word: String) throws(JSONParseError) {
    let start = index
    for byte in word.utf8 {
      guard index < bytes.count, bytes[index] == byte else {
        index = start
        throw error("a JSON value (\(word)?)")
      }
      index += 1
    }
  }

  private mutating func enter() throws(JSONParseError) {
    depth += 1
    if depth > JSONParser.maximumDepth { throw error("nesting no deeper than \(JSONParser.maximumDepth)") }
  }

  /// The member names and values of the objects being parsed, innermost last: an object's members are collected
  /// here and its dictionary is made once, at its size, when it closes (inserting into a growing
  /// dictionary reallocated and rehashed it as it grew, and a duplicate check hashed each name again).
  private var pendingNames: [String] = []
  private var pendingValues: [JSONValue] = []
  /// The items of the arrays being parsed, innermost last: each array is made once, at its size.
  private var pendingItems: [JSONValue] = []

  /// Objects with more members than this look their duplicates up in a set; smaller ones compare
  /// each name with the names before it.
  static let linearDuplicateLimit = 16

  // `parseObject` and `parseArray` recurse once per level (down to `maximumDepth`): what they do
  // besides recursing is in helpers, so that their own frames stay small in a debug build.
  private mutating func parseObject() throws(JSONParseError) -> JSONValue {
    try enter()
    index += 1
    skipWhitespace()
    if peek(UInt8(ascii: "}")) { index += 1; depth -= 1; return .object([:]) }
    let start = pendingNames.count
    // The names so far once there are more than `linearDuplicateLimit` of them.
    var names: Set<String>?
    while true {
      let name = try parseMemberName(start: start, names: &names)
      let value = try parseValue()
      // Both pushed once the value is read: the value's own members go on the stacks above.
      pendingNames.append(name)
      pendingValues.append(value)
      skipWhitespace()
      if peek(UInt8(ascii: ",")) { index += 1; continue }
      if peek(UInt8(ascii: "}")) { return closeObject(start: start) }
      throw error("',' or '}' in an object")
    }
  }

  /// Reads a member's name and the `:` after it, rejecting a duplicate of the names on
  /// `pendingNames` from `start` on: names equal by `String`'s equality, as the dictionary's own
  /// lookup found them.
  @inline(never)
  private mutating func parseMemberName(start: Int, names: inout Set<String>?) throws(JSONParseError) -> String {
    skipWhitespace()
    guard peek(UInt8(ascii: "\"")) else { throw error("a member name in double quotes") }
    let keyStart = index
    let key = try parseString()
    let isDuplicate: Bool
    if names != nil {
      isDuplicate = !names!.insert(key).inserted
    } else {
      isDuplicate = pendingNames[start...].contains(key)
      if !isDuplicate, pendingNames.count - start == JSONParser.linearDuplicateLimit {
        var set = Set<String>(minimumCapacity: 2 * JSONParser.linearDuplicateLimit)
        for name in pendingNames[start...] { set.insert(name) }
        set.insert(key)
        names = set
      }
    }
    if isDuplicate {
      index = keyStart
      throw error("no duplicate member \(JSONValue.string(key).canonicalJSON)")
    }
    skipWhitespace()
    guard peek(UInt8(ascii: ":")) else { throw error("':' after a member name") }
    index += 1
    skipWhitespace()
    return key
  }

  /// The object of the members from `start` on, which leave the stacks (at its closing `}`).
  @inline(never)
  private mutating func closeObject(start: Int) -> JSONValue {
    index += 1
    depth -= 1
    var members = [String: JSONValue](minimumCapacity: pendingNames.count - start)
    for i in start..<pendingNames.count { members[pendingNames[i]] = pendingValues[i] }
    pendingNames.removeSubrange(start...)
    pendingValues.removeSubrange(start...)
    return .object(members)
  }

  private mutating func parseArray() throws(JSONParseError) -> JSONValue {
    try enter()
    index += 1
    skipWhitespace()
    if peek(UInt8(ascii: "]")) { index += 1; depth -= 1; return .array([]) }
    let start = pendingItems.count
    while true {
      skipWhitespace()
      pendingItems.append(try parseValue())
      skipWhitespace()
      if peek(UInt8(ascii: ",")) { index += 1; continue }
      if peek(UInt8(ascii: "]")) { return closeArray(start: start) }
      throw error("',' or ']' in an array")
    }
  }

  /// The array of the items from `start` on, which leave the stack (at its closing `]`).
  @inline(never)
  private mutating func closeArray(start: Int) -> JSONValue {
    index += 1
    depth -= 1
    let items = Array(pendingItems[start...])
    pendingItems.removeSubrange(start...)
    return .array(items)
  }

  private mutating func parseNumber() throws(JSONParseError) -> Double {
    let start = index
    if peek(UInt8(ascii: "-")) { index += 1 }
    if peek(UInt8(ascii: "0")) {
      index += 1
      if index < bytes.count, isDigit(bytes[index]) { throw error("no leading zeros in a number") }
    } else {
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("a digit in a number") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if peek(UInt8(ascii: ".")) {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("a digit after '.'") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
      index += 1
      if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("a digit in the exponent") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if let whole = wholeNumber(start..<index) { return whole }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      index = start
      throw error("a number a double can hold")
    }
    return value
  }

  /// The value of `range` when it is an integer of at most 15 digits (with an optional `-`, not
  /// `-0`): a double holds it exactly, so it is the value `Double(text)` reads, without the text.
  private func wholeNumber(_ range: Range<Int>) -> Double? {
    var i = range.lowerBound
    let negative = bytes[i] == UInt8(ascii: "-")
    if negative { i += 1 }
    guard range.upperBound - i <= 15 else { return nil }
    var value: Int64 = 0
    while i < range.upperBound {
      let byte = bytes[i]
      guard isDigit(byte) else { return nil }
      value = value * 10 + Int64(byte - UInt8(ascii: "0"))
      i += 1
    }
    if negative {
      // "-0" is the double -0, which `Double(text)` keeps.
      guard value != 0 else { return nil }
      value = -value
    }
    return Double(value)
  }

  private mutating func parseString() throws(JSONParseError) -> String {
    index += 1
    // A string with escapes is put together as UTF-8 bytes (validated runs, escaped scalars
    // encoded), made a string once at the end.
    var utf8: [UInt8] = []
    var escaped = false
    var runStart = index
    var runIsASCII = true
    func flush(_ end: Int) throws(JSONParseError) {
      guard runStart < end else { return }
      if !runIsASCII { _ = try text(runStart..<end, isASCII: false) }
      utf8.append(contentsOf: bytes[runStart..<end])
    }
    while true {
      guard index < bytes.count else { throw error("'\"' to close the string") }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        if !escaped {
          // No escape before the closing quote: the run is the string.
          let run = try text(runStart..<index, isASCII: runIsASCII)
          index += 1
          return run
        }
        try flush(index)
        index += 1
        return String(decoding: utf8, as: UTF8.self)
      }
      if byte < 0x20 { throw error("no control characters in a string (escape them)") }
      if byte >= 0x80 { runIsASCII = false }
      if byte == UInt8(ascii: "\\") {
        try flush(index)
        index += 1
        let scalar = try parseEscape()
        escaped = true
        utf8.append(contentsOf: UTF8.encode(scalar)!)
        runStart = index
        runIsASCII = true
        continue
      }
      index += 1
    }
  }

  /// The text of `range`, an unescaped run of a string: ASCII bytes are valid UTF-8 as they are
  /// (`String(validating:)` looks up its generic metadata on every call: about 940
  /// instructions a string), anything else is validated.
  private func text(_ range: Range<Int>, isASCII: Bool) throws(JSONParseError) -> String {
    if isASCII {
      return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }
    guard let run = String(validating: bytes[range], as: UTF8.self) else { throw error("valid UTF-8 text") }
    return run
  }

  private mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
    guard index < bytes.count else { throw error("an escape sequence") }
    let byte = bytes[index]
    index += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let escapeStart = index - 2
      let high = try parseHex4()
      if (0xD800...0xDBFF).contains(high) {
        guard peek(UInt8(ascii: "\\")), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
          index = escapeStart
          throw error("a low surrogate \\uDC00-\\uDFFF after a high surrogate")
        }
        index += 2
        let low = try parseHex4()
        guard (0xDC00...0xDFFF).contains(low) else {
          index = escapeStart
          throw error("a low surrogate \\uDC00-\\uDFFF after a high surrogate")
        }
        let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        return Unicode.Scalar(value) ?? "\u{FFFD}"
      }
      guard let scalar = Unicode.Scalar(high) else {
        index = escapeStart
        throw error("no lone low surrogate")
      }
      return scalar
    default:
      index -= 1
      throw error("an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX")
    }
  }

  private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard index < bytes.count, let digit = hexValue(bytes[index]) else { throw error("four hex digits after \\u") }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  // MARK: Helpers

  private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

  private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  private func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
  }

  private mutating func skipWhitespace() {
    // Most calls find no white space or one byte of it: answered before the buffer's closure.
    guard index < bytes.count, isWhitespace(bytes[index]) else { return }
    index += 1
    guard index < bytes.count, isWhitespace(bytes[index]) else { return }
    var i = index
    bytes.withUnsafeBufferPointer { buffer in
      // Indentation eight spaces at a time (the deepest fixtures are mostly indentation).
      while i + 8 <= buffer.count, UnsafeRawPointer(buffer.baseAddress! + i).loadUnaligned(as: UInt64.self) == 0x2020_2020_2020_2020 {
        i += 8
      }
      while i < buffer.count, isWhitespace(buffer[i]) { i += 1 }
    }
    index = i
  }

  private func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
  }

  /// An error at the current position, "expected …".
  private func error(_ expected: String) -> JSONParseError {
    var line = 1
    var column = 1
    var position = 0
    let end = min(index, bytes.count)
    while position < end {
      let byte = bytes[position]
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
      position += 1
    }
    return JSONParseError(line: line, column: column, message: "expected \(expected)")
  }
}
