/// Releasing very deep values without recursion.
extension JSONValue {
  /// Releases `value` level by level, leaving `.null` in its place.
  ///
  /// Swift frees nested arrays and dictionaries recursively, one stack frame chain per level, so
  /// dropping the last reference to a value nested tens of thousands of levels deep overflows
  /// the stack. Quarry's own algorithms over keys and data never recurse (or stop at
  /// ``structuralSharingDepth``), but the last release is Swift's: hand such a value here instead.
  ///
  /// ```swift
  /// var deep: JSONValue = 1
  /// for _ in 0..<100_000 { deep = [deep] }
  /// JSONValue.dismantle(&deep)  // deep == .null, freed without recursion
  /// ```
  /// Parts that are still referenced elsewhere stay intact (only this reference is released).
  public static func dismantle(_ value: inout JSONValue) {
    var pending: [JSONValue] = []
    var root = JSONValue.null
    swap(&root, &value)
    pending.append(root)
    root = .null
    while var next = pending.popLast() {
      switch next {
      case .array(let items):
        next = .null
        pending.append(contentsOf: items)
      case .object(let members):
        next = .null
        pending.append(contentsOf: members.values)
      default:
        break
      }
    }
  }
}

extension QueryKey {
  /// Releases the key's parts level by level (see ``JSONValue/dismantle(_:)``), leaving `[]`.
  public static func dismantle(_ key: inout QueryKey) {
    var parts = JSONValue.array(key.parts)
    key.parts = []
    JSONValue.dismantle(&parts)
  }
}
