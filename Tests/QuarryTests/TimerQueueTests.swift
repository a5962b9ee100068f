import Testing
@testable import Quarry
import QuarryScenarios

/// The timer heap against a straightforward model, and the schedulers at a scale where a
/// linear structure would not finish.
@Suite struct TimerQueueTests {

  @Test(arguments: [1, 2, 3])
  func theHeapPopsWhatALinearScanWould(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var queue = TimerQueue<Int, String>()
    var model: [(id: UInt64, due: Int, payload: String)] = []
    var nextID: UInt64 = 0
    var mismatch: String?
    for step in 0..<6_000 where mismatch == nil {
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<5:
        nextID += 1
        let due = Int.random(in: 0..<50, using: &random)
        queue.insert(id: nextID, due: due, "t\(nextID)")
        model.append((nextID, due, "t\(nextID)"))
      case 5..<8:
        let id = UInt64.random(in: 0...nextID + 1, using: &random)
        let removed = queue.remove(id)
        let index = model.firstIndex { $0.id == id }
        if removed != index.map({ model[$0].payload }) { mismatch = "step \(step): remove(\(id)) gave \(removed ?? "nil")" }
        if let index { model.remove(at: index) }
      default:
        let time = Int.random(in: 0..<50, using: &random)
        let popped = queue.popFirst(dueBy: time)
        let best = model.indices.filter { model[$0].due <= time }
          .min { (model[$0].due, model[$0].id) < (model[$1].due, model[$1].id) }
        if popped?.id != best.map({ model[$0].id }) || popped?.payload != best.map({ model[$0].payload }) {
          mismatch = "step \(step): popFirst(dueBy: \(time)) gave \(popped.map { "\($0.id)" } ?? "nil")"
        }
        if let best { model.remove(at: best) }
      }
      if queue.count != model.count { mismatch = "step \(step): count \(queue.count), model \(model.count)" }
    }
    #expect(mismatch == nil)
    #expect(queue.firstDue() == model.map(\.due).min())
  }

  /// `insert` appends a timer that does not precede its parent without sifting (most timers:
  /// gc timers of equal delay, later numbers). Equal due times behind the parent, later ones,
  /// and now and then an earlier one or a re-inserted lower number (which must sift up past
  /// several levels) pop in (due, number) order.
  @Test func timersAppendedBehindTheirParentAndSiftedOnesPopInOrder() {
    var random = SplitMix64(seed: 5)
    var queue = TimerQueue<Int, UInt64>()
    var model: [(due: Int, id: UInt64)] = []
    var due = 100
    for id in UInt64(1)...2_000 {
      switch Int.random(in: 0..<10, using: &random) {
      case 0: due = Int.random(in: 0..<due + 1, using: &random)  // earlier: sifts up
      case 1: due += 1
      default: break  // equal due, later number: appended
      }
      queue.insert(id: id, due: due, id)
      model.append((due, id))
    }
    // Lower numbers again (an interval keeps its number), with the earliest due time: they must
    // reach the top.
    #expect(queue.remove(3) == 3)
    queue.insert(id: 3, due: -1, 3)
    _ = model.firstIndex { $0.id == 3 }.map { model.remove(at: $0) }
    model.append((-1, 3))
    model.sort { ($0.due, $0.id) < ($1.due, $1.id) }
    var popped: [UInt64] = []
    while let next = queue.popFirst(dueBy: .max) { popped.append(next.id) }
    #expect(popped == model.map(\.id))
    #expect(queue.count == 0)
  }

  @Test func aVirtualSchedulerCreatesAndClears200kTimers() {
    let scheduler = VirtualScheduler()
    let fired = Counter()
    var ids: [TimerID] = []
    ids.reserveCapacity(200_000)
    for i in 0..<200_000 { ids.append(scheduler.setTimeout(Double(i % 1_000)) { fired.increment() }) }
    #expect(scheduler.pendingTimerCount == 200_000)
    #expect(scheduler.nextTimerDue == 0)
    var random = SplitMix64(seed: 7)
    ids.shuffle(using: &random)
    for id in ids.dropLast(10) { scheduler.clearTimeout(id) }
    #expect(scheduler.pendingTimerCount == 10)
    scheduler.advance(by: 1_000)
    #expect(fired.value == 10)
    #expect(scheduler.pendingTimerCount == 0)
    #expect(scheduler.nextTimerDue == nil)
  }

  @Test(arguments: [0, 1, 150])
  func removingManyAtOnceLeavesWhatRemovingThemOneByOneLeaves(kept: Int) {
    var random = SplitMix64(seed: UInt64(kept) + 11)
    var one = TimerQueue<Int, Int>()
    var many = TimerQueue<Int, Int>()
    for id in UInt64(1)...300 {
      let due = Int.random(in: 0..<40, using: &random)
      one.insert(id: id, due: due, Int(id))
      many.insert(id: id, due: due, Int(id))
    }
    let removed = Array((UInt64(1)...300).shuffled(using: &random).dropFirst(kept)) + [999]
    for id in removed { one.remove(id) }
    many.remove(all: removed)
    #expect(many.count == kept && one.count == kept)
    var popped: ([UInt64], [UInt64]) = ([], [])
    while let next = one.popFirst(dueBy: 100) { popped.0.append(next.id) }
    while let next = many.popFirst(dueBy: 100) { popped.1.append(next.id) }
    #expect(popped.0 == popped.1 && popped.1.count == kept)
  }

  /// `remove(all:)` empties the map at once only when the ids are exactly the live timers: as
  /// many ids as live timers with one of them unknown must still leave the live one it missed.
  @Test(arguments: [false, true])
  func removingExactlyTheLiveTimersEmptiesTheQueue(oneUnknown: Bool) {
    var queue = TimerQueue<Int, Int>()
    for id in UInt64(1)...200 { queue.insert(id: id, due: Int(id % 7), Int(id)) }
    var ids = Array((UInt64(1)...200).reversed())
    if oneUnknown { ids[17] = 999 }  // 183 stays live
    queue.remove(all: ids)
    if oneUnknown {
      #expect(queue.count == 1 && queue.contains(183))
      #expect(queue.popFirst(dueBy: 100)?.id == 183)
    } else {
      #expect(queue.count == 0 && queue.firstDue() == nil)
    }
    queue.insert(id: 300, due: 1, 300)
    #expect(queue.count == 1 && queue.popFirst(dueBy: 100)?.payload == 300)
  }

  @Test func aVirtualClientClearsAndCollects100kQueries() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    for i in 0..<50_000 { _ = client.setQueryData(["a", .number(Double(i))], value: i) }
    for i in 0..<50_000 { _ = client.setQueryData(["b", .number(Double(i))], value: i) }
    #expect(scheduler.pendingTimerCount == 100_000)  // one gc timer per query
    client.removeQueries(QueryFilters(queryKey: ["a"]))
    #expect(scheduler.pendingTimerCount == 50_000)
    #expect(client.queryCache.getAll().count == 50_000)
    scheduler.advance(by: 5 * 60 * 1000)  // the default gcTime
    #expect(client.queryCache.getAll().isEmpty)
    #expect(scheduler.pendingTimerCount == 0)
  }
}
