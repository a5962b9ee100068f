/// Which keys `hashKey` tells apart: the cache may then skip writing a new key's hash.
extension QueryKey {
  /// Whether ``queryHash`` loses nothing of the key: no part, at any depth, is `undefined`
  /// (written `null` in an array, left out of an object) or a number that is not finite (written
  /// `null`). For two such keys, equal hashes mean equal keys: JSON text without those is read
  /// back to one value (object members in any order, numbers by their shortest round-trip digits
  /// with `-0` written `0`, strings by their code units), and key equality is exactly that.
  ///
  /// So a cache whose every query is found by such a key hashed by `hashKey`
  /// (`QueryCache.lookup(key:)`) knows, when a faithful key misses there, that no query has its
  /// hash either. Found out by the walk that computes the key's structural hash (its lowest bit,
  /// `JSONValue.unfaithfulHashBit`); a key with arrays or objects nested deeper than that walk
  /// looks (`JSONValue.hashedDepth`) answers `false` without looking further.
  var isHashedFaithfully: Bool { structuralHash & JSONValue.unfaithfulHashBit == 0 }
}
