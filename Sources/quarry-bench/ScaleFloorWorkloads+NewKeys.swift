import Quarry

/// Quarry-only floors of a new key's write and of `clear` as the cache grows (`scale.setQueryData.new`
/// and `scale.clear`): what any cache holding `N` queries by key, in insertion order, pays for
/// its table and its memory, with nothing of the engine around it.
///
/// - `scale.floor.insert.N`: `N` keys of the benchmark's shape (their hashes computed before the
///   timing, as a `QueryKey` keeps its own) inserted into an empty `Dictionary`, which grows as
///   the cache's key table does, each with a fresh object of a query's allocation size holding a
///   fresh ``DataBox`` (the two objects a new key's write allocates), also appended to an array
///   (the insertion order).
/// - `scale.floor.insert.table.N`: the table alone (`Int` values, no objects): its growth.
/// - `scale.floor.insert.alloc.N`: the two objects alone, appended to the array: fresh memory.
/// - `scale.floor.clear.N`: `scale.floor.insert`'s table emptied and its objects freed in
///   insertion order, as `QueryCache.clear()` does (the table's `removeAll`, then the array).
extension ScaleFloorWorkloads {
  static func runNewKeys(_ keys: [QueryKey], rounds: Int) -> [Measurement] {
    let n = keys.count
    let sizes = FloorWorkloads.objectSizes()
    let floorKeys = keys.map(FloorKey.init)
    var results: [[Measurement]] = [[], [], [], []]
    for _ in 0..<rounds {
      releaseFreeMemory()
      var cache = FloorCache()
      results[0].append(measure("scale.floor.insert.\(n)", n: n) { insert(&cache, floorKeys, size: sizes.query) })
      precondition(cache.table.count == n && cache.order.count == n)
      results[1].append(measure("scale.floor.clear.\(n)", n: n) { clear(&cache) })
      precondition(cache.table.isEmpty && cache.order.isEmpty)

      releaseFreeMemory()
      var table: [FloorKey: Int] = [:]
      results[2].append(measure("scale.floor.insert.table.\(n)", n: n) { insertTable(&table, floorKeys) })
      precondition(table.count == n)
      table = [:]

      releaseFreeMemory()
      var objects: [FloorQuery] = []
      results[3].append(measure("scale.floor.insert.alloc.\(n)", n: n) { FloorWorkloads.allocate(&objects, size: sizes.query, count: n) })
      precondition(objects.count == n)
      objects = []
    }
    return results.map(median)
  }

  @inline(never)
  static func insert(_ cache: inout FloorCache, _ keys: [FloorKey], size: Int) {
    for i in keys.indices {
      let object = FloorQuery.make(size: size, data: DataBox(i))
      cache.table[keys[i]] = object
      cache.order.append(object)
    }
  }

  @inline(never)
  static func clear(_ cache: inout FloorCache) {
    cache.table.removeAll()
    cache.order = []
  }

  @inline(never)
  static func insertTable(_ table: inout [FloorKey: Int], _ keys: [FloorKey]) {
    for i in keys.indices { table[keys[i]] = i }
  }
}

/// Gives the free memory of the heap back to the system (glibc's `malloc_trim(0)`), so that
/// what the next workload allocates is fresh pages, faulted in as it is first written: a cache
/// growing to 1M queries takes fresh pages (0.156 page faults per new key), and so, after this,
/// does every 10k round. Without it, whether a 10k round reused the previous round's pages
/// depended on glibc's dynamic trim threshold (1,336 faults in every round in one build, none
/// after the second in the next).
func releaseFreeMemory() {
  #if canImport(Glibc)
  _ = glibcTrim(0)
  #endif
}

#if canImport(Glibc)
@_silgen_name("malloc_trim")
private func glibcTrim(_ pad: Int) -> Int32
#endif

/// A key table and an insertion order, the least a cache of queries by key holds.
struct FloorCache {
  var table: [FloorKey: FloorQuery] = [:]
  var order: [FloorQuery] = []
}

/// A query key with its hash kept beside it, as the cache's key table keeps it (`Prehashed`):
/// the table never hashes the key again, and mixes the kept hash with its seed.
struct FloorKey: Hashable {
  let key: QueryKey
  let hash: Int
  init(_ key: QueryKey) {
    self.key = key
    self.hash = key.hashValue
  }
  static func == (a: FloorKey, b: FloorKey) -> Bool { a.hash == b.hash && a.key == b.key }
  func hash(into hasher: inout Hasher) { hasher.combine(hash) }
  func _rawHashValue(seed: Int) -> Int {
    // MurmurHash3's 64-bit finalizer over the hash and the seed (the cache's `mixedHash`).
    var h = UInt64(bitPattern: Int64(hash ^ seed))
    h ^= h >> 33
    h &*= 0xff51_afd7_ed55_8ccd
    h ^= h >> 33
    h &*= 0xc4ce_b9fe_1a85_ec53
    h ^= h >> 33
    return Int(Int64(bitPattern: h))
  }
}
