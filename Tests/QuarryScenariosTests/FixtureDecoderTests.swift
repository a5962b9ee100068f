import Quarry
import Testing
@testable import QuarryScenarios

/// A broken fixture, where the decoder must point, and what its message must say.
struct BrokenFixture: Sendable, CustomTestStringConvertible {
  var name: String
  var text: String
  var path: String
  var expected: String
  var file = "dedup-001.json"

  var testDescription: String { name }

  /// A fixture with these steps (a JSON array text), functions and extra top-level members.
  static func with(
    steps: String, functions: String = #"{"todos":[{"return":["a"]}]}"#, extra: String = ""
  ) -> String {
    #"{"format":1,"id":"dedup-001","title":"t",\#(extra)"functions":\#(functions),"steps":\#(steps)}"#
  }
}

@Suite struct FixtureDecoderTests {
  @Test func decodesTheReadmeExample() throws {
    let scenario = try FixtureDecoder.decode(text: SampleFixtures.dedup, file: "Specs/dedup/dedup-001.json")
    #expect(scenario.id == "dedup-001")
    #expect(scenario.file == "Specs/dedup/dedup-001.json")
    #expect(scenario.functions["todos"] == [Outcome(after: 100, result: .value(["buy milk"]))])
    #expect(scenario.client == ["defaultOptions": ["queries": ["retry": 0]]])
    #expect(scenario.steps.count == 3)
    #expect(scenario.steps[1].at == 10)
    #expect(scenario.steps[1].operation == "fetchQuery")
    #expect(scenario.steps[1].handle == "b")
    #expect(scenario.steps[1].arguments == ["queryKey": ["todos"], "queryFn": "todos"])
    #expect(scenario.steps[2].path == "steps[2].expect")
  }

  @Test func decodesTheTour() throws {
    let scenario = try FixtureDecoder.decode(text: SampleFixtures.tour, file: "tour-001.json")
    let todos = try #require(scenario.functions["todos"])
    #expect(todos[0] == Outcome(after: 10, result: .value(["$fn": "queryKey"]), times: 2))
    #expect(todos[1] == Outcome(after: nil, result: .error("boom"), readSignal: true))
    #expect(todos[2].times == nil)
    #expect(scenario.steps.first?.at == nil)
    #expect(scenario.steps.map(\.operation).contains("getOptimisticResult"))
  }

  @Test func everyOperationInTheTour() throws {
    let scenario = try FixtureDecoder.decode(text: SampleFixtures.tour, file: "tour-001.json")
    #expect(Set(scenario.steps.map(\.operation)) == Set(FixtureVocabulary.operations))
  }

  static let corpus: [BrokenFixture] = [
    BrokenFixture(name: "not JSON", text: "{\n  \"format\": 1,\n  oops\n}", path: "3:3", expected: "valid JSON: expected a member name"),
    BrokenFixture(name: "duplicate key", text: #"{"format":1,"format":1}"#, path: "1:13", expected: #"no duplicate member "format""#),
    BrokenFixture(name: "not an object", text: "[]", path: "$", expected: "a JSON object (the fixture)"),
    BrokenFixture(name: "unknown top-level member", text: BrokenFixture.with(steps: "[]", extra: #""notes":"x","#), path: "notes", expected: "unknown top-level member \"notes\"; allowed: format, id, title"),
    BrokenFixture(name: "format 2", text: #"{"format":2}"#, path: "format", expected: "expected 1, found 2"),
    BrokenFixture(name: "format missing", text: #"{"id":"dedup-001"}"#, path: "format", expected: "missing"),
    BrokenFixture(name: "bad id", text: #"{"format":1,"id":"Dedup-1"}"#, path: "id", expected: "<area>-NNN"),
    BrokenFixture(name: "id differs from file", text: #"{"format":1,"id":"dedup-002"}"#, path: "id", expected: #"expected the file name "dedup-001", found "dedup-002""#),
    BrokenFixture(name: "long title", text: #"{"format":1,"id":"dedup-001","title":"\#(String(repeating: "x", count: 81))"}"#, path: "title", expected: "at most 80 characters, found 81"),
    BrokenFixture(name: "empty title", text: #"{"format":1,"id":"dedup-001","title":""}"#, path: "title", expected: "non-empty string"),
    BrokenFixture(name: "source not string", text: BrokenFixture.with(steps: "[]", extra: #""source":1,"#), path: "source", expected: "a string"),
    BrokenFixture(name: "steps missing", text: #"{"format":1,"id":"dedup-001","title":"t"}"#, path: "steps", expected: "missing"),
    BrokenFixture(name: "steps empty", text: BrokenFixture.with(steps: "[]"), path: "steps", expected: "non-empty array of steps"),
    BrokenFixture(name: "client member", text: BrokenFixture.with(steps: #"[{"clear":{}}]"#, extra: #""client":{"persister":1},"#), path: "client.persister", expected: "unknown client member"),
    BrokenFixture(name: "client default option", text: BrokenFixture.with(steps: #"[{"clear":{}}]"#, extra: #""client":{"defaultOptions":{"queries":{"stale":1}}},"#), path: "client.defaultOptions.queries.stale", expected: "unknown query option \"stale\"; allowed: queryKey, queryFn"),
    BrokenFixture(name: "mutation default option", text: BrokenFixture.with(steps: #"[{"clear":{}}]"#, extra: #""client":{"defaultOptions":{"mutations":{"mutate":1}}},"#), path: "client.defaultOptions.mutations.mutate", expected: "unknown mutation option"),
    BrokenFixture(name: "mutationFn not a function", text: BrokenFixture.with(steps: #"[{"clear":{}}]"#, extra: #""client":{"defaultOptions":{"mutations":{"mutationFn":1}}},"#), path: "client.defaultOptions.mutations.mutationFn", expected: "a function declared in \"functions\""),
    BrokenFixture(name: "unknown callback", text: BrokenFixture.with(steps: #"[{"mutate":{"options":{"onSuccess":"nope"}}}]"#), path: "steps[0].mutate.options.onSuccess", expected: "a callback declared in \"callbacks\""),
    BrokenFixture(name: "unknown callback operation", text: BrokenFixture.with(steps: #"[{"clear":{}}]"#, extra: #""callbacks":{"c":{"do":[{"fetchQuery":{}}]}},"#), path: "callbacks.c.do[0]", expected: "exactly one of cancelQueries"),
    BrokenFixture(name: "callback return and throw", text: BrokenFixture.with(steps: #"[{"clear":{}}]"#, extra: #""callbacks":{"c":{"return":1,"throw":"x"}},"#), path: "callbacks.c", expected: "at most one of"),
    BrokenFixture(name: "mutate options and observer", text: BrokenFixture.with(steps: #"[{"mutate":{}}]"#), path: "steps[0].mutate", expected: "exactly one of \"options\", \"observer\""),
    BrokenFixture(name: "reset a query observer", text: BrokenFixture.with(steps: #"[{"observe":{"observer":"o","options":{"queryKey":["k"]}}},{"reset":{"observer":"o"}}]"#), path: "steps[1].reset.observer", expected: "a mutation observer"),
    BrokenFixture(name: "mutation check without id", text: BrokenFixture.with(steps: #"[{"expect":{"mutation":{"status":"idle"}}}]"#), path: "steps[0].expect.mutation.mutationId", expected: "missing"),
    BrokenFixture(name: "functions not object", text: BrokenFixture.with(steps: "[]", functions: "[]"), path: "functions", expected: "an object mapping function names"),
    BrokenFixture(name: "function name with $", text: BrokenFixture.with(steps: "[]", functions: #"{"$x":[{"return":1}]}"#), path: "functions.$x", expected: "does not start with '$'"),
    BrokenFixture(name: "no outcomes", text: BrokenFixture.with(steps: "[]", functions: #"{"todos":[]}"#), path: "functions.todos", expected: "non-empty array of outcomes"),
    BrokenFixture(name: "return and throw", text: BrokenFixture.with(steps: "[]", functions: #"{"todos":[{"return":1,"throw":"x"}]}"#), path: "functions.todos[0]", expected: "exactly one of \"return\", \"throw\", \"reject\", \"throwSync\", found \"return\", \"throw\""),
    BrokenFixture(name: "neither return nor throw", text: BrokenFixture.with(steps: "[]", functions: #"{"todos":[{"after":1}]}"#), path: "functions.todos[0]", expected: "found none"),
    BrokenFixture(name: "negative after", text: BrokenFixture.with(steps: "[]", functions: #"{"todos":[{"after":-1,"return":1}]}"#), path: "functions.todos[0].after", expected: "a whole number ≥ 0, found -1"),
    BrokenFixture(name: "fractional after", text: BrokenFixture.with(steps: "[]", functions: #"{"todos":[{"after":1.5,"return":1}]}"#), path: "functions.todos[0].after", expected: "a whole number ≥ 0, found 1.5"),
    BrokenFixture(name: "throw not string", text: BrokenFixture.with(steps: "[]", functions: #"{"todos":[{"throw":1}]}"#), path: "functions.todos[0].throw", expected: "an error message string"),
    BrokenFixture(name: "readSignal not bool", text: BrokenFixture.with(steps: "[]", functions: #"{"todos":[{"return":1,"readSignal":"yes"}]}"#), path: "functions.todos[0].readSignal", expected: "true or false"),
    BrokenFixture(name: "times zero", text: BrokenFixture.with(steps: "[]", functions: #"{"todos":[{"return":1,"times":0}]}"#), path: "functions.todos[0].times", expected: "a whole number ≥ 1 or \"forever\""),
    BrokenFixture(name: "after forever", text: BrokenFixture.with(steps: "[]", functions: #"{"todos":[{"return":1,"times":"forever"},{"return":2}]}"#), path: "functions.todos[1]", expected: "never reached"),
    BrokenFixture(name: "unknown outcome member", text: BrokenFixture.with(steps: "[]", functions: #"{"todos":[{"return":1,"delay":3}]}"#), path: "functions.todos[0].delay", expected: "unknown outcome member"),
    BrokenFixture(name: "unknown return recipe", text: BrokenFixture.with(steps: "[]", functions: #"{"todos":[{"return":{"$fn":"identity"}}]}"#), path: "functions.todos[0].return.$fn", expected: "unknown recipe \"identity\" here; allowed: queryKey, pageParam, callCount"),
    BrokenFixture(name: "bad undefined marker", text: BrokenFixture.with(steps: "[]", functions: #"{"todos":[{"return":{"$undefined":false}}]}"#), path: "functions.todos[0].return", expected: #"exactly {"$undefined":true}"#),
    BrokenFixture(name: "nested recipe in data", text: BrokenFixture.with(steps: "[]", functions: #"{"todos":[{"return":[{"$fn":"callCount"}]}]}"#), path: "functions.todos[0].return[0]", expected: "plain data"),
    BrokenFixture(name: "step not object", text: BrokenFixture.with(steps: "[1]"), path: "steps[0]", expected: "a step object"),
    BrokenFixture(name: "unknown operation", text: BrokenFixture.with(steps: #"[{"fetch":{}}]"#), path: "steps[0].fetch", expected: "unknown operation \"fetch\"; a step has one of: cancelQueries, clear"),
    BrokenFixture(name: "no operation", text: BrokenFixture.with(steps: #"[{"at":1}]"#), path: "steps[0]", expected: "one operation member"),
    BrokenFixture(name: "two operations", text: BrokenFixture.with(steps: #"[{"clear":{},"expect":{}}]"#), path: "steps[0]", expected: #"exactly one operation member, found "clear", "expect""#),
    BrokenFixture(name: "time goes back", text: BrokenFixture.with(steps: #"[{"at":10,"clear":{}},{"clear":{}},{"at":5,"clear":{}}]"#), path: "steps[2].at", expected: "a time ≥ 10"),
    BrokenFixture(name: "negative at", text: BrokenFixture.with(steps: #"[{"at":-1,"clear":{}}]"#), path: "steps[0].at", expected: "≥ 0"),
    BrokenFixture(name: "as on nothing", text: BrokenFixture.with(steps: #"[{"clear":{},"as":"c"}]"#), path: "steps[0].as", expected: "clear records nothing"),
    BrokenFixture(name: "as not string", text: BrokenFixture.with(steps: #"[{"isFetching":{},"as":1}]"#), path: "steps[0].as", expected: "a non-empty handle name"),
    BrokenFixture(name: "as twice", text: BrokenFixture.with(steps: #"[{"isFetching":{},"as":"h"},{"isFetching":{},"as":"h"}]"#), path: "steps[1].as", expected: "already declared at steps[0]"),
    BrokenFixture(name: "arguments not object", text: BrokenFixture.with(steps: #"[{"fetchQuery":["todos"]}]"#), path: "steps[0].fetchQuery", expected: "an object of arguments"),
    BrokenFixture(name: "queryKey missing", text: BrokenFixture.with(steps: #"[{"fetchQuery":{"queryFn":"todos"}}]"#), path: "steps[0].fetchQuery.queryKey", expected: "missing; expected a query key"),
    BrokenFixture(name: "queryKey not array", text: BrokenFixture.with(steps: #"[{"fetchQuery":{"queryKey":"todos"}}]"#), path: "steps[0].fetchQuery.queryKey", expected: "an array of JSON values"),
    BrokenFixture(name: "unknown query option", text: BrokenFixture.with(steps: #"[{"fetchQuery":{"queryKey":["a"],"cacheTime":5}}]"#), path: "steps[0].fetchQuery.cacheTime", expected: "unknown query option \"cacheTime\"; allowed: queryKey, queryFn, staleTime, gcTime"),
    BrokenFixture(name: "revalidateIfStale only for ensure", text: BrokenFixture.with(steps: #"[{"fetchQuery":{"queryKey":["a"],"revalidateIfStale":true}}]"#), path: "steps[0].fetchQuery.revalidateIfStale", expected: "unknown query option"),
    BrokenFixture(name: "undeclared queryFn", text: BrokenFixture.with(steps: #"[{"fetchQuery":{"queryKey":["a"],"queryFn":"users"}}]"#), path: "steps[0].fetchQuery.queryFn", expected: #"found "users" (declared: todos)"#),
    BrokenFixture(name: "staleTime string", text: BrokenFixture.with(steps: #"[{"fetchQuery":{"queryKey":["a"],"staleTime":"1000"}}]"#), path: "steps[0].fetchQuery.staleTime", expected: #"a number ≥ 0, "Infinity", "static""#),
    BrokenFixture(name: "retry recipe not allowed", text: BrokenFixture.with(steps: #"[{"fetchQuery":{"queryKey":["a"],"retry":{"$fn":"linear","ms":1}}}]"#), path: "steps[0].fetchQuery.retry.$fn", expected: "unknown recipe \"linear\" here; allowed: failureCountLessThan, const"),
    BrokenFixture(name: "recipe parameter missing", text: BrokenFixture.with(steps: #"[{"fetchQuery":{"queryKey":["a"],"retryDelay":{"$fn":"linear"}}}]"#), path: "steps[0].fetchQuery.retryDelay.ms", expected: "the \"linear\" recipe needs \"ms\""),
    BrokenFixture(name: "recipe parameter unknown", text: BrokenFixture.with(steps: #"[{"observe":{"observer":"o","options":{"queryKey":["a"],"select":{"$fn":"identity","x":1}}}}]"#), path: "steps[0].observe.options.select.x", expected: "takes no parameters"),
    BrokenFixture(name: "recipe where none allowed", text: BrokenFixture.with(steps: #"[{"fetchQuery":{"queryKey":["a"],"networkMode":{"$fn":"const","value":"always"}}}]"#), path: "steps[0].fetchQuery.networkMode", expected: "a $fn recipe is not allowed here"),
    BrokenFixture(name: "select needs recipe", text: BrokenFixture.with(steps: #"[{"observe":{"observer":"o","options":{"queryKey":["a"],"select":"data"}}}]"#), path: "steps[0].observe.options.select", expected: #"{"$fn":"identity"}"#),
    BrokenFixture(name: "notifyOnChangeProps item", text: BrokenFixture.with(steps: #"[{"observe":{"observer":"o","options":{"queryKey":["a"],"notifyOnChangeProps":["data",1]}}}]"#), path: "steps[0].observe.options.notifyOnChangeProps[1]", expected: "a string"),
    BrokenFixture(name: "unknown argument", text: BrokenFixture.with(steps: #"[{"getQueryData":{"queryKey":["a"],"exact":true}}]"#), path: "steps[0].getQueryData.exact", expected: #"unknown argument "exact"; getQueryData takes "queryKey""#),
    BrokenFixture(name: "clear takes nothing", text: BrokenFixture.with(steps: #"[{"clear":{"all":true}}]"#), path: "steps[0].clear.all", expected: "clear takes no arguments"),
    BrokenFixture(name: "data and updater", text: BrokenFixture.with(steps: #"[{"setQueryData":{"queryKey":["a"],"data":1,"updater":{"$fn":"undefined"}}}]"#), path: "steps[0].setQueryData", expected: #"exactly one of "data", "updater""#),
    BrokenFixture(name: "neither data nor updater", text: BrokenFixture.with(steps: #"[{"setQueriesData":{"filters":{}}}]"#), path: "steps[0].setQueriesData", expected: "found neither"),
    BrokenFixture(name: "unknown filter", text: BrokenFixture.with(steps: #"[{"removeQueries":{"filters":{"key":["a"]}}}]"#), path: "steps[0].removeQueries.filters.key", expected: "unknown filter \"key\"; allowed: queryKey, exact, type, stale, fetchStatus, predicate"),
    BrokenFixture(name: "refetchType outside invalidate", text: BrokenFixture.with(steps: #"[{"refetchQueries":{"filters":{"refetchType":"all"}}}]"#), path: "steps[0].refetchQueries.filters.refetchType", expected: "unknown filter"),
    BrokenFixture(name: "filter type value", text: BrokenFixture.with(steps: #"[{"findAll":{"filters":{"type":"stale"}}}]"#), path: "steps[0].findAll.filters.type", expected: #""active", "inactive" or "all", found "stale""#),
    BrokenFixture(name: "action option unknown", text: BrokenFixture.with(steps: #"[{"cancelQueries":{"options":{"force":true}}}]"#), path: "steps[0].cancelQueries.options.force", expected: "unknown option"),
    BrokenFixture(name: "action option not bool", text: BrokenFixture.with(steps: #"[{"cancelQueries":{"options":{"revert":1}}}]"#), path: "steps[0].cancelQueries.options.revert", expected: "true or false"),
    BrokenFixture(name: "filters required", text: BrokenFixture.with(steps: #"[{"find":{}}]"#), path: "steps[0].find.filters", expected: "missing; find needs \"filters\""),
    BrokenFixture(name: "undeclared observer", text: BrokenFixture.with(steps: #"[{"unsubscribe":{"observer":"o"}}]"#), path: "steps[0].unsubscribe.observer", expected: "an observer declared by an earlier observe or createObserver, found \"o\""),
    BrokenFixture(name: "observer declared twice", text: BrokenFixture.with(steps: #"[{"createObserver":{"observer":"o","options":{"queryKey":["a"]}}},{"observe":{"observer":"o","options":{"queryKey":["a"]}}}]"#), path: "steps[1].observe.observer", expected: "already declared at steps[0]"),
    BrokenFixture(name: "observer options need key", text: BrokenFixture.with(steps: #"[{"observe":{"observer":"o","options":{}}}]"#), path: "steps[0].observe.options.queryKey", expected: "missing"),
    BrokenFixture(name: "setFocused value", text: BrokenFixture.with(steps: #"[{"setFocused":{"focused":"yes"}}]"#), path: "steps[0].setFocused.focused", expected: "true or false"),
    BrokenFixture(name: "unknown check", text: BrokenFixture.with(steps: #"[{"expect":{"state":{}}}]"#), path: "steps[0].expect.state", expected: "unknown check \"state\"; allowed: calls, query"),
    BrokenFixture(name: "calls unknown function", text: BrokenFixture.with(steps: #"[{"expect":{"calls":{"users":1}}}]"#), path: "steps[0].expect.calls.users", expected: "a function declared in \"functions\" or a callback in \"callbacks\" (declared: todos)"),
    BrokenFixture(name: "calls negative", text: BrokenFixture.with(steps: #"[{"expect":{"calls":{"todos":-1}}}]"#), path: "steps[0].expect.calls.todos", expected: "≥ 0"),
    BrokenFixture(name: "query check needs key", text: BrokenFixture.with(steps: #"[{"expect":{"query":{"status":"success"}}}]"#), path: "steps[0].expect.query.queryKey", expected: "missing"),
    BrokenFixture(name: "query check field", text: BrokenFixture.with(steps: #"[{"expect":{"query":{"queryKey":["a"],"failureCount":1}}}]"#), path: "steps[0].expect.query.failureCount", expected: "unknown query check field \"failureCount\"; allowed: queryKey, exists, status"),
    BrokenFixture(name: "exists false with fields", text: BrokenFixture.with(steps: #"[{"expect":{"query":{"queryKey":["a"],"exists":false,"status":"success"}}}]"#), path: "steps[0].expect.query.exists", expected: "no other fields"),
    BrokenFixture(name: "queries element", text: BrokenFixture.with(steps: #"[{"expect":{"queries":[{"queryKey":["a"]},3]}}]"#), path: "steps[0].expect.queries[1]", expected: "a query check object"),
    BrokenFixture(name: "result field", text: BrokenFixture.with(steps: #"[{"observe":{"observer":"o","options":{"queryKey":["a"]}}},{"expect":{"result":{"o":{"isFresh":true}}}}]"#), path: "steps[1].expect.result.o.isFresh", expected: "unknown result field \"isFresh\"; allowed: status, fetchStatus"),
    BrokenFixture(name: "result observer undeclared", text: BrokenFixture.with(steps: #"[{"expect":{"result":{"o":{}}}}]"#), path: "steps[0].expect.result.o", expected: "none is declared yet"),
    BrokenFixture(name: "notifications undeclared", text: BrokenFixture.with(steps: #"[{"expect":{"notifications":{"o":1}}}]"#), path: "steps[0].expect.notifications.o", expected: "an observer declared"),
    BrokenFixture(name: "settled unknown handle", text: BrokenFixture.with(steps: #"[{"expect":{"settled":{"a":{"pending":true}}}}]"#), path: "steps[0].expect.settled.a", expected: "a handle declared by an earlier step's \"as\", found \"a\""),
    BrokenFixture(name: "settled on a return handle", text: BrokenFixture.with(steps: #"[{"isFetching":{},"as":"n"},{"expect":{"settled":{"n":{"pending":true}}}}]"#), path: "steps[1].expect.settled.n", expected: "records a promise (settle); \"n\" is a isFetching at steps[0]"),
    BrokenFixture(name: "returned on a settle handle", text: BrokenFixture.with(steps: #"[{"fetchQuery":{"queryKey":["a"]},"as":"f"},{"expect":{"returned":{"f":1}}}]"#), path: "steps[1].expect.returned.f", expected: "records a returned value"),
    BrokenFixture(name: "settled two members", text: BrokenFixture.with(steps: #"[{"fetchQuery":{"queryKey":["a"]},"as":"f"},{"expect":{"settled":{"f":{"value":1,"error":"x"}}}}]"#), path: "steps[1].expect.settled.f", expected: "exactly one of \"value\", \"error\" and \"pending\""),
    BrokenFixture(name: "settled pending false", text: BrokenFixture.with(steps: #"[{"fetchQuery":{"queryKey":["a"]},"as":"f"},{"expect":{"settled":{"f":{"pending":false}}}}]"#), path: "steps[1].expect.settled.f.pending", expected: "expected true"),
    BrokenFixture(name: "handle used before declared", text: BrokenFixture.with(steps: #"[{"expect":{"returned":{"n":0}}},{"isFetching":{},"as":"n"}]"#), path: "steps[0].expect.returned.n", expected: "none is declared yet"),
    BrokenFixture(name: "cacheSize", text: BrokenFixture.with(steps: #"[{"expect":{"cacheSize":"1"}}]"#), path: "steps[0].expect.cacheSize", expected: "a whole number ≥ 0"),
    BrokenFixture(name: "odd member names are quoted", text: BrokenFixture.with(steps: #"[{"expect":{"calls":{"a b":1}}}]"#), path: #"steps[0].expect.calls["a b"]"#, expected: "a function declared"),
  ]

  @Test(arguments: corpus)
  func reportsWhereAndWhat(_ broken: BrokenFixture) {
    do {
      let scenario = try FixtureDecoder.decode(text: broken.text, file: broken.file)
      Issue.record("decoded \(scenario.id) although it is broken")
    } catch {
      #expect(error.file == broken.file)
      #expect(error.path == broken.path, "\(error)")
      #expect(error.expected.contains(broken.expected), "\(error)")
    }
  }

  @Test func descriptionJoinsFilePathAndExpectation() {
    let error = FixtureError(file: "Specs/a/a-001.json", path: "steps[3].fetchQuery.queryKey", expected: "missing")
    #expect(error.description == "Specs/a/a-001.json: steps[3].fetchQuery.queryKey: missing")
  }

  @Test func readsFilesAndReportsUnreadableOnes() throws {
    let directory = TemporaryDirectory()
    defer { directory.cleanup() }
    directory.write("dedup/dedup-001.json", SampleFixtures.dedup)
    let scenario = try FixtureDecoder.decode(contentsOf: directory.path + "/dedup/dedup-001.json")
    #expect(scenario.title == "concurrent fetches of one key share a single call")
    #expect(throws: FixtureError(file: directory.path + "/nope.json", path: "$", expected: "a readable file")) {
      try FixtureDecoder.decode(contentsOf: directory.path + "/nope.json")
    }
  }

  @Test func idHelpers() {
    #expect(FixtureDecoder.isValidID("dedup-001"))
    #expect(!FixtureDecoder.isValidID("dedup-01"))
    #expect(!FixtureDecoder.isValidID("dedup-0001"))
    #expect(!FixtureDecoder.isValidID("Dedup-001"))
    #expect(!FixtureDecoder.isValidID("-001"))
    #expect(!FixtureDecoder.isValidID("de-dup-001"))
    #expect(FixtureDecoder.expectedID(forFile: "Specs/dedup/dedup-001.json") == "dedup-001")
    #expect(FixtureDecoder.area(ofID: "dedup-001") == "dedup")
  }
}
