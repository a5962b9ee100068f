/// Defaults registered per key prefix (TanStack's `#queryDefaults` and `#mutationDefaults`
/// maps): one entry per key hash, in registration order. Setting a key again replaces its options
/// in place, as `Map.set` keeps an existing key's position.
struct KeyedDefaults<Options> {
  private(set) var entries: [(hash: String, key: QueryKey, options: Options)] = []

  var isEmpty: Bool { entries.isEmpty }

  /// Registers `options` for `key`, replacing (in place) what the same key had.
  mutating func set(_ key: QueryKey, _ options: Options) {
    let hash = key.queryHash
    if let i = entries.firstIndex(where: { $0.hash.hasSameCodeUnits(as: hash) }) {
      entries[i].options = options
    } else {
      entries.append((hash, key, options))
    }
  }

  /// The options of every registered key that `key` starts with, in registration order.
  func matching(_ key: QueryKey) -> [Options] {
    entries.lazy.filter { partialMatchKey(key, $0.key) }.map(\.options)
  }
}
