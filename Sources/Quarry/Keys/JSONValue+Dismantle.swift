/// Releasing very deep values without recursion.
extension JSONValue {
  /// Releases `value` level by level, leaving `.null` in its place.
  ///
  /// Swift frees nested arrays and dictionaries recursively, one stack frame chain per level, so
  /// dropping the last reference to a value nested tens of thousands of levels deep overflows
  /// the stack. Quarry's own algorithms over keys and data never recurse (or stop at
  /// ``structuralSharingDepth``), and what Quarry holds it releases this way: every
  /// ``QueryKey`` and every ``DataBox`` holding a `JSONValue` or ``InfiniteData``. A deep
  /// value of your own is yours to release: hand it here instead of dropping it.
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

  /// Whether no path into the value crosses more than `levels` arrays or objects, so that
  /// Swift's own release of it recurses at most that far. Recurses at most `levels` deep itself
  /// and stops at the first path that goes further.
  func isNested(within levels: Int) -> Bool {
    switch self {
    case .array(let items):
      return levels > 0 && JSONValue.areNested(items, within: levels - 1)
    case .object(let members):
      guard levels > 0 else { return false }
      for item in members.values where item.isArrayOrObject && !item.isNested(within: levels - 1) { return false }
      return true
    default:
      return true
    }
  }

  /// Whether every element of `values` is nested at most `levels` deep (`isNested(within:)`);
  /// primitives cost a tag check.
  @inline(__always)
  static func areNested(_ values: [JSONValue], within levels: Int) -> Bool {
    values.withUnsafeBufferPointer { values in
      for index in values.indices where values[index].isArrayOrObject && !values[index].isNested(within: levels) {
        return false
      }
      return true
    }
  }

  /// Whether the value is an array or an object.
  @inline(__always)
  private var isArrayOrObject: Bool {
    switch self {
    case .array, .object: return true
    default: return false
    }
  }

  /// Releases this reference to `value` without deep recursion: by `dismantle(_:)` when it is
  /// nested deeper than `recursionLimit`, as Swift does otherwise. Leaves `.null`.
  static func release(_ value: inout JSONValue) {
    if value.isNested(within: recursionLimit) {
      value = .null
    } else {
      dismantle(&value)
    }
  }
}

extension QueryKey {
  /// Releases the key, leaving `[]`.
  ///
  /// Releasing any `QueryKey` is safe at any depth: a key nested deeper than 128 levels keeps its
  /// parts in a box that dismantles them when the last copy of the key goes, so `key = []` does
  /// the same. Parts you took out of a key (`key.parts`, `key.jsonValue`) are yours to release.
  public static func dismantle(_ key: inout QueryKey) {
    key = QueryKey([])
  }
}
