/// A table key that keeps its hash, so a growing table never hashes its keys again (hashing a
/// query key or hash string costs far more than an `Int`), and unequal keys mostly differ at the
/// first comparison.
struct Prehashed<Key: Hashable>: Hashable {
  let key: Key
  let hash: Int
  init(_ key: Key) {
    self.key = key
    self.hash = key.hashValue
  }
  static func == (a: Prehashed, b: Prehashed) -> Bool { a.hash == b.hash && a.key == b.key }
  func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}
