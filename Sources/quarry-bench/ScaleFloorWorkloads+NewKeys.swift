import Quarry

/// Quarry-only floors of a new key's write and of `clear` as the cache grows (`scale.setQueryData.new`
/// and `scale.clear`): what any cache holding `N` queries by key, in insertion order, pays for
/// its table and its memory, with nothing of the engine around it.
///
/// - `scale.floor.insert.N`: `N` keys of the benchmark's shape, each with its kept hash as the
///   cache's key table holds it (`Prehashed`, made before the timing), inserted into an empty
///   `Dictionary`, which grows as the cache's key table does, each with a fresh object of a query's allocation size holding a
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
    let floorKeys = keys.map { Prehashed($0) }
    var results: [[Measurement]] = [[], [], [], []]
    for _ in 0..<rounds {
      releaseFreeMemory()
      var cache = FloorCache()
      results[0].append(measure("scale.floor.insert.\(n)", n: n) { insert(&cache, floorKeys, size: sizes.query) })
      precondition(cache.table.count == n && cache.order.count == n)
      results[1].append(measure("scale.floor.clear.\(n)", n: n) { clear(&cache) })
      precondition(cache.table.isEmpty && cache.order.isEmpty)

      releaseFreeMemory()
      var table: [Prehashed<QueryKey>: Int] = [:]
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
  static func insert(_ cache: inout FloorCache, _ keys: [Prehashed<QueryKey>], size: Int) {
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
  static func insertTable(_ table: inout [Prehashed<QueryKey>: Int], _ keys: [Prehashed<QueryKey>]) {
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
  var table: [Prehashed<QueryKey>: FloorQuery] = [:]
  var order: [FloorQuery] = []
}

