import Testing
@testable import Quarry

/// The typed read and `getQueryState` find their query as the untyped read does (by key while
/// hashes follow keys, by hash otherwise), and a type mismatch still names the hash.
@Suite struct TypedKeyedReadTests {
  @Test func typedReadsFindByKeyAndNameTheHashOnAMismatch() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["user", 1, ["tab": "info"]], value: "Ada")
    #expect(try client.getQueryData(["user", 1, ["tab": "info"]], as: String.self) == "Ada")
    #expect(try client.getQueryData(["user", 2], as: String.self) == nil)
    #expect(throws: QuarryError.typeMismatch(key: #"["user",1,{"tab":"info"}]"#, expected: "Int", actual: "String")) {
      try client.getQueryData(["user", 1, ["tab": "info"]], as: Int.self)
    }
    #expect(client.getQueryState(["user", 1, ["tab": "info"]])?.data as? String == "Ada")
    #expect(client.getQueryState(["user", 1, ["tab": "info"]])?.dataUpdateCount == 1)
    #expect(client.getQueryState(["user", 2]) == nil)
    // Restored JSON decodes into a Decodable type, as before.
    client.setQueryData(["n"], value: JSONValue.number(3))
    #expect(try client.getQueryData(["n"], as: Int.self) == 3)
  }

  @Test func typedReadsHonourHashingDefaults() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    var defaults = QueryOptions()
    defaults.queryKeyHashFn = FunctionBox { key in "custom:" + String(key.parts.count) }
    client.setQueryDefaults(["a"], defaults)
    client.setQueryData(["a", 2], value: "custom")
    #expect(try client.getQueryData(["a", 9], as: String.self) == "custom")
    #expect(client.getQueryState(["a", 9])?.data as? String == "custom")
    #expect(throws: QuarryError.typeMismatch(key: "custom:2", expected: "Int", actual: "String")) {
      try client.getQueryData(["a", 9], as: Int.self)
    }
  }
}
