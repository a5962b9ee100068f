import Testing
@testable import Quarry

@Suite struct QueryKeyTests {
  @Test func hashSortsObjectKeys() {
    let key: QueryKey = ["todos", 1, ["page": 2, "a": [true, nil]], 1.5]
    #expect(key.queryHash == #"["todos",1,{"a":[true,null],"page":2},1.5]"#)
  }

  @Test func hashEscapesLikeJavaScript() {
    let key: QueryKey = ["a\"b\\c\n\u{01}é"]
    #expect(key.queryHash == "[\"a\\\"b\\\\c\\n\\u0001é\"]")
  }

  @Test func partialMatchIsPrefixAndSubset() {
    #expect(partialMatchKey(["todos", ["page": 1, "x": 2]], ["todos"]))
    #expect(partialMatchKey(["todos", ["page": 1, "x": 2]], ["todos", ["page": 1]]))
    #expect(!partialMatchKey(["todos"], ["todos", 1]))
    #expect(!partialMatchKey(["todos", ["page": 1]], ["todos", ["page": 2]]))
  }
}
