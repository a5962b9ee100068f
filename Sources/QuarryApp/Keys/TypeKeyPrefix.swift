import Quarry
import Synchronization

/// `[.string(String(reflecting: type))]`, the key prefix of a function type, written once per
/// type: every typed key is built on every call (`QueryCacheKey.queryKey`), and
/// `String(reflecting:)` demangles the type's name each time (about 6,500 instructions, a third
/// of a typed read, before typed12). Types are never unloaded, so the table only grows, by one
/// entry per function type used.
func typeKeyPrefix(_ type: Any.Type) -> [JSONValue] {
  let id = ObjectIdentifier(type)
  if let prefix = typeKeyPrefixes.withLock({ $0[id] }) { return prefix }
  // Written outside the lock; two threads that both miss write the same name.
  let prefix: [JSONValue] = [.string(String(reflecting: type))]
  return typeKeyPrefixes.withLock { table in
    if let first = table[id] { return first }
    table[id] = prefix
    return prefix
  }
}

/// Each function type's key prefix, by type.
private let typeKeyPrefixes = Mutex<[ObjectIdentifier: [JSONValue]]>([:])
