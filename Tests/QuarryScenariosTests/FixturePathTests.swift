import Quarry
import Testing
@testable import QuarryScenarios

/// The validator's lazy paths (`FixturePath`, specs20) write the text the eager `JSONPath`
/// strings were, and messages name the same places at every depth.
@Suite struct FixturePathTests {
  /// Member names written plainly, quoted, empty, non-ASCII and `$`-led.
  static let names = ["queryKey", "a b", "", "$fn", "café", "日本", "x\"y", "0", "-", "k.l", "😀"]

  /// The eager text: `JSONPath.member` and `.element` applied step by step.
  static func eager(_ start: String, _ steps: [Either]) -> String {
    steps.reduce(start) { text, step in
      switch step {
      case .name(let key): JSONPath.member(text, key)
      case .index(let index): JSONPath.element(text, index)
      }
    }
  }

  enum Either { case name(String), index(Int) }

  @Test func textIsTheEagerPathAtEveryDepth() {
    var g = SplitMix64(seed: 20)
    for start in [JSONPath.root, "steps", "client.defaultOptions", "steps[3].tick[0]"] {
      for _ in 0..<400 {
        var steps: [Either] = []
        var path = start == JSONPath.root ? FixturePath.root : FixturePath(start)
        #expect(path.text == start)
        for _ in 0..<Int(g.next() % 9) {
          if g.next() % 3 == 0 {
            let index = Int(g.next() % 12)
            steps.append(.index(index))
            path = path.element(index)
          } else {
            let key = Self.names[Int(g.next() % UInt64(Self.names.count))]
            steps.append(.name(key))
            path = path.member(key)
          }
          #expect(path.text == Self.eager(start, steps))
        }
      }
    }
  }

  @Test func deepPathsAreWrittenWhole() {
    var path = FixturePath.root
    var steps: [Either] = []
    for depth in 0..<1_500 {
      if depth % 2 == 0 { path = path.member("a"); steps.append(.name("a")) } else { path = path.element(0); steps.append(.index(0)) }
    }
    #expect(path.text == Self.eager(JSONPath.root, steps))
    #expect(path.text.hasPrefix("a[0].a[0]"))
  }

  /// Malformed fixtures at depths 0 to 7 and deeper data: the whole message, file and path.
  static let messages: [(steps: String, extra: String, message: String)] = [
    (#"[{"clear":{}}]"#, #""client":{"defaultOptions":{"queries":{"retry":{"$fn":"nope"}}}},"#,
     #"f/dedup-001.json: client.defaultOptions.queries.retry.$fn: unknown recipe "nope" here; allowed: failureCountLessThan, const"#),
    (#"[{"clear":{}}]"#, #""client":{"queryCache":{"onSuccess":1}},"#,
     "f/dedup-001.json: client.queryCache.onSuccess: expected true, found 1"),
    (#"[{"fetchQuery":{"queryKey":["a",{"b c":[1,{"$fn":"const"}]}],"queryFn":"todos"}}]"#, "",
     #"f/dedup-001.json: steps[0].fetchQuery.queryKey[1]["b c"][1]: expected plain data; a $fn recipe stands only for a whole option value"#),
    (#"[{"clear":{}},{"expect":{"result":{"nobody":{}}}}]"#, "",
     #"f/dedup-001.json: steps[1].expect.result.nobody: expected an observer declared by an earlier observe or createObserver, found "nobody" (none is declared yet)"#),
    (#"[{"observe":{"observer":"o","options":{"queryKey":["k"],"queryFn":"todos"}}},{"expect":{"received":{"o":[{"data":1},{"data":{"x":[{"$undefined":false}]}}]}}}]"#, "",
     #"f/dedup-001.json: steps[1].expect.received.o[1].data.x[0]: expected exactly {"$undefined":true}"#),
    (#"[{"tick":[{"clear":{}},{"fetchQuery":{"queryKey":["k"],"queryFn":"nope"}}]}]"#, "",
     #"f/dedup-001.json: steps[0].tick[1].fetchQuery.queryFn: expected a function declared in "functions" or "$skipToken", found "nope" (declared: todos)"#),
    (#"[{"clear":{}}]"#, #""callbacks":{"c d":{"do":[{"invalidateQueries":{"filters":{"queryKey":[{"é":{"$fn":1}}]}}}]}},"#,
     #"f/dedup-001.json: callbacks["c d"].do[0].invalidateQueries.filters.queryKey[0].é: expected plain data; a $fn recipe stands only for a whole option value"#),
  ]

  @Test func messagesNameTheirPlaceAtEveryDepth() {
    for (steps, extra, message) in Self.messages {
      do {
        _ = try FixtureDecoder.decode(text: BrokenFixture.with(steps: steps, extra: extra), file: "f/dedup-001.json")
        Issue.record("accepted: \(steps)")
      } catch {
        #expect(error.description == message)
      }
    }
  }

  @Test func deepDataNamesItsPlace() {
    let depth = 600
    let data = String(repeating: #"{"a":["#, count: depth) + #"{"$undefined":1}"# + String(repeating: "]}", count: depth)
    let text = BrokenFixture.with(steps: #"[{"setQueryData":{"queryKey":["k"],"data":\#(data)}}]"#)
    do {
      _ = try FixtureDecoder.decode(text: text, file: "dedup-001.json")
      Issue.record("accepted")
    } catch {
      #expect(error.path == "steps[0].setQueryData.data" + String(repeating: ".a[0]", count: depth))
      #expect(error.expected == #"expected exactly {"$undefined":true}"#)
    }
  }
}
