/// The structural hash of keys and JSON values: consistent with `==` (strings and member names by
/// exact code units, `-0` and `0` alike, object members in any order), bounded in depth, and far
/// cheaper than running a `Hasher` (SipHash) over every part.
///
/// It is a seeded multiply-mix (each word is folded into the state by a 64×64→128-bit multiply
/// whose halves are xored), as in foldhash: not a keyed pseudo-random function like SipHash, but
/// both its initial state and its multiplier are random per process, taken once from `Hasher`'s
/// own per-process seed, so which keys collide is not predictable from outside the process. The
/// tables that use it (`Prehashed`) mix the result with their own per-table seed as well.
struct StructuralHasher {
  /// The state after the words combined so far.
  private(set) var state: UInt64
  /// The initial state (the per-process seed), for the hashers of object members.
  private let seed: UInt64
  /// The per-process multiplier.
  private let multiplier: UInt64

  /// The per-process seeds: two values of `Hasher`, which is seeded at random per process (fixed
  /// only when `SWIFT_DETERMINISTIC_HASHING` is set, as for Swift's own hashing).
  private static let processSeeds: (seed: UInt64, multiplier: UInt64) = {
    var a = Hasher()
    a.combine(0x5175_6172_7279_0001 as UInt64)
    var b = Hasher()
    b.combine(0x5175_6172_7279_0002 as UInt64)
    return (UInt64(UInt(bitPattern: a.finalize())), UInt64(UInt(bitPattern: b.finalize())) | 1)
  }()

  /// A hasher with the process's seeds.
  @inline(__always)
  init() {
    let seeds = StructuralHasher.processSeeds
    self.init(seed: seeds.seed, multiplier: seeds.multiplier)
  }

  @inline(__always)
  private init(seed: UInt64, multiplier: UInt64) {
    state = seed
    self.seed = seed
    self.multiplier = multiplier
  }

  /// A fresh hasher with the same seeds (for one object member).
  @inline(__always)
  func fresh() -> StructuralHasher { StructuralHasher(seed: seed, multiplier: multiplier) }

  /// Folds one word into the state.
  @inline(__always)
  mutating func combine(_ word: UInt64) {
    let product = (state ^ word).multipliedFullWidth(by: multiplier)
    state = product.high ^ product.low
  }

  /// Folds a tag (top byte) and a count into the state as one word.
  @inline(__always)
  mutating func combine(tag: UInt8, count: Int) {
    combine(UInt64(tag) << 56 | UInt64(truncatingIfNeeded: count) & 0x00FF_FFFF_FFFF_FFFF)
  }

  /// Folds `bytes` into the state (their count is the caller's to combine). Equal bytes fold
  /// equally: up to 8 bytes are read as one word (two overlapping halves from 4 bytes on), more
  /// as words of 8 and a last, overlapping word.
  @inline(__always)
  mutating func combine(bytes: UnsafeRawBufferPointer) {
    let count = bytes.count
    if count <= 8 {
      if count >= 4 {
        let first = UInt64(bytes.loadUnaligned(as: UInt32.self))
        let last = UInt64(bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
        combine(first << 32 | last)
      } else if count > 0 {
        combine(UInt64(bytes[0]) << 16 | UInt64(bytes[count >> 1]) << 8 | UInt64(bytes[count - 1]))
      }
      return
    }
    var offset = 0
    while offset + 8 < count {
      combine(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      offset += 8
    }
    combine(bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
  }

  /// Folds a string's code units, and their count, into the state.
  @inline(__always)
  mutating func combine(codeUnitsOf string: String) {
    let utf8 = string.utf8
    combine(tag: 4, count: utf8.count)
    let done: Void? = utf8.withContiguousStorageIfAvailable { combine(bytes: UnsafeRawBufferPointer($0)) }
    if done == nil {
      var copy = string
      copy.withUTF8 { combine(bytes: UnsafeRawBufferPointer($0)) }
    }
  }

  /// The hash: the state as an `Int`.
  var value: Int { Int(Int64(bitPattern: state)) }
}

extension JSONValue {
  /// The value's structural hash (see ``StructuralHasher``): equal values hash equally.
  var structuralHash: Int {
    var hasher = StructuralHasher()
    var faithful = true
    combine(into: &hasher, depth: 0, faithful: &faithful)
    return hasher.value
  }

  /// The structural hash of a key's parts (the key's own array counts as no level, as
  /// `hasher.combine(parts)` hashed them before). Its lowest bit is
  /// ``unfaithfulHashBit``: set unless JSON text is known to write every part without loss
  /// (``QueryKey/isHashedFaithfully``), which the same walk finds out.
  static func structuralHash(of parts: [JSONValue]) -> Int {
    var hasher = StructuralHasher()
    var faithful = true
    hasher.combine(tag: 5, count: parts.count)
    for part in parts { part.combine(into: &hasher, depth: 0, faithful: &faithful) }
    return keyHash(hasher, faithful: faithful)
  }

  /// A key's structural hash once its walk is folded into `hasher`: the value with
  /// ``unfaithfulHashBit`` set when the walk cleared `faithful`.
  @inline(__always)
  fileprivate static func keyHash(_ hasher: StructuralHasher, faithful: Bool) -> Int {
    hasher.value & ~unfaithfulHashBit | (faithful ? 0 : unfaithfulHashBit)
  }

  /// The bit of a key's structural hash that says its `hashKey` may lose something of it. Equal
  /// keys agree on it (it depends on their parts alone), so equal keys still hash equally.
  static let unfaithfulHashBit = 1

  /// Folds the value into `hasher`, looking `hashedDepth` levels of arrays and objects deep;
  /// deeper ones are folded by their size only (equal values still hash equally, and equality
  /// decides).
  ///
  /// `faithful` is cleared on an `undefined` (JSON text writes it `null` or leaves it out), a
  /// number that is not finite (written `null`), or an array or object with members below the
  /// depth looked at (not known).
  ///
  /// Inlined where it is called, so that a scalar (most of a key's parts) is folded in place;
  /// arrays and objects go on in ``combineContainer(into:depth:faithful:)``.
  @inline(__always)
  fileprivate func combine(into hasher: inout StructuralHasher, depth: Int, faithful: inout Bool) {
    switch self {
    case .array, .object: combineContainer(into: &hasher, depth: depth, faithful: &faithful)
    case .null: hasher.combine(tag: 0, count: 0)
    case .undefined:
      hasher.combine(tag: 1, count: 0)
      faithful = false
    case .bool(let b): hasher.combine(tag: 2, count: b ? 1 : 0)
    case .number(let n):
      if !n.isFinite { faithful = false }
      hasher.combine(tag: 3, count: 0)
      // `-0 == 0`: both fold as `0`.
      hasher.combine(n == 0 ? 0 : n.bitPattern)
    case .string(let s):
      hasher.combine(codeUnitsOf: s)
    }
  }

  /// ``combine(into:depth:faithful:)`` of an array or object (of a scalar, nothing).
  @inline(never)
  private func combineContainer(into hasher: inout StructuralHasher, depth: Int, faithful: inout Bool) {
    switch self {
    case .null, .undefined, .bool, .number, .string: return
    case .array(let items):
      hasher.combine(tag: 5, count: items.count)
      guard depth < JSONValue.hashedDepth else {
        if !items.isEmpty { faithful = false }
        return
      }
      for item in items { item.combine(into: &hasher, depth: depth + 1, faithful: &faithful) }
    case .object(let members):
      hasher.combine(tag: 6, count: members.count)
      guard depth < JSONValue.hashedDepth else {
        if !members.isEmpty { faithful = false }
        return
      }
      // Member order must not matter: each member is hashed on its own and the hashes summed.
      var sum: UInt64 = 0
      for (name, value) in members {
        var member = hasher.fresh()
        member.combine(codeUnitsOf: name)
        value.combine(into: &member, depth: depth + 1, faithful: &faithful)
        sum &+= member.state
      }
      hasher.combine(sum)
    }
  }
}

// Keys whose last part is an object of known member names (QuarryApp's typed keys, typed13): a
// member's hash starts from a fresh hasher folding its name, which the caller can keep per name
// (`ObjectMemberHasher`) and fold only the member's value into; the key's hash is then the
// same walk as `structuralHash(of:)` with the object's member sum given.

/// The hasher of one object member after its name: what `combineContainer` folds a member with,
/// kept so that the name is not read again for every object of the same names.
package struct ObjectMemberHasher: Sendable {
  private let hasher: StructuralHasher

  /// The hasher after `name`.
  package init(name: String) {
    var hasher = StructuralHasher()
    hasher.combine(codeUnitsOf: name)
    self.hasher = hasher
  }

  /// The member's state with `value` folded in, as a key's top-level object folds it, or `nil`
  /// if `value` is an array or an object (left to the whole walk). Clears `faithful` as the walk
  /// does.
  @inline(__always)
  package func state(with value: JSONValue, faithful: inout Bool) -> UInt64? {
    switch value {
    case .array, .object: return nil
    default:
      var member = hasher
      value.combine(into: &member, depth: 1, faithful: &faithful)
      return member.state
    }
  }
}

extension QueryKey {
  /// A key of `parts`, whose last part is an object of scalar members (no arrays or objects),
  /// the sum of whose members' ``ObjectMemberHasher`` states is `memberSum` (`faithful`: none of
  /// them cleared it). The key is the same as `QueryKey(parts)`, hash and all, without
  /// walking the object again.
  package init(parts: [JSONValue], objectMemberSum memberSum: UInt64, faithful: Bool) {
    var hasher = StructuralHasher()
    var faithful = faithful
    var shallow = true
    hasher.combine(tag: 5, count: parts.count)
    for index in 0..<parts.count - 1 {
      let part = parts[index]
      if case .array = part { shallow = false } else if case .object = part { shallow = false }
      part.combine(into: &hasher, depth: 0, faithful: &faithful)
    }
    guard case .object(let members) = parts[parts.count - 1] else { preconditionFailure("the last part is an object") }
    // `combineContainer` of the object at depth 0 (below `hashedDepth`).
    hasher.combine(tag: 6, count: members.count)
    hasher.combine(memberSum)
    // Scalar members nest the object one level: deep only through an earlier part.
    self.init(
      storage: shallow ? .inline(parts) : Storage(parts),
      structuralHash: JSONValue.keyHash(hasher, faithful: faithful))
    assert(structuralHash == JSONValue.structuralHash(of: parts), "an object member sum apart from the walk's")
  }
}
