import Foundation
import Quarry
@testable import QuarryPersist
import Testing

/// A query 100,000 levels deep cannot be written through `Codable`: persisting it throws an
/// `EncodingError` naming the limit (it overflowed the stack before), and a snapshot nested
/// deeper than `JSONDecoder` reads is refused with an error.
@Suite struct DeepPersistTests {
  static func deep(_ depth: Int) -> JSONValue {
    var value: JSONValue = 1
    for _ in 0..<depth { value = [value] }
    return value
  }

  @Test func persistingADeepQueryThrowsInsteadOfCrashing() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    _ = client.setQueryData(["deep"], value: Self.deep(100_000))
    let query = try #require(client.queryCache.getAll().first)
    let persister = QueryPersister(storage: InMemoryStorage())
    #expect(throws: EncodingError.self) { try persister.persistQuery(query) }
    let snapshot = PersistedClient(timestamp: 0, buster: "", clientState: dehydrate(client))
    #expect(throws: EncodingError.self) { try snapshot.jsonData() }
    client.clear()
  }

  @Test func aSnapshotNestedTooDeeplyIsRefusedWithAnError() throws {
    let text = #"{"timestamp":0,"buster":"","clientState":{"mutations":[],"queries":[{"queryHash":"[\"a\"]","queryKey":["a"],"state":{"data":"#
      + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}}]}}"
    #expect(throws: (any Error).self) { try PersistedClient(jsonData: Data(text.utf8)) }
  }
}
