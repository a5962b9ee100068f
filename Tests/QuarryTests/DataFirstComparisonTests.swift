import Testing
@testable import Quarry

/// An observer's state-result update compares the data first when that needs no call
/// (`dataDiffersCheaply`): it must never call data different that `sameData` calls the same, and
/// for two boxes of common primitives (or one box and none) it must answer as `sameData` does.
@Suite struct DataFirstComparisonTests {
  private struct Point: Sendable, Equatable {
    let x: Int
  }

  @Test func aCheapDifferenceIsADifferenceOfSameData() {
    let values: [(any Sendable)?] = [nil, 1, 1, 2, 1.0, 2.5, "a", "a", "b", true, false, Point(x: 1), Point(x: 1), [1, 2]]
    let boxes: [DataBox?] = values.map { $0.map { DataBox($0) } }
    var decided = 0
    for a in boxes {
      for b in boxes + [a] {
        let cheap = dataDiffersCheaply(a, b)
        let same = sameData(a, b)
        if cheap { #expect(!same) }
        let bothCommon = (a?.isCommonPrimitive ?? false) && (b?.isCommonPrimitive ?? false)
        if bothCommon || (a == nil) != (b == nil) {
          #expect(cheap == !same)
          if cheap { decided += 1 }
        }
      }
    }
    #expect(decided > 0)
  }

  /// An observer hears a write that changes only the data (the comparison stops at the data),
  /// and not a write of an equal primitive (a new box, the same value).
  @Test func aWriteOfOnlyTheDataNotifiesAndAnEqualOneDoesNot() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["k"], value: 1)
    var options = QueryOptions(queryKey: ["k"])
    options.staleTime = .value(.milliseconds(.infinity))
    let observer = QueryObserver(client: client, options: options)
    let heard = Log()
    let unsubscribe = observer.subscribe { heard.append("\($0.data as? Int ?? -1)") }
    defer { unsubscribe() }
    client.setQueryData(["k"], value: 2)
    client.setQueryData(["k"], value: 3)
    client.setQueryData(["k"], value: 3)
    #expect(heard.entries == ["2", "3"])
  }
}
