import Foundation
import Testing
@testable import Quarry

/// Keys and data nested 100,000 levels deep: every algorithm Quarry runs over them is iterative
/// or bounded, so none of these overflows the stack (each 100,000-level one did in a debug build
/// while those algorithms recursed). Releasing such values is `DeepReleaseTests`.
@Suite struct DeepValueTests {
  static let depth = 100_000

  /// `depth` arrays nested around `leaf`, alternating with one-member objects.
  static func deep(_ depth: Int, leaf: JSONValue = 1) -> JSONValue {
    var value = leaf
    for level in 0..<depth { value = level % 2 == 0 ? .array([value]) : .object(["k": value]) }
    return value
  }

  @Test func hashingComparingAndMatchingADeepKey() {
    var a = QueryKey([Self.deep(Self.depth)])
    var b = QueryKey([Self.deep(Self.depth)])
    var c = QueryKey([Self.deep(Self.depth, leaf: 2)])
    let hash = a.queryHash
    // Plain Booleans: a failure must not print a 100,000-level value.
    let hashShape = hash.hasPrefix(#"[{"k":[{"k":["#) && hash.contains(#"{"k":[1]}"#) && hash.hasSuffix("]}]}]")
    let hashLength = hash.utf8.count == 2 + 50_000 * 6 + 50_000 * 2 + 1
    let sameHash = hash == b.queryHash
    let equal = a == b
    let unequal = a != c
    let sameHashValue = a.hashValue == b.hashValue
    let matches = partialMatchKey(a, b)
    let mismatches = !partialMatchKey(a, c)
    let canonical = a.jsonValue.canonicalJSON == hash
    #expect(hashShape)
    #expect(hashLength)
    #expect(sameHash)
    #expect(equal)
    #expect(unequal)
    #expect(sameHashValue)
    #expect(matches)
    #expect(mismatches)
    #expect(canonical)
    QueryKey.dismantle(&a)
    QueryKey.dismantle(&b)
    QueryKey.dismantle(&c)
    #expect(a.parts.isEmpty)
  }

  @Test func structuralSharingStopsAt500LevelsOnDeepData() {
    var a = Self.deep(Self.depth)
    var b = Self.deep(Self.depth)
    let equal = a == b
    let newData = !JSONValue.replaceEqualDeepKeepsPrevious(a, b)
    let sameObject = JSONValue.replaceEqualDeepKeepsPrevious(a, a)  // one storage: one object
    #expect(equal)
    #expect(newData)
    #expect(sameObject)
    JSONValue.dismantle(&a)
    JSONValue.dismantle(&b)
    #expect(a == .null)
  }

  /// TanStack 5.102.0 (`replaceEqualDeep` on node) keeps equal data nested 501 containers deep
  /// and replaces it at 502; past 128 levels Quarry's comparison goes on without recursion.
  @Test func structuralSharingKeepsEqualDataUpTo501Levels() {
    for (depth, keeps) in [(499, true), (500, true), (501, true), (502, false), (503, false)] {
      let kept = JSONValue.replaceEqualDeepKeepsPrevious(Self.deep(depth), Self.deep(depth))
      #expect(kept == keeps, "depth \(depth)")
    }
    #expect(!JSONValue.replaceEqualDeepKeepsPrevious(Self.deep(300), Self.deep(300, leaf: 2)))
    #expect(!JSONValue.replaceEqualDeepKeepsPrevious(Self.deep(300), Self.deep(299)))
  }

  /// What Quarry leaves to Swift's recursive release (values nested at most 128 levels, the
  /// threshold of `DeepParts` and `DataBox`) fits a 128 KiB stack, a debug build included.
  @Test func aValueAtTheBoxThresholdIsReleasedWithinA128KiBStack() async {
    let released = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let thread = Thread {
        var key: QueryKey? = QueryKey([DeepValueTests.deep(JSONValue.recursionLimit - 1)])
        var data: JSONValue? = DeepValueTests.deep(JSONValue.recursionLimit)
        let inline = if case .inline = key!.storage { true } else { false }
        let shallow = data!.isNested(within: JSONValue.recursionLimit)
        key = nil
        data = nil
        continuation.resume(returning: inline && shallow && key == nil && data == nil)
      }
      thread.stackSize = 128 * 1024
      thread.start()
    }
    #expect(released)
  }

  @Test func theClientStoresFetchesAndFindsDeepKeysAndData() async throws {
    var key = QueryKey(["deep", Self.deep(Self.depth)])
    var filterKey = QueryKey(["deep", Self.deep(Self.depth)])
    var data = Self.deep(Self.depth)
    var equalData = Self.deep(Self.depth)
    var fetched = Self.deep(Self.depth, leaf: "fetched")
    var fetchKey = QueryKey(["fetch", Self.deep(Self.depth)])
    do {
      let scheduler = VirtualScheduler()
      let client = QueryClient(scheduler: scheduler)
      _ = client.setQueryData(key, value: data)
      let stored = client.getQueryData(key) as? JSONValue == data
      #expect(stored)
      #expect(client.getQueryState(filterKey)?.dataUpdateCount == 1)
      // An equal value deeper than 500 levels is new data for structural sharing, as in TanStack.
      let storedBefore = client.queryCache.get(key.queryHash)!.stateStorage.dataBox
      _ = client.setQueryData(key, value: equalData)
      #expect(client.queryCache.get(key.queryHash)!.stateStorage.dataBox !== storedBefore)
      #expect(client.queryCache.findAll(QueryFilters(queryKey: filterKey)).count == 1)
      #expect(client.queryCache.findAll(QueryFilters(queryKey: filterKey, exact: true)).count == 1)
      let result = fetched
      var options = QueryOptions(queryKey: fetchKey)
      options.queryFn = .fn { _ in result }
      let fetchOptions = options
      let task = Task(executorPreference: scheduler) { try await client.fetchQuery(fetchOptions) }
      scheduler.advance(by: 0)
      let fetchedValue = try await task.value as? JSONValue == fetched
      #expect(fetchedValue)
      let cached = client.getQueryData(fetchKey) as? JSONValue == fetched
      #expect(cached)
      client.clear()
    }
    QueryKey.dismantle(&fetchKey)
    QueryKey.dismantle(&key)
    QueryKey.dismantle(&filterKey)
    JSONValue.dismantle(&data)
    JSONValue.dismantle(&equalData)
    JSONValue.dismantle(&fetched)
  }
}
