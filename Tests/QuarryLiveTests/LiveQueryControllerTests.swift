import Testing
@testable import QuarryLive

@Suite struct LiveQueryControllerTests {
  static let seed = [Item(id: 1, name: "a", rank: 1), Item(id: 2, name: "b", rank: 2)]

  @Test func theInitialLoadGoesFromNotStartedThroughLoadingToLoaded() async {
    let store = InMemoryStore<Item>(entity: "Item", records: Self.seed)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    #expect(describe(controller.state) == "notStarted")
    let log = ChangeLog()
    let subscription = controller.observe { log.append($0) }
    await controller.settled()
    #expect(log.lines == ["loading(nil)", "loaded([1, 2])"])
    #expect(log.changes.last?.diff == .rows(.init(inserted: [0, 1])))
    #expect(controller.results.map(\.id) == [1, 2])
    subscription.cancel()
  }

  @Test func aCommitFetchesAgainAndReportsTheDiff() async throws {
    let store = InMemoryStore<Item>(entity: "Item", records: Self.seed)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    let log = ChangeLog()
    let subscription = controller.observe { log.append($0) }
    await controller.settled()
    try store.write { tx in
      try tx.delete(id: 1)
      try tx.insert(Item(id: 3, name: "c", rank: 0))
      try tx.update(Item(id: 2, name: "B", rank: 2))
    }
    await controller.settled()
    #expect(log.lines.suffix(1) == ["loaded([3, 2])"])
    #expect(log.changes.last?.diff == .rows(.init(removed: [0], inserted: [0], updated: [1])))
    subscription.cancel()
  }

  @Test func aCommitToAnotherEntityDoesNotFetch() async throws {
    let store = GatedStore(Self.seed)
    let other = ItemsByRank(entities: ["Other"])
    let controller = LiveQueryController(store: store, descriptor: other)
    controller.start()
    await controller.settled()
    try store.base.write { tx in tx.upsert(Item(id: 9, name: "z")) }  // commits entity "Item"
    await controller.settled()
    #expect(store.readCount == 1)
    #expect(controller.results.map(\.id) == [1, 2])
  }

  @Test func aCommitThatLeavesTheResultsAloneDeliversNothing() async throws {
    let store = InMemoryStore<Item>(entity: "Item", records: Self.seed)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank(minRank: 1))
    let log = ChangeLog()
    let subscription = controller.observe { log.append($0) }
    await controller.settled()
    try store.write { try $0.insert(Item(id: 3, name: "hidden", rank: 0)) }
    await controller.settled()
    #expect(log.lines == ["loading(nil)", "loaded([1, 2])"])
    #expect(controller.fetchesStarted == 2)
    subscription.cancel()
  }

  @Test func commitsDuringAFetchAreCoalescedIntoOneMoreFetch() async throws {
    let store = GatedStore(Self.seed)
    store.hold(true)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    let log = ChangeLog()
    let subscription = controller.observe { log.append($0) }
    await store.waitForParkedReads(1)
    for id in 3...5 { try store.base.write { try $0.insert(Item(id: id, name: "n", rank: id)) } }
    store.hold(false)
    store.release(at: 0)
    await controller.settled()
    #expect(controller.fetchesStarted == 2)
    #expect(controller.results.map(\.id) == [1, 2, 3, 4, 5])
    #expect(log.lines.last == "loaded([1, 2, 3, 4, 5])")
    subscription.cancel()
  }

  @Test func aSlowFetchForAnOldDescriptorNeverWinsOverAFasterLaterOne() async {
    let store = GatedStore(Self.seed)
    store.hold(true)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank(ascending: true))
    let log = ChangeLog()
    let subscription = controller.observe { log.append($0) }
    await store.waitForParkedReads(1)
    controller.setDescriptor(ItemsByRank(ascending: false))
    await store.waitForParkedReads(2)
    store.release(at: 1)  // the later fetch finishes first
    await controller.settled()
    store.release(at: 0)  // then the stale one
    await controller.settled()
    #expect(controller.results.map(\.id) == [2, 1])
    #expect(log.lines == ["loading(nil)", "loading(nil)", "loaded([2, 1])"])
    #expect(controller.descriptor == ItemsByRank(ascending: false))
    subscription.cancel()
  }

  @Test func anEqualDescriptorFetchesNothingAndANewOneShowsThePreviousResultsWhileLoading() async {
    let store = GatedStore(Self.seed)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    let log = ChangeLog()
    let subscription = controller.observe { log.append($0) }
    await controller.settled()
    controller.setDescriptor(ItemsByRank())
    #expect(store.readCount == 1)
    controller.setDescriptor(ItemsByRank(ascending: false))
    await controller.settled()
    #expect(store.readCount == 2)
    #expect(log.lines == ["loading(nil)", "loaded([1, 2])", "loading([1, 2])", "loaded([2, 1])"])
    #expect(log.changes.last?.diff == .rows(.init(moved: [.init(from: 1, to: 0)])))
    subscription.cancel()
  }

  @Test func whilePausedNothingIsFetchedAndResumeDeliversOnceWithTheLatest() async throws {
    let store = GatedStore(Self.seed)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    let log = ChangeLog()
    let subscription = controller.observe { log.append($0) }
    await controller.settled()
    controller.pause()
    for id in 3...6 { try store.base.write { try $0.insert(Item(id: id, name: "n", rank: id)) } }
    #expect(store.readCount == 1)
    #expect(controller.isPaused)
    controller.resume()
    await controller.settled()
    #expect(store.readCount == 2)
    #expect(log.lines == ["loading(nil)", "loaded([1, 2])", "loaded([1, 2, 3, 4, 5, 6])"])
    controller.resume()  // nothing changed: no fetch
    #expect(store.readCount == 2)
    subscription.cancel()
  }

  @Test func pausingDropsAFetchUnderWayAndResumeFetchesAgain() async {
    let store = GatedStore(Self.seed)
    store.hold(true)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    controller.start()
    await store.waitForParkedReads(1)
    controller.pause()
    store.hold(false)
    store.release(at: 0)
    await controller.settled()
    #expect(describe(controller.state) == "loading(nil)")
    controller.resume()
    await controller.settled()
    #expect(describe(controller.state) == "loaded([1, 2])")
    #expect(store.readCount == 2)
  }

  @Test func aFailedFetchIsStateKeepsThePreviousResultsAndTheNextCommitRecovers() async throws {
    let store = GatedStore(Self.seed)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    let log = ChangeLog()
    let subscription = controller.observe { log.append($0) }
    await controller.settled()
    store.fail(with: ReadFailure())
    try store.base.write { try $0.insert(Item(id: 3, name: "c", rank: 3)) }
    await controller.settled()
    #expect(controller.state.error as? ReadFailure == ReadFailure())
    #expect(controller.results.map(\.id) == [1, 2])
    store.fail(with: nil)
    try store.base.write { try $0.insert(Item(id: 4, name: "d", rank: 4)) }
    await controller.settled()
    #expect(log.lines == ["loading(nil)", "loaded([1, 2])", "failed([1, 2])", "loaded([1, 2, 3, 4])"])
    #expect(log.changes.last?.diff == .rows(.init(inserted: [2, 3])))
    subscription.cancel()
  }

  @Test func aFailedFirstLoadHasNoPreviousValueAndRefreshRetries() async {
    let store = GatedStore(Self.seed)
    store.fail(with: ReadFailure())
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    controller.start()
    await controller.settled()
    #expect(describe(controller.state) == "failed(nil)")
    store.fail(with: nil)
    controller.refresh()
    await controller.settled()
    #expect(describe(controller.state) == "loaded([1, 2])")
  }

  @Test func sectionsAreContiguousRunsOfTheSectionKey() async throws {
    let store = InMemoryStore<Item>(entity: "Item", records: [
      Item(id: 1, name: "a", rank: 1, group: "x"), Item(id: 2, name: "b", rank: 2, group: "x"),
      Item(id: 3, name: "c", rank: 3, group: "y"),
    ])
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank(), sectionKey: { $0.group })
    controller.start()
    await controller.settled()
    #expect(controller.sections == [LiveSection(name: "x", range: 0..<2), LiveSection(name: "y", range: 2..<3)])
    try store.write { try $0.insert(Item(id: 4, name: "d", rank: 0, group: "y")) }
    await controller.settled()
    #expect(controller.sections.map(\.name) == ["y", "x", "y"])
  }

  @Test func nothingIsDeliveredToAnObserverAfterItsCancel() async throws {
    let store = InMemoryStore<Item>(entity: "Item", records: Self.seed)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    let log = ChangeLog()
    let subscription = controller.observe { log.append($0) }
    await controller.settled()
    subscription.cancel()
    try store.write { try $0.insert(Item(id: 3, name: "c", rank: 3)) }
    await controller.settled()
    #expect(log.lines == ["loading(nil)", "loaded([1, 2])"])
    #expect(controller.results.count == 3)
  }

  @Test func stopEndsObservationAndKeepsTheResults() async throws {
    let store = GatedStore(Self.seed)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    controller.start()
    await controller.settled()
    controller.stop()
    try store.base.write { try $0.insert(Item(id: 3, name: "c", rank: 3)) }
    await controller.settled()
    #expect(store.readCount == 1)
    #expect(controller.results.map(\.id) == [1, 2])
  }

  @Test func willChangeComesJustBeforeEachDidChange() async throws {
    let store = InMemoryStore<Item>(entity: "Item", records: Self.seed)
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank())
    let log = Locked<[String]>([])
    let subscription = controller.observe(willChange: { log.withLock { $0.append("will") } }) { change in
      log.withLock { $0.append("did " + describe(change)) }
    }
    await controller.settled()
    #expect(log.current == ["will", "did loading(nil)", "will", "did loaded([1, 2])"])
    subscription.cancel()
  }

  /// Four threads write at once; the one observer's diffs, applied in order, always give the
  /// results it is told, and it ends with the store's final contents.
  @Test func concurrentWritersDiffsChainAndTheLastValueArrives() async throws {
    let store = InMemoryStore<Item>(entity: "Item")
    let controller = LiveQueryController(store: store, descriptor: ItemsByRank(), reloadThreshold: .max)
    let chained = Locked<(ids: [Int], broken: Int)>(([], 0))
    let subscription = controller.observe { change in
      guard let diff = change.diff else { return }
      chained.withLock { state in
        let next = applied(diff, to: state.ids, new: change.results.map(\.id))
        if next != change.results.map(\.id) { state.broken += 1 }
        state.ids = change.results.map(\.id)
      }
    }
    await controller.settled()
    await withTaskGroup(of: Void.self) { group in
      for writer in 0..<4 {
        group.addTask {
          for n in 0..<100 {
            let id = writer * 1_000 + n
            try? store.write { try $0.insert(Item(id: id, name: "w", rank: (n * 7919) % 50)) }
            if n % 3 == 0 { try? store.write { try $0.delete(id: id) } }
          }
        }
      }
    }
    await controller.settled()
    let expected = try ItemsByRank().fetch(store.snapshot).map(\.id)
    #expect(controller.results.map(\.id) == expected)
    #expect(chained.current.ids == expected)
    #expect(chained.current.broken == 0)
    subscription.cancel()
  }
}
