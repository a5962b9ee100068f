import Testing
@testable import Quarry

/// A primitive written over one of its type is stored in the old box when nobody but the
/// query's state holds it (`DataBox.replaceInPlace`); anything that could see the box change
/// gets a new box, as before.
@Suite struct DataBoxReuseTests {
  private func dataBox(_ client: QueryClient, _ key: QueryKey) -> DataBox? {
    client.queryCache.get(key.queryHash)?.stateStorage.dataBox
  }

  @Test func anUnheldBoxTakesTheNewValueAndTheStateStillCounts() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["n"], value: 1)
    let first = ObjectIdentifier(dataBox(client, ["n"])!)
    client.setQueryData(["n"], value: 2, updatedAt: 50)
    #expect(ObjectIdentifier(dataBox(client, ["n"])!) == first)
    #expect(client.getQueryData(["n"]) as? Int == 2)
    let state = client.getQueryState(["n"])!
    #expect(state.dataUpdateCount == 2)
    #expect(state.dataUpdatedAt == 50)
    #expect(state.status == .success)
    // Another type gets a new box.
    client.setQueryData(["n"], value: 2.5)
    #expect(ObjectIdentifier(dataBox(client, ["n"])!) != first)
    #expect(client.getQueryData(["n"]) as? Double == 2.5)
  }

  @Test func aHeldBoxIsNeverChanged() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["s"], value: "a")
    let held = client.getQueryState(["s"])!
    client.setQueryData(["s"], value: "b")
    #expect(held.data as? String == "a")
    #expect(client.getQueryData(["s"]) as? String == "b")
    // An observer's result holds the box too.
    var options = QueryOptions(queryKey: ["s"])
    options.queryFn = .fn { _ in "fetched" }
    options.staleTime = .value(.milliseconds(.infinity))
    let observer = QueryObserver(client: client, options: options)
    let seen = Log()
    let unsubscribe = observer.subscribe { seen.append($0.data as? String ?? "-") }
    let before = observer.getCurrentResult()
    client.setQueryData(["s"], value: "c")
    #expect(before.data as? String == "b")
    #expect(seen.entries == ["c"])
    unsubscribe()
  }

  @Test func equalStringsKeepTheStoredCodeUnits() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["e"], value: "caf\u{E9}")
    client.setQueryData(["e"], value: "cafe\u{301}")
    #expect((client.getQueryData(["e"]) as? String)?.unicodeScalars.count == 4)
    #expect(client.getQueryState(["e"])?.dataUpdateCount == 2)
  }

  @Test func aBoxTheCallerMadeIsNeverReused() {
    let client = QueryClient(scheduler: VirtualScheduler())
    weak var watched: DataBox?
    do {
      let box = DataBox(1)
      watched = box
      client.setQueryData(["b"], value: box)
    }
    #expect(watched != nil)
    client.setQueryData(["b"], value: 2)
    #expect(watched == nil)
    #expect(client.getQueryData(["b"]) as? Int == 2)
  }

  @Test func aBoxGivenToAStructuralSharingFunctionIsNeverReused() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["f"], value: 1)
    let query = client.queryCache.get(#"["f"]"#)!
    let given = WeakDataBox()
    var options = QueryOptions(queryKey: ["f"])
    options.structuralSharing = .function(FunctionBox { @Sendable previous, data in
      given.box = previous
      return previous ?? data
    })
    client.engine.lock.sync { query.setOptions(options) }
    client.setQueryData(["f"], value: 2)
    #expect(given.box != nil)
    #expect(client.getQueryData(["f"]) as? Int == 1)
    client.engine.lock.sync { query.setOptions(QueryOptions(queryKey: ["f"])) }
    client.setQueryData(["f"], value: 3)
    #expect(given.box == nil)
    #expect(client.getQueryData(["f"]) as? Int == 3)
  }
}

/// A weak reference a `@Sendable` closure can set.
private final class WeakDataBox: @unchecked Sendable {
  // Safe: set and read on the test's thread only (the engine runs the function inline).
  weak var box: DataBox?
}
