import Testing
@testable import QuarryLive

/// `ids` of a success, `"error"` for a failure, `nil` at the end of the stream.
func next(_ iterator: inout AsyncStream<Result<[Item], any Error>>.Iterator) async -> String? {
  guard let element = await iterator.next() else { return nil }
  switch element {
  case .success(let items): return "\(items.map(\.id))"
  case .failure: return "error"
  }
}

@Suite struct LiveUpdatesTests {
  static let seed = [Item(id: 1, name: "a", rank: 1), Item(id: 2, name: "b", rank: 2)]

  @Test func theInitialValueComesFirst() async throws {
    let store = InMemoryStore<Item>(entity: "Item", records: Self.seed)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    var updates = controller.updates(withCurrentValue: true).makeAsyncIterator()
    #expect(await next(&updates) == "[1, 2]")
    try store.write { try $0.insert(Item(id: 3, name: "c", rank: 3)) }
    #expect(await next(&updates) == "[1, 2, 3]")
  }

  @Test func withCurrentValueDeliversTheLoadedResultsAtOnce() async {
    let store = InMemoryStore<Item>(entity: "Item", records: Self.seed)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    controller.start()
    await controller.settled()
    var updates = controller.updates(withCurrentValue: true).makeAsyncIterator()
    #expect(await next(&updates) == "[1, 2]")
  }

  @Test func withoutCurrentValueOnlyLaterChangesArrive() async throws {
    let store = InMemoryStore<Item>(entity: "Item", records: Self.seed)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    controller.start()
    await controller.settled()
    var updates = controller.updates(withCurrentValue: false).makeAsyncIterator()
    try store.write { try $0.delete(id: 1) }
    #expect(await next(&updates) == "[2]")
  }

  @Test func aSlowConsumerGetsOnlyTheNewestValue() async throws {
    let store = InMemoryStore<Item>(entity: "Item", records: Self.seed)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    var updates = controller.updates(withCurrentValue: false).makeAsyncIterator()
    await controller.settled()
    for id in 3...7 {
      try store.write { try $0.insert(Item(id: id, name: "n", rank: id)) }
      await controller.settled()  // each commit is applied and yielded before the next
    }
    #expect(await next(&updates) == "[1, 2, 3, 4, 5, 6, 7]")
    controller.stop()
    #expect(await next(&updates) == nil)
  }

  @Test func oneFetchFeedsEveryStream() async throws {
    let store = GatedStore(Self.seed)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    var first = controller.updates().makeAsyncIterator()
    var second = controller.updates().makeAsyncIterator()
    var third = controller.updates().makeAsyncIterator()
    #expect(await next(&first) == "[1, 2]")
    #expect(await next(&second) == "[1, 2]")
    #expect(await next(&third) == "[1, 2]")
    try store.base.write { try $0.delete(id: 2) }
    #expect(await next(&first) == "[1]")
    #expect(await next(&second) == "[1]")
    #expect(await next(&third) == "[1]")
    #expect(store.readCount == 2)
    #expect(controller.fetchesStarted == 2)
  }

  @Test func anErrorIsAnElementAndTheStreamGoesOn() async throws {
    let store = GatedStore(Self.seed)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    var updates = controller.updates().makeAsyncIterator()
    #expect(await next(&updates) == "[1, 2]")
    store.fail(with: ReadFailure())
    try store.base.write { try $0.delete(id: 2) }
    #expect(await next(&updates) == "error")
    store.fail(with: nil)
    try store.base.write { try $0.delete(id: 1) }
    #expect(await next(&updates) == "[]")
  }

  /// A consumer in another task never misses the last value: it stops only when it sees the
  /// final results, which can only happen if they are delivered.
  @Test func theLastValueIsNeverMissed() async throws {
    let store = InMemoryStore<Item>(entity: "Item")
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    let updates = controller.updates(withCurrentValue: true)
    let consumer = Task { () -> (last: [Int], count: Int) in
      var count = 0
      for await update in updates {
        count += 1
        if let items = try? update.get(), items.count == 200 { return (items.map(\.id), count) }
      }
      return ([], count)
    }
    for id in 1...200 { try store.write { try $0.insert(Item(id: id, name: "n", rank: id)) } }
    let (last, count) = await consumer.value
    #expect(last == Array(1...200))
    #expect(count <= 201)
  }

  @Test func aCancelledConsumerIsForgotten() async {
    let store = InMemoryStore<Item>(entity: "Item", records: Self.seed)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    let updates = controller.updates()
    let consumer = Task {
      for await _ in updates {}
    }
    await controller.settled()
    consumer.cancel()
    await consumer.value
    #expect(controller.lock.withLock { controller.streams.isEmpty })
  }

  @Test func streamsEndWhenTheControllerIsReleased() async {
    let store = InMemoryStore<Item>(entity: "Item", records: Self.seed)
    var controller: LiveQueryController<ItemsByRank>? = LiveQueryController(store: store, descriptor: ItemsByRank())
    var updates = controller!.updates().makeAsyncIterator()
    #expect(await next(&updates) == "[1, 2]")
    await controller?.settled()
    controller = nil
    #expect(await next(&updates) == nil)
  }
}
