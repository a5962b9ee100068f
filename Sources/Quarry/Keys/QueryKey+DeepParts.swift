/// How a ``QueryKey`` holds its parts so that releasing it never recurses deeply.
///
/// Swift releases nested arrays and dictionaries recursively, so the last copy of a key nested
/// 100,000 levels deep would overflow the stack wherever it goes: a collected or cleared query,
/// replaced observer options, a thread with a 512 KiB stack. A key nested at most
/// `JSONValue.recursionLimit` levels (every real key) keeps its parts inline; a deeper one keeps
/// them in a `DeepParts` box, shared by all copies of the key, whose `deinit` dismantles them
/// level by level.
extension QueryKey {
  enum Storage: Sendable {
    /// Parts nested at most `JSONValue.recursionLimit` levels: Swift's release is shallow.
    case inline([JSONValue])
    /// Deeper parts, released by their box.
    case deep(DeepParts)

    @inline(__always)
    init(_ parts: [JSONValue]) {
      // The key's own array is one level.
      self = JSONValue.areNested(parts, within: JSONValue.recursionLimit - 1) ? .inline(parts) : .deep(DeepParts(parts))
    }

    var parts: [JSONValue] {
      switch self {
      case .inline(let parts): return parts
      case .deep(let box): return box.parts
      }
    }

    /// `body` of the parts where they lie: ``parts`` returned a copy of the array (a retain
    /// and a release around each reader).
    @inline(__always)
    func withParts<R>(_ body: (UnsafeBufferPointer<JSONValue>) -> R) -> R {
      switch self {
      case .inline(let parts): return parts.withUnsafeBufferPointer(body)
      case .deep(let box): return withExtendedLifetime(box) { box.parts.withUnsafeBufferPointer(body) }
      }
    }
  }

  /// Two keys are equal when their parts are (the same box is equal at once). Equal parts are
  /// equally deep, so a key held inline never equals one held in a box, and hash equally, so
  /// keys of different hashes differ at once.
  @inline(__always)
  public static func == (lhs: QueryKey, rhs: QueryKey) -> Bool {
    guard lhs.structuralHash == rhs.structuralHash else { return false }
    switch lhs.storage {
    case .inline(let a):
      guard case .inline(let b) = rhs.storage else { return false }
      return a == b
    case .deep(let a):
      guard case .deep(let b) = rhs.storage else { return false }
      return a === b || a.parts == b.parts
    }
  }

  /// Hashes the parts: their structural hash, kept in the key.
  @inline(__always)
  public func hash(into hasher: inout Hasher) {
    hasher.combine(structuralHash)
  }
}

/// The parts of a deep ``QueryKey``; its last release dismantles them without recursion.
final class DeepParts: @unchecked Sendable {
  // Safe: `parts` is written only by `init` and `deinit`, when no other reference to the box
  // exists; everything else reads it (so no access can overlap a write, and the dynamic
  // exclusivity check is left out).
  @exclusivity(unchecked) private(set) var parts: [JSONValue]

  init(_ parts: [JSONValue]) { self.parts = parts }

  deinit {
    var value = JSONValue.array(parts)
    parts = []
    JSONValue.dismantle(&value)
  }
}
