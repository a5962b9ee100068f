import Synchronization
import Testing
@testable import Quarry
import QuarryScenarios

/// `ListenerRegistry` keeps its only listener apart from its array (one subscriber needs no
/// buffer). Every way in and out of that state must keep the listeners, their order, their
/// calls and the inline count as one array kept them.
@Suite struct ListenerRegistryTests {
  /// A random sequence of adds (plain and inline) and removals, checked after every step
  /// against a plain array of the live ids.
  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
  func matchesAnArrayThroughAddsAndRemovals(seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    var registry = ListenerRegistry<Int>()
    var model: [(id: UInt64, inline: Bool)] = []
    let calls = Mutex<[UInt64]>([])
    for _ in 0..<300 {
      if model.isEmpty || Int.random(in: 0..<3, using: &generator) != 0 {
        let inline = Int.random(in: 0..<4, using: &generator) == 0
        let box = Mutex<UInt64>(0)
        let id = registry.add({ _ in calls.withLock { $0.append(box.withLock { $0 }) } }, inline: inline)
        box.withLock { $0 = id }
        model.append((id, inline))
      } else {
        let victim = model.remove(at: Int.random(in: 0..<model.count, using: &generator))
        let taken = registry.take(victim.id)
        #expect(taken?.id == victim.id)
        #expect(taken?.isActive.load(ordering: .relaxed) == false)
        #expect(registry.take(victim.id) == nil)
      }
      #expect(registry.count == model.count)
      #expect(registry.isEmpty == model.isEmpty)
      #expect(registry.hasInlineListeners == model.contains { $0.inline })
      #expect(registry.onlyListener?.id == (model.count == 1 && !model[0].inline ? model[0].id : nil))
      calls.withLock { $0 = [] }
      registry.notify(0)
      #expect(calls.withLock { $0 } == model.map(\.id))
    }
    let all = registry.takeAll()
    #expect(all.map(\.id) == model.map(\.id))
    #expect(all.allSatisfy { !$0.isActive.load(ordering: .relaxed) })
    #expect(registry.isEmpty && registry.count == 0 && !registry.hasInlineListeners)
  }

  /// An observer's registry keeps its listeners' functions as given
  /// (`Listeners<ObserverResultListener>`): through one listener, two and back to one, each
  /// write reaches every subscribed listener once, in subscription order, with the data.
  @Test func anObserversListenersAreCalledInOrderThroughEveryShape() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    client.setQueryData(["k"], value: 0)
    var options = QueryOptions(queryKey: ["k"])
    options.staleTime = .value(.milliseconds(.infinity))
    let observer = QueryObserver(client: client, options: options)
    let calls = Mutex<[String]>([])
    func listener(_ name: String) -> @Sendable (QueryObserverResult) -> Void {
      { result in calls.withLock { $0.append("\(name)=\(result.data as? Int ?? -1)") } }
    }
    func write(_ value: Int) -> [String] {
      calls.withLock { $0 = [] }
      client.setQueryData(["k"], value: value)
      scheduler.runUntilIdle()
      return calls.withLock { $0 }
    }
    let unsubscribeA = observer.subscribe(listener("a"))
    #expect(write(1) == ["a=1"])
    let unsubscribeB = observer.subscribe(listener("b"))
    let unsubscribeC = observer.subscribe(listener("c"))
    #expect(write(2) == ["a=2", "b=2", "c=2"])
    unsubscribeB()
    #expect(write(3) == ["a=3", "c=3"])
    unsubscribeA()
    #expect(write(4) == ["c=4"])
    unsubscribeC()
    #expect(write(5) == [])
  }

  /// A subscription's handle holds the owner while its listener is registered, whichever of
  /// the two storages holds it, and lets go when it is taken.
  @Test func handlesLetGoOfTheOwnerWhenTheirListenerLeaves() {
    final class Owner {}
    let owner = Owner()
    let lock = EngineLock(jobScheduler: nil)
    var registry = ListenerRegistry<Int>()
    let first = registry.add(ListenerFunction { _ in }, owner: owner, lock: lock)
    #expect(first.owner === owner)
    let second = registry.add(ListenerFunction { _ in }, owner: owner, lock: lock)
    #expect(registry.count == 2)
    #expect(registry.take(first.id) != nil)
    #expect(first.owner == nil && second.owner === owner)
    #expect(registry.onlyListener?.id == second.id)
    #expect(registry.take(second.id) != nil)
    #expect(second.owner == nil && registry.isEmpty)
  }
}
