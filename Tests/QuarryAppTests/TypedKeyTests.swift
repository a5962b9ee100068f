import Testing
import QuarryApp

@Suite struct TypedKeyTests {
  @Test func aKeyIsTheTypeThenTheVariablesJSON() {
    let key = QueryCacheKey<SearchTodos>(variables: Search(text: "milk", page: 2)).queryKey
    #expect(key.queryHash == #"["QuarryAppTests.SearchTodos",{"page":2,"text":"milk"}]"#)
    #expect(QueryCacheKey<FetchTodos>(variables: .value).queryKey.queryHash == #"["QuarryAppTests.FetchTodos"]"#)
  }

  @Test func twoFunctionTypesNeverShareAnEntry() {
    let a = QueryCacheKey<FetchTodo>(variables: 1).queryKey
    let b = QueryCacheKey<SearchTodos>(variables: Search(text: "", page: 1)).queryKey
    #expect(a != b)
    #expect(!partialMatchKey(a, QueryCacheKey<SearchTodos>.all))
    #expect(partialMatchKey(a, QueryCacheKey<FetchTodo>.all))
  }

  @Test func nonFiniteNumbersEncodeAsNullLikeJSONStringify() throws {
    #expect(try JSONValueEncoder.encode([1.5, .nan, .infinity]) == [1.5, nil, nil])
  }

  @Test func nestedCodableValuesEncodeStructurally() throws {
    struct Inner: Encodable { var tags: [String]; var flag: Bool? }
    struct Outer: Encodable { var inner: Inner; var count: Int }
    let value = try JSONValueEncoder.encode(Outer(inner: Inner(tags: ["a"], flag: nil), count: 3))
    #expect(value == ["inner": ["tags": ["a"]], "count": 3])
  }
}
