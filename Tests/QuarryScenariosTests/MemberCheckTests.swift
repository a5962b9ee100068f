import Quarry
import Testing
@testable import QuarryScenarios

/// The validator's member checks (specs20): `forEachMember` checks members unsorted and sorts only
/// to name an error, which must be the one a walk in `sortedNames` order throws first;
/// `isCertainlyListed` answers as `contains` where it answers; the member lists made once are the lists made per call before.
@Suite struct MemberCheckTests {
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

  @Test func isCertainlyListedIsContainsForASCIINames() {
    let lists = [FixtureVocabulary.queryOptions, FixtureValidator.queryCheckMembers, [], ["", "a"], ["é", "e\u{301}", "K"]]
    let names = FixtureVocabulary.queryOptions + FixtureVocabulary.queryStateFields
      + ["", "a", "K", "é", "e\u{301}", "\u{212A}", "query\u{212A}ey", "queryKe", "queryKeys", "QueryKey"]
    for list in lists {
      for name in names {
        let listed = FixtureValidator.isCertainlyListed(name, in: list)
        if listed { #expect(list.contains(name), "\(name)") }
        if name.utf8.allSatisfy({ $0 < 0x80 }) && list.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) {
          #expect(listed == list.contains(name), "\(name)")
        }
      }
    }
  }

  /// A name equal to an allowed one by `String`'s equality but not in length is still allowed.
  @Test func onlyMembersStillAsksContains() throws {
    let validator = FixtureValidator(file: "x.json")
    try validator.onlyMembers(["query\u{212A}ey": 1, "queryFn": "f"], FixtureVocabulary.queryOptions, .root, "query option")
    #expect(throws: FixtureError.self) { try validator.onlyMembers(["queryKez": 1], FixtureVocabulary.queryOptions, .root, "query option") }
  }

  @Test func memberListsAreThoseMadePerCall() {
    #expect(FixtureValidator.queryCheckMembers == ["queryKey", "exists"] + FixtureVocabulary.queryStateFields)
    #expect(FixtureValidator.mutationCheckMembers == ["mutationId", "exists"] + FixtureVocabulary.mutationStateFields)
    #expect(FixtureValidator.refetchFilterMembers == FixtureVocabulary.filterMembers + ["refetchType"])
  }
}
