import Testing
import QuarryApp
import QuarryScenarios

// The typed calls give their key's object table back to the encoder (`JSONValueEncoder.recycle`,
// typedw16): the next key of the same shape is written into it in place when nothing else
// references it. Keys must stay what they were, whoever else holds the table.

/// Variables of a `CodingKey` type of their own per tag, so that each test learns its shape.
struct RecycledPair<Tag>: Codable, Hashable, Sendable {
  var id: Int
  var page: Int
}

private enum Reused {}
private enum Held {}
private enum Foreign {}
private enum Cached {}
private enum Typed {}

/// The storage address of `key`'s object table (its last part).
private func tableAddress(_ key: QueryKey) -> UInt? {
  guard case .object(let table)? = key.parts.last else { return nil }
  return unsafeBitCast(table, to: UInt.self)
}

/// The typed key of `RecycledPair<Tag>(id: id, page: page)` built from its parts, as the oracle would.
private func expected<Tag>(_ tag: Tag.Type, _ id: Int, _ page: Int) -> QueryKey {
  QueryKey([.string(String(reflecting: EchoFunc<RecycledPair<Tag>>.self)), ["id": .number(Double(id)), "page": .number(Double(page))]])
}

private func key<Tag>(_ tag: Tag.Type, _ id: Int, _ page: Int) -> QueryKey {
  QueryCacheKey<EchoFunc<RecycledPair<Tag>>>(variables: RecycledPair(id: id, page: page)).queryKey
}

@Suite struct KeyRecyclingTests {
  /// A table given back with nothing else referencing it is the next key's table (other tests
  /// build keys at once and may take the spare node meanwhile, so one of many tries suffices:
  /// they are made until one is reused, for at most a minute).
  @Test func aGivenBackTableIsTheNextKeysTable() {
    // The shape learned first: the first key's table is built apart (not of the shape) and
    // freed with its key, and the next key's copy could take its address.
    _ = key(Reused.self, -1, 0)
    var reused = false
    let deadline = ContinuousClock.now + .seconds(60)
    var i = 0
    while !reused, i < 200 || ContinuousClock.now < deadline {
      i += 1
      // Moved out of an optional, so that no copy of the key outlives the call (as in a
      // debug build a `let` would).
      var first: QueryKey? = key(Reused.self, i, 1)
      let address = tableAddress(first!)
      JSONValueEncoder.recycle(first.take()!)
      let next = key(Reused.self, i + 1, 2)
      #expect(identical(next, expected(Reused.self, i + 1, 2)), "\(next)")
      #expect(next.hashValue == expected(Reused.self, i + 1, 2).hashValue)
      reused = tableAddress(next) == address
      JSONValueEncoder.recycle(next)
    }
    #expect(reused)
  }

  /// A key still held when its table is given back keeps its members: the next key copies the
  /// table before writing.
  @Test func aHeldKeyKeepsItsMembers() {
    for i in 0..<100 {
      let held = key(Held.self, i, i % 10)
      let copy = held
      JSONValueEncoder.recycle(held)
      let next = key(Held.self, i + 1000, 7)
      #expect(identical(copy, expected(Held.self, i, i % 10)), "\(copy)")
      #expect(identical(next, expected(Held.self, i + 1000, 7)), "\(next)")
      JSONValueEncoder.recycle(next)
    }
  }

  /// Only the table the encoder handed out is taken back: a key built elsewhere with the same
  /// members (another table layout) never becomes the next key's table.
  @Test func aForeignTableIsNotTakenBack() {
    for i in 0..<100 {
      let built = key(Foreign.self, i, 3)
      let foreign = expected(Foreign.self, i, 3)
      JSONValueEncoder.recycle(foreign)
      JSONValueEncoder.recycle(QueryKey(["x", ["id": 1, "page": 2]]))
      let next = key(Foreign.self, i + 1, 4)
      #expect(tableAddress(next) != tableAddress(foreign))
      #expect(identical(next, expected(Foreign.self, i + 1, 4)), "\(next)")
      #expect(identical(built, expected(Foreign.self, i, 3)), "\(built)")
    }
  }

  /// Keys the cache keeps (a new key's write) stay as written while the typed calls give their
  /// tables back and build the next keys.
  @Test func cachedKeysStayAsWritten() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    typealias F = EchoFunc<RecycledPair<Cached>>
    for i in 0..<50 {
      try client.setQueryData(QueryCacheKey<F>(variables: RecycledPair(id: i, page: i % 10))) { _ in i }
      try client.setQueryData(QueryCacheKey<F>(variables: RecycledPair(id: i, page: i % 10))) { old in (old ?? 0) + 1 }
      #expect(try client.getQueryData(QueryCacheKey<F>(variables: RecycledPair(id: i, page: i % 10))) == i + 1)
    }
    let keys = client.queryCache.findAll(QueryFilters(queryKey: QueryCacheKey<F>.all)).map(\.queryKey)
    #expect(keys.count == 50)
    for i in 0..<50 {
      #expect(keys.contains { identical($0, expected(Cached.self, i, i % 10)) }, "\(i)")
      #expect(try client.getQueryData(QueryCacheKey<F>(variables: RecycledPair(id: i, page: i % 10))) == i + 1)
    }
  }

  /// A typed read or write that throws (another type cached) gives nothing back and changes
  /// nothing; the next keys are still right.
  @Test func aThrowingTypedCallLeavesKeysRight() {
    let client = QueryClient(scheduler: VirtualScheduler())
    typealias F = EchoFunc<RecycledPair<Typed>>
    client.setQueryData(expected(Typed.self, 1, 1), value: "text")
    for _ in 0..<5 {
      #expect(throws: QuarryError.self) { try client.getQueryData(QueryCacheKey<F>(variables: RecycledPair(id: 1, page: 1))) }
      #expect(throws: QuarryError.self) { try client.setQueryData(QueryCacheKey<F>(variables: RecycledPair(id: 1, page: 1))) { _ in 2 } }
      #expect(client.getQueryData(expected(Typed.self, 1, 1)) as? String == "text")
      #expect(identical(key(Typed.self, 2, 3), expected(Typed.self, 2, 3)))
    }
  }
}

// A container the value kept must never write into another key, whichever of the root node's
// containers (of two key types) it was; keys of types built in turn stay right.

private enum SwitchFirst {}
private enum SwitchSecond {}
nonisolated(unsafe) private var keptFirstContainer: KeyedEncodingContainer<VaryingKey<SwitchFirst>>?

/// When `keep`, asks for a container of one key type, keeps it, then writes through a container
/// of another; else writes into the kept one while encoding itself.
struct SwitchingContainer: Encodable, Hashable, Sendable {
  var keep: Bool
  func encode(to encoder: any Encoder) throws {
    if keep {
      var first = encoder.container(keyedBy: VaryingKey<SwitchFirst>.self)
      try first.encode(1, forKey: .a)
      keptFirstContainer = first
      var second = encoder.container(keyedBy: VaryingKey<SwitchSecond>.self)
      try second.encode(2, forKey: .b)
    } else {
      var keyed = encoder.container(keyedBy: VaryingKey<SwitchSecond>.self)
      try keyed.encode(1, forKey: .a)
      try keptFirstContainer?.encode("stale", forKey: .d)
      try keyed.encode(2, forKey: .b)
    }
  }
}

@Suite struct RootContainerTests {
  /// A kept container of another key type than the one the value wrote through last never
  /// writes into another key either.
  @Test func aKeptContainerOfAnotherKeyTypeNeverWritesIntoAnotherKey() {
    let name = String(reflecting: EchoFunc<SwitchingContainer>.self)
    for _ in 0..<20 {
      _ = QueryCacheKey<EchoFunc<SwitchingContainer>>(variables: SwitchingContainer(keep: true)).queryKey
      let key = QueryCacheKey<EchoFunc<SwitchingContainer>>(variables: SwitchingContainer(keep: false)).queryKey
      #expect(identical(key, QueryKey([.string(name), ["a": 1, "b": 2]])), "\(key)")
    }
    keptFirstContainer = nil
  }

  /// Keys of two variables types built in turn (each table given back replaced by the other's)
  /// stay right, as do keys built from many tasks at once.
  @Test func keysOfAlternatingTypesAndTasksStayRight() async {
    for i in 0..<200 {
      #expect(identical(key(Reused.self, i, 1), expected(Reused.self, i, 1)))
      #expect(identical(key(Held.self, i, 2), expected(Held.self, i, 2)))
    }
    await withTaskGroup(of: Bool.self) { group in
      for t in 0..<8 {
        group.addTask {
          (0..<500).allSatisfy { i in
            let built = t % 2 == 0 ? key(Reused.self, i, t) : key(Held.self, i, t)
            let wanted = t % 2 == 0 ? expected(Reused.self, i, t) : expected(Held.self, i, t)
            return identical(built, wanted)
          }
        }
      }
      for await ok in group { #expect(ok) }
    }
  }
}
