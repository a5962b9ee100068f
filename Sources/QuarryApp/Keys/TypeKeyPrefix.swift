import Quarry
import Synchronization

/// `[.string(String(reflecting: type))]`, the key prefix of a function type, written once per
/// type: every typed key is built on every call (`QueryCacheKey.queryKey`), and
/// `String(reflecting:)` demangles the type's name each time (about 6,500 instructions, a third
/// of a typed read, before typed12). Types are never unloaded, so the table only grows, by one
/// entry per function type used.
func typeKeyPrefix(_ type: Any.Type) -> [JSONValue] {
  let id = TypeID(type)
  if let prefix = typeKeyPrefixes.withTable({ $0[id] }) { return prefix }
  // Written outside the lock; two threads that both miss write the same name.
  let prefix: [JSONValue] = [.string(String(reflecting: type))]
  return typeKeyPrefixes.withTable { table in
    if let first = table[id] { return first }
    table[id] = prefix
    return prefix
  }
}

/// Each function type's key prefix, by type.
private let typeKeyPrefixes = TypeKeyPrefixes()

/// The prefixes' table and its lock, an object so that the lock's ordering can be told to the
/// thread sanitizer by its address (`withLock(orderingFor:)`: on Linux a `Mutex` blocks in the
/// kernel, where the sanitizer cannot see it).
private final class TypeKeyPrefixes: Sendable {
  private let table = Mutex<[TypeID: [JSONValue]]>([:])

  /// Runs `body` on the table, holding its lock.
  func withTable<R: Sendable>(_ body: (inout [TypeID: [JSONValue]]) -> R) -> R {
    table.withLock(orderingFor: self) { body(&$0) }
  }
}

/// A type as a table key, hashed by its address without a `Hasher` (SipHash of the
/// `ObjectIdentifier` cost about 100 instructions of each typed key's two lookups).
struct TypeID: Hashable, Sendable {
  let id: ObjectIdentifier
  init(_ type: Any.Type) { id = ObjectIdentifier(type) }
  func hash(into hasher: inout Hasher) { hasher.combine(id) }
  /// The address mixed with the table's seed (MurmurHash3's 64-bit finalizer over their
  /// exclusive or), as the table asks.
  func _rawHashValue(seed: Int) -> Int {
    var h = UInt64(UInt(bitPattern: unsafeBitCast(id, to: Int.self) ^ seed))
    h ^= h >> 33
    h &*= 0xff51_afd7_ed55_8ccd
    h ^= h >> 33
    h &*= 0xc4ce_b9fe_1a85_ec53
    h ^= h >> 33
    return Int(truncatingIfNeeded: h)
  }
}
