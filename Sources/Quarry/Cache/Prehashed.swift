/// A value that keeps a hash consistent with its equality, computed once: the cache's tables
/// use it (``Prehashed``) instead of running a `Hasher` over the value.
package protocol StructurallyHashable: Hashable {
  /// The value's structural hash (``StructuralHasher``): equal values have equal hashes. Kept by
  /// the value (a stored property), so reading it costs a load.
  var structuralHash: Int { get }
}

extension QueryKey: StructurallyHashable {}
extension CodeUnitString: StructurallyHashable {}

/// A table key whose hash is its key's kept `structuralHash`, so a growing table never hashes its
/// keys again (hashing a query key or hash string costs far more than an `Int`), and unequal
/// keys mostly differ at the first comparison. Every `Prehashed` of one key type takes the same
/// hash, so equal keys always land in the same slot.
///
/// It holds the key alone: both key types keep their hash, so a second copy of it made the key
/// table's entries a third larger (a `Prehashed<QueryKey>` took 24 bytes, now 16), and every
/// entry moved as the table grows.
package struct Prehashed<Key: StructurallyHashable>: Hashable {
  /// The key.
  package let key: Key
  /// Its structural hash.
  @inline(__always) package var hash: Int { key.structuralHash }
  /// The key, as a table key.
  @inline(__always) package init(_ key: Key) { self.key = key }
  package static func == (a: Prehashed, b: Prehashed) -> Bool { a.hash == b.hash && a.key == b.key }
  package func hash(into hasher: inout Hasher) { hasher.combine(hash) }
  /// What a table asks for: the kept hash mixed with the table's seed, without running a
  /// `Hasher` over it again (SipHash of one `Int` costs about 300 instructions).
  package func _rawHashValue(seed: Int) -> Int { mixedHash(hash, seed: seed) }
}

/// A timer's creation number as a table key: numbers are mixed with the table's seed instead of
/// hashed with a `Hasher` (``TimerQueue``).
struct TimerNumber: Hashable {
  let value: UInt64
  init(_ value: UInt64) { self.value = value }
  func hash(into hasher: inout Hasher) { hasher.combine(value) }
  func _rawHashValue(seed: Int) -> Int { mixedHash(Int(truncatingIfNeeded: value), seed: seed) }
}

/// `value` mixed with a table's `seed` (MurmurHash3's 64-bit finalizer over their exclusive or:
/// a bijection whose every output bit depends on every input bit, so tables of different seeds
/// place the same keys differently, as Swift's own hashing does).
@inline(__always)
func mixedHash(_ value: Int, seed: Int) -> Int {
  var h = UInt64(bitPattern: Int64(value ^ seed))
  h ^= h >> 33
  h &*= 0xff51_afd7_ed55_8ccd
  h ^= h >> 33
  h &*= 0xc4ce_b9fe_1a85_ec53
  h ^= h >> 33
  return Int(Int64(bitPattern: h))
}
