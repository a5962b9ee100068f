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

  /// A step's "at", "as" and operation, found in one walk over its members.
  @Test func aStepsMembersAreFoundInOneWalk() throws {
    let text = BrokenFixture.with(steps: #"[{"as":"a","fetchQuery":{"queryKey":["k"],"queryFn":"todos"},"at":5},{"at":7,"clear":{}},{"tick":[{"as":"b","fetchQuery":{"queryKey":["k"],"queryFn":"todos"}}]}]"#)
    let scenario = try FixtureDecoder.decode(text: text, file: "dedup-001.json")
    #expect(scenario.steps.map(\.operation) == ["fetchQuery", "clear", "tick"])
    #expect(scenario.steps.map(\.at) == [5, 7, nil])
    #expect(scenario.steps[0].handle == "a")
    #expect(scenario.steps[0].arguments == ["queryKey": ["k"], "queryFn": "todos"])
    #expect(scenario.steps[2].substeps.first?.operation == "fetchQuery")
    for (steps, path, expected) in [
      (#"[{"at":1,"zz":{},"yy":{}}]"#, "steps[0].yy", "unknown operation \"yy\""),
      (#"[{"at":1,"as":"x"}]"#, "steps[0]", "expected one operation member"),
      (#"[{"clear":{},"reset":{}}]"#, "steps[0]", "expected exactly one operation member, found \"clear\", \"reset\""),
      (#"[{"at":3,"clear":{}},{"at":2,"clear":{}}]"#, "steps[1].at", "expected a time ≥ 3"),
      (#"[{"tick":[{"at":1,"clear":{}}]}]"#, "steps[0].tick[0].at", "no \"at\" inside a tick"),
      (#"[{"as":"h","clear":{}}]"#, "steps[0].as", "no \"as\": clear records nothing"),
    ] {
      do {
        _ = try FixtureDecoder.decode(text: BrokenFixture.with(steps: steps), file: "dedup-001.json")
        Issue.record("accepted: \(steps)")
      } catch {
        #expect(error.path == path)
        #expect(error.expected.contains(expected), "\(error.expected)")
      }
    }
  }
}

