/// TanStack's `replaceEqualDeep` decision for JSON values.
extension JSONValue {
  /// How deep `replaceEqualDeep` compares: below this depth it takes the new value as is.
  public static let structuralSharingDepth = 500

  /// Whether TanStack's `replaceEqualDeep(previous, new)` returns `previous`, i.e. whether
  /// structural sharing keeps the previous data.
  ///
  /// Like `===` on primitives (strings by code units; an `undefined` element or member is not
  /// `null`, and a member set to `undefined` is not an absent one), and member by member on plain
  /// arrays and objects, down to ``structuralSharingDepth`` levels: an array or object nested
  /// deeper is new unless it is the same object. JSON values have no identity, so "the same
  /// object" is modelled for arrays only: two arrays sharing one storage buffer (a part that an
  /// updater carried over from the old data) are the same; objects nested deeper are always new.
  ///
  /// ```swift
  /// JSONValue.replaceEqualDeepKeepsPrevious([1, nil], [1, .undefined])  // false
  /// ```
  /// It recurses at most 128 levels and goes on with an explicit stack, so any depth is safe.
  public static func replaceEqualDeepKeepsPrevious(_ previous: JSONValue, _ new: JSONValue) -> Bool {
    if let same = primitivesIdentical(previous, new) { return same }
    return keepsPrevious(previous, new, depth: 0)
  }

  /// `a === b` when either is not a container; `nil` when both are containers.
  private static func primitivesIdentical(_ a: JSONValue, _ b: JSONValue) -> Bool? {
    switch (a, b) {
    case (.array, .array), (.array, .object), (.object, .array), (.object, .object): return nil
    case (.array, _), (.object, _), (_, .array), (_, .object): return false
    default: return a == b
    }
  }

  private static func keepsPrevious(_ a: JSONValue, _ b: JSONValue, depth: Int) -> Bool {
    // An array whose storage is shared (an updater that kept a part of the old data) is the same
    // JavaScript object: `a === b` holds at any depth.
    if case .array(let x) = a, case .array(let y) = b, x.hasSameStorage(as: y) { return true }
    if depth > structuralSharingDepth { return false }
    // 500 recursive levels take more than 512 KiB of stack in a debug build.
    if depth >= recursionLimit { return keepsPreviousIteratively(a, b, depth: depth) }
    switch (a, b) {
    case (.array(let x), .array(let y)):
      guard x.count == y.count else { return false }
      for i in x.indices {
        guard let same = primitivesIdentical(x[i], y[i]) else {
          if keepsPrevious(x[i], y[i], depth: depth + 1) { continue }
          return false
        }
        if !same { return false }
      }
      return true
    case (.object(let x), .object(let y)):
      guard x.count == y.count else { return false }
      for (name, value) in y {
        // A member of `b` absent from `a` never counts as equal, even when it holds undefined.
        guard let previous = x.exactMember(name) else { return false }
        guard let same = primitivesIdentical(previous, value) else {
          if keepsPrevious(previous, value, depth: depth + 1) { continue }
          return false
        }
        if !same { return false }
      }
      return true
    default:
      return false
    }
  }

  /// `keepsPrevious` with an explicit stack: the same conjunction over the same pairs.
  private static func keepsPreviousIteratively(_ a: JSONValue, _ b: JSONValue, depth: Int) -> Bool {
    var pending: [(JSONValue, JSONValue, Int)] = [(a, b, depth)]
    while let (a, b, depth) = pending.popLast() {
      if case .array(let x) = a, case .array(let y) = b, x.hasSameStorage(as: y) { continue }
      if depth > structuralSharingDepth { return false }
      switch (a, b) {
      case (.array(let x), .array(let y)):
        guard x.count == y.count else { return false }
        for i in x.indices {
          guard let same = primitivesIdentical(x[i], y[i]) else {
            pending.append((x[i], y[i], depth + 1))
            continue
          }
          if !same { return false }
        }
      case (.object(let x), .object(let y)):
        guard x.count == y.count else { return false }
        for (name, value) in y {
          guard let previous = x.exactMember(name) else { return false }
          guard let same = primitivesIdentical(previous, value) else {
            pending.append((previous, value, depth + 1))
            continue
          }
          if !same { return false }
        }
      default:
        return false
      }
    }
    return true
  }
}

/// Whether structural sharing keeps `previous` for `new`: TanStack's `replaceEqualDeep` decision
/// for JSON values, `Equatable` equality (or class identity) for other data.
func replaceEqualDeepKeepsPrevious(_ previous: any Sendable, _ new: any Sendable) -> Bool {
  if let a = asJSONValue(previous), let b = asJSONValue(new) {
    return JSONValue.replaceEqualDeepKeepsPrevious(a, b)
  }
  return valuesEqual(previous, new)
}

extension Array {
  /// Whether both arrays use one storage buffer (so they are one value, never copied apart).
  func hasSameStorage(as other: [Element]) -> Bool {
    count == other.count
      && withUnsafeBufferPointer { mine in other.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress } }
  }
}
