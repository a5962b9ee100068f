import Quarry
import Testing
@testable import QuarryScenarios

/// `FixtureValidator.forEachMember` (specs20) checks members unsorted and sorts only to name an
/// error: the error must be the one a walk in `sortedNames` order throws first.
@Suite struct MemberOrderTests {
  /// Random objects whose members pass or fail: the error is the first failing name's in sorted order.
  @Test func theErrorIsTheFirstFailingNameInOrder() {
    let validator = FixtureValidator(file: "x.json")
    var g = SplitMix64(seed: 14)
    let names = ["a", "b", "queryKey", "staleTime", "gcTime", "enabled", "B", "a1", "é", "z", "_", "$x", "retry"]
    for _ in 0..<2_000 {
      var members: [String: JSONValue] = [:]
      for name in names where g.next() % 3 == 0 { members[name] = g.next() % 4 == 0 ? "bad" : 1 }
      let sortedFirst = FixtureValidator.sortedNames(members.keys).first { members[$0] == "bad" }
      var checked = 0
      do {
        try validator.forEachMember(members) { name, value throws(FixtureError) in
          checked += 1
          if value == "bad" { throw validator.fail(FixturePath.root.member(name), "bad") }
        }
        #expect(sortedFirst == nil)
        #expect(checked == members.count)
      } catch {
        #expect(error.path == sortedFirst.map { JSONPath.member(JSONPath.root, $0) }, "\(members)")
      }
    }
  }

  /// Through the decoder: options that fail at several names name the first in order.
  @Test func queryOptionsNameTheirFirstBadOption() {
    let text = BrokenFixture.with(steps: #"[{"fetchQuery":{"queryKey":["k"],"queryFn":"todos","staleTime":"x","gcTime":"y","retryDelay":true,"enabled":3}}]"#)
    for _ in 0..<20 {
      do {
        _ = try FixtureDecoder.decode(text: text, file: "dedup-001.json")
        Issue.record("accepted")
      } catch {
        #expect(error.path == "steps[0].fetchQuery.enabled")
      }
    }
  }
}
