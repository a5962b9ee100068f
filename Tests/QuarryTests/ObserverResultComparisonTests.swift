import Testing
@testable import Quarry
import QuarryScenarios

/// `QueryObserverResultBox.hasChangedProperties(to:)` (the observer's comparison, which leaves
/// out the derived flags) answers as `changedProperties(from:)` names: for random pairs of
/// results differing in any member, infinite flags included.
@Suite struct ObserverResultComparisonTests {
  private struct Error1: Error {}

  @Test func theBoxComparisonAgreesWithTheNamedProperties() {
    var rng = SplitMix64(seed: 0x5eed_0b58)
    let boxes = [DataBox(1), DataBox(1), DataBox(2), DataBox("a"), DataBox([1, 2] as [Int])]
    let errors = [ErrorBox(Error1()), ErrorBox(Error1())]
    var differing = 0
    for _ in 0..<20_000 {
      let a = randomResult(&rng, boxes, errors)
      var b = a
      // Change zero to three members of the copy.
      for _ in 0..<Int.random(in: 0...3, using: &rng) { mutate(&b, &rng, boxes, errors) }
      let named = !b.changedProperties(from: a).isEmpty
      #expect(QueryObserverResultBox.make(a).hasChangedProperties(to: b) == named)
      if named { differing += 1 }
    }
    #expect(differing > 10_000)
  }

  private func randomResult(_ rng: inout SplitMix64, _ boxes: [DataBox], _ errors: [ErrorBox]) -> QueryObserverResult {
    var result = QueryObserverResult(
      status: .pending, fetchStatus: .idle, dataBox: nil, dataUpdatedAt: 0, errorBox: nil, errorUpdatedAt: 0,
      failureCount: 0, failureReasonBox: nil, errorUpdateCount: 0, isFetched: false, isFetchedAfterMount: false,
      isPlaceholderData: false, isStale: false, isEnabled: true
    )
    for _ in 0..<8 { mutate(&result, &rng, boxes, errors) }
    return result
  }

  private func mutate(_ r: inout QueryObserverResult, _ rng: inout SplitMix64, _ boxes: [DataBox], _ errors: [ErrorBox]) {
    func flip(_ b: Bool) -> Bool { !b }
    switch Int.random(in: 0..<16, using: &rng) {
    case 0: r.status = [.pending, .success, .error].randomElement(using: &rng)!
    case 1: r.fetchStatus = [.idle, .fetching, .paused].randomElement(using: &rng)!
    case 2: r.dataBox = Bool.random(using: &rng) ? nil : boxes.randomElement(using: &rng)!
    case 3: r.dataUpdatedAt = Double(Int.random(in: 0...1, using: &rng))
    case 4: r.errorBox = Bool.random(using: &rng) ? nil : errors.randomElement(using: &rng)!
    case 5: r.errorUpdatedAt = Double(Int.random(in: 0...1, using: &rng))
    case 6: r.failureCount = Int.random(in: 0...1, using: &rng)
    case 7: r.failureReasonBox = Bool.random(using: &rng) ? nil : errors.randomElement(using: &rng)!
    case 8: r.errorUpdateCount = Int.random(in: 0...1, using: &rng)
    case 9: r.isFetched = flip(r.isFetched)
    case 10: r.isFetchedAfterMount = flip(r.isFetchedAfterMount)
    case 11: r.isPlaceholderData = flip(r.isPlaceholderData)
    case 12: r.isStale = flip(r.isStale)
    case 13: r.isEnabled = flip(r.isEnabled)
    default:
      if Int.random(in: 0..<4, using: &rng) == 0 {
        r.infinite = nil
      } else {
        var flags = r.infinite ?? InfiniteQueryFlags(
          hasNextPage: false, hasPreviousPage: false, isFetchingNextPage: false, isFetchingPreviousPage: false,
          isFetchNextPageError: false, isFetchPreviousPageError: false)
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: flags.hasNextPage.toggle()
        case 1: flags.hasPreviousPage.toggle()
        case 2: flags.isFetchingNextPage.toggle()
        case 3: flags.isFetchingPreviousPage.toggle()
        case 4: flags.isFetchNextPageError.toggle()
        default: flags.isFetchPreviousPageError.toggle()
        }
        r.infinite = flags
      }
    }
  }
}
