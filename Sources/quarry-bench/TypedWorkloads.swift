import QuarryApp

/// The variables of ``FetchTodo``: a small `Codable` struct, as an app declares them.
struct TodoID: Codable, Hashable, Sendable {
  var id: Int
  var page: Int
}

/// A typed query function as the README teaches (never run here: the workloads read and write
/// the cache through its ``QueryCacheKey``).
struct FetchTodo: QueryFunc {
  func run(_ variables: TodoID) async throws -> Int { variables.id }
}

/// A typed query function whose variables are a plain `Int`.
struct FetchTodoByID: QueryFunc {
  func run(_ id: Int) async throws -> Int { id }
}

/// Workloads (g) the typed API (`QuarryApp`): reads and writes through `QueryCacheKey<F>`,
/// whose engine key (`[type identifier, variables as JSON]`) is built on every call, as an
/// app's calls build it. TanStack's side is what an app writes there: a fresh
/// `['FetchTodo', { id: i, page: i % 10 }]` per call.
enum TypedWorkloads {
  static let keyCount = 100_000

  /// The typed key of entry `i`, built fresh on every call as an app builds it.
  @inline(__always)
  static func key(_ i: Int) -> QueryCacheKey<FetchTodo> { QueryCacheKey(variables: TodoID(id: i, page: i % 10)) }

  /// On a fresh client per round, 100k entries written through the typed API (not timed), then
  /// `typed.hit` (the typed `getQueryData`) and `typed.write` (the typed `setQueryData`, the
  /// only typed write: an updater) of the same entries; the median round. Then (Quarry only)
  /// `typed.key`: building and freeing the 100k engine keys alone, without the cache, and
  /// `typed.key.int` the same for `Int` variables (`QueryCacheKey<FetchTodoByID>(variables: i)`).
  /// `floor.typed.write` (Quarry only) is after `typed.write`: see `floorWrite(_:_:)`.
  static func run(rounds: Int) -> [Measurement] {
    let n = keyCount
    var results: [[Measurement]] = [[], [], [], [], [], []]
    for _ in 0..<rounds {
      let client = QueryClient(scheduler: VirtualScheduler())
      precondition(seed(client, n) == (0..<n).reduce(0, +))
      var sum = 0
      results[0].append(measure("typed.hit", n: n) { sum &+= readHit(client, n) })
      results[1].append(measure("typed.write", n: n) { writeExisting(client, n) })
      // The same values again, so that `verify` reads the same sum.
      results[4].append(measure("floor.typed.write", n: n) { floorWrite(client, n) })
      sum &+= verify(client, n)
      precondition(sum == (0..<n).reduce(0, +) + (1...n).reduce(0, +))
      var table = bareTable(n)
      results[5].append(measure("floor.typed.write.table", n: n) { tableWrite(&table, n) })
      precondition(table.values.reduce(0, &+) == (1...n).reduce(0, +))
      table = [:]
      var parts = 0
      results[2].append(measure("typed.key", n: n) { parts &+= buildKeys(n) })
      precondition(parts == 2 * n)
      results[3].append(measure("typed.key.int", n: n) { parts &+= buildIntKeys(n) })
      precondition(parts == 4 * n)
      client.clear()
    }
    return results.map(median)
  }

  // Each loop is a function of its own (never inlined), so a profile can count it alone:
  // `valgrind --tool=callgrind --toggle-collect='*TypedWorkloadsO7readHit*' ...`.

  @inline(never)
  static func readHit(_ client: QueryClient, _ n: Int) -> Int {
    var sum = 0
    for i in 0..<n { sum &+= (try? client.getQueryData(key(i))) ?? 0 }
    return sum
  }

  @inline(never)
  static func writeExisting(_ client: QueryClient, _ n: Int) {
    for i in 0..<n { _ = try? client.setQueryData(key(i)) { _ in i + 1 } }
  }

  /// `floor.typed.write`: what a typed write of an existing entry pays in this engine, with
  /// nothing of the typed write's own: the typed key built (and its table given back, as the
  /// typed calls give it back), then the engine's cheapest keyed write with that fresh equal
  /// key, the untyped `setQueryData(_:value:)` (no updater, no read of the old value, no cast).
  @inline(never)
  static func floorWrite(_ client: QueryClient, _ n: Int) {
    for i in 0..<n {
      let queryKey = key(i).queryKey
      client.setQueryData(queryKey, value: i + 1)
      JSONValueEncoder.recycle(queryKey)
    }
  }

  /// `floor.typed.write.table`: the same typed keys built and given back, each written into a
  /// bare standard-library `[QueryKey: Int]` of the 100k entries (keys built apart, so that
  /// every write compares its fresh key with another instance, as the cache's does): what a
  /// keyed write with a fresh typed key costs with nothing of the engine (no lock, no query, no
  /// data box, no notification), against which `floor.typed.write` shows the engine's part.
  @inline(never)
  static func tableWrite(_ table: inout [QueryKey: Int], _ n: Int) {
    for i in 0..<n {
      let queryKey = key(i).queryKey
      table[queryKey] = i + 1
      JSONValueEncoder.recycle(queryKey)
    }
  }

  /// The table `tableWrite` rewrites: entry `i`'s engine key (built here, not reused by the
  /// timed loop) mapped to `i`.
  static func bareTable(_ n: Int) -> [QueryKey: Int] {
    var table: [QueryKey: Int] = [:]
    table.reserveCapacity(n)
    for i in 0..<n { table[key(i).queryKey] = i }
    return table
  }

  /// The entries the timed loops read and rewrite (value `i`), written through the typed API;
  /// returns the sum of the values written. Its loop differs from `writeExisting`'s in more than
  /// a constant (it sums what each write returns), so that the compiler does not merge the two
  /// into one function (it did: a `...seed...Tm` symbol, so that a profile toggled on
  /// `writeExisting` counted the untimed seed too).
  @inline(never)
  static func seed(_ client: QueryClient, _ n: Int) -> Int {
    var sum = 0
    for i in 0..<n { sum &+= (try? client.setQueryData(key(i)) { _ in i }) ?? 0 }
    return sum
  }

  /// The sum after the write (each value `i + 1`), read as `readHit` reads: a loop of its own,
  /// not a call of `readHit`, so that a profile toggled on `readHit` counts the timed reads alone.
  @inline(never)
  static func verify(_ client: QueryClient, _ n: Int) -> Int {
    var sum = 0
    for i in 0..<n { sum &+= (try? client.getQueryData(key(i))) ?? 0 }
    return sum
  }

  @inline(never)
  static func buildKeys(_ n: Int) -> Int {
    var parts = 0
    for i in 0..<n { parts &+= key(i).queryKey.parts.count }
    return parts
  }

  @inline(never)
  static func buildIntKeys(_ n: Int) -> Int {
    var parts = 0
    for i in 0..<n { parts &+= QueryCacheKey<FetchTodoByID>(variables: i).queryKey.parts.count }
    return parts
  }
}
