import Testing
@testable import Quarry
import QuarryScenarios

/// The timer payload store (an array window over recent creation numbers plus a table) against
/// a `Dictionary` model, under the patterns the schedulers make and the ones that push numbers
/// out of the window.
@Suite struct TimerPayloadsTests {
  /// Runs `steps` random operations; `nextNumber` picks the number an insertion uses (given the
  /// last one used and the live ones), `removable` one to remove. Returns the first mismatch.
  private func check(seed: UInt64, steps: Int, insertWeight: Int, nextNumber: (inout SplitMix64, UInt64, [UInt64: Int]) -> UInt64) -> String? {
    var random = SplitMix64(seed: seed)
    var store = TimerPayloads<Int>()
    var model: [UInt64: Int] = [:]
    var last: UInt64 = 0
    for step in 0..<steps {
      if Int.random(in: 0..<10, using: &random) < insertWeight {
        let id = nextNumber(&random, last, model)
        guard model[id] == nil else { continue }
        last = max(last, id)
        store.insert(id, step)
        model[id] = step
      } else {
        // Mostly live numbers (oldest first half the time), sometimes unknown ones.
        let id: UInt64
        switch Int.random(in: 0..<4, using: &random) {
        case 0: id = UInt64.random(in: 0...last + 2, using: &random)
        case 1: id = model.keys.min() ?? 0
        default: id = model.keys.randomElement(using: &random) ?? 0
        }
        let removed = store.remove(id)
        if removed != model.removeValue(forKey: id) { return "step \(step): remove(\(id)) gave \(removed.map(String.init) ?? "nil")" }
      }
      if store.count != model.count { return "step \(step): count \(store.count), model \(model.count)" }
      if step % 97 == 0 {
        for id in model.keys where !store.contains(id) { return "step \(step): contains(\(id))" }
        for _ in 0..<20 {
          let id = UInt64.random(in: 0...last + 1, using: &random)
          if store.contains(id) != (model[id] != nil) { return "step \(step): contains(\(id))" }
        }
      }
    }
    for (id, payload) in model where store.remove(id) != payload { return "final remove(\(id))" }
    return store.count == 0 ? nil : "left \(store.count)"
  }

  @Test(arguments: [1, 2, 3])
  func sequentialNumbersMatchADictionary(seed: UInt64) {
    #expect(check(seed: seed, steps: 20_000, insertWeight: 5) { _, last, _ in last + 1 } == nil)
  }

  @Test(arguments: [4, 5])
  func reinsertedOldNumbersMatchADictionary(seed: UInt64) {
    // An interval re-inserted with its old number after it fired: numbers below the window.
    #expect(check(seed: seed, steps: 20_000, insertWeight: 6) { random, last, _ in
      Int.random(in: 0..<5, using: &random) == 0 ? UInt64.random(in: 1...last + 1, using: &random) : last + 1
    } == nil)
  }

  @Test(arguments: [6, 7])
  func skippedNumbersMatchADictionary(seed: UInt64) {
    // Gaps above the window, short and long.
    #expect(check(seed: seed, steps: 20_000, insertWeight: 5) { random, last, _ in
      last + (Int.random(in: 0..<8, using: &random) == 0 ? UInt64.random(in: 2...5_000, using: &random) : 1)
    } == nil)
  }

  @Test func aNumberReinsertedBeforeTheFirstLiveOneIsFound() {
    // An interval fires (its number leaves the window's front) and is re-inserted with the
    // same number while later numbers are live.
    var store = TimerPayloads<Int>()
    for id in UInt64(1)...4 { store.insert(id, Int(id)) }
    #expect(store.remove(1) == 1)
    #expect(store.remove(2) == 2)
    store.insert(1, 10)
    #expect(store.remove(3) == 3)
    #expect(store.remove(4) == 4)
    #expect(store.count == 1 && store.contains(1))
    #expect(store.remove(1) == 10)
    #expect(store.count == 0)
  }

  @Test func aLongLivedTimerDoesNotHoldAGrowingWindow() {
    // Number 1 stays live while 100k later ones come and go: the window moves it out and
    // stays small.
    var store = TimerPayloads<Int>()
    store.insert(1, 1)
    var widest = 0
    for id in UInt64(2)...100_000 {
      store.insert(id, Int(id))
      if id > 10 { #expect(store.remove(id - 8) == Int(id - 8)) }
      widest = max(widest, store.windowSpan)
    }
    #expect(widest < 200)
    #expect(store.count == 1 + 9)
    #expect(store.contains(1) && store.remove(1) == 1)
    #expect(!store.contains(1) && store.remove(1) == nil)
    #expect(store.remove(2) == 2)
    for id in UInt64(99_993)...100_000 { #expect(store.remove(id) == Int(id)) }
    #expect(store.count == 0)
  }
  /// `containsAll` (the bulk cancel's check) answers what `contains` of each id answers: with
  /// the window alone (read directly) and with payloads outside it, for live ids, a removed one
  /// (a hole), ids below and past the window, and none.
  @Test func containsAllAnswersWhatContainsOfEachAnswers() {
    var store = TimerPayloads<Int>()
    for id in UInt64(50)...120 { store.insert(id, Int(id)) }
    store.remove(60)
    let sets: [[UInt64]] = [
      [], Array(50...59), Array(61...120), [50, 60], [49], [121], [0], [UInt64.max], [120, 50, 77],
    ]
    func check(_ label: String) {
      for ids in sets {
        #expect(store.containsAll(ids) == ids.allSatisfy { store.contains($0) }, "\(label) \(ids)")
      }
    }
    check("window")
    #expect(store.containsAll(Array(50...59)) && !store.containsAll([50, 60]) && !store.containsAll([49]))
    // A far number goes outside the window: checked through `contains`.
    store.insert(10_000, 1)
    check("outside")
    #expect(store.containsAll([10_000, 50]) && !store.containsAll([10_001]))
  }
}
