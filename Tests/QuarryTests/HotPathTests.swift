import Synchronization
import Testing
@testable import Quarry

/// The shortcuts the hot paths take must answer as the general code does.
@Suite struct HotPathTests {
  @Test func undefinedIsANilOptionalAtAnyNesting() {
    #expect(isUndefined(Int?.none as any Sendable))
    #expect(isUndefined(Int??.some(nil) as any Sendable))
    #expect(!isUndefined(Int?.some(1) as any Sendable))
    #expect(!isUndefined(1 as any Sendable))
    #expect(!isUndefined("x" as any Sendable))
    #expect(!isUndefined(JSONValue.undefined as any Sendable))
    #expect(!isUndefined(DataBox(1) as any Sendable))
    #expect(!isUndefined([Int?.none] as any Sendable))
  }

  /// A settling fetch skips `unboxed` and `isUndefined` for a plain struct or enum: every kind
  /// of returned value settles as those checks say (a nil `Optional`, also nested or in a box,
  /// fails with `undefinedData`; anything else is the data, a box's value unboxed).
  @Test func aFetchSettlesEachKindOfReturnedValueAsTheGeneralChecksSay() {
    struct Model: Sendable { var n: Int }
    let cases: [(value: any Sendable, undefined: Bool)] = [
      (1, false), ("x", false), (Model(n: 2), false), (JSONValue.null, false), (JSONValue.undefined, false),
      (Int?.some(3) as any Sendable, false), (Int?.none as any Sendable, true), (Int??.some(nil) as any Sendable, true),
      (DataBox(4), false), (DataBox(Int?.none as any Sendable), true), ([Int?.none] as any Sendable, false),
    ]
    for (value, undefined) in cases {
      let scheduler = VirtualScheduler()
      let client = QueryClient(scheduler: scheduler)
      var options = QueryOptions(queryKey: ["k"])
      options.retry = .bool(false)
      options.queryFn = .fn { _ in value }
      let outcome = Mutex<Result<any Sendable, any Error>?>(nil)
      client.fetchQueryPromise(options).whenSettled { result in outcome.withLock { $0 = result } }
      scheduler.runUntilIdle()
      let expected = String(describing: unboxed(value))
      switch outcome.withLock({ $0 }) {
      case .success(let data)?:
        #expect(!undefined, "\(expected) settled as data")
        #expect(String(describing: data) == expected)
        #expect(String(describing: client.getQueryData(["k"])!) == expected)
      case .failure(let error)?:
        #expect(undefined, "\(expected) failed: \(error)")
        #expect(error as? QuarryError == QuarryError.undefinedData(queryHash: #"["k"]"#))
        #expect(client.getQueryData(["k"]) == nil)
      case nil:
        Issue.record("\(expected): the fetch did not settle")
      }
    }
  }

  /// `setQueryData(_:value:)` skips the updater but not TanStack's `data === undefined` check:
  /// a nil `Optional`, also inside a box, writes nothing, as the updater form returning it does.
  @Test func theValueFormWritesNothingForUndefinedData() {
    let client = QueryClient(scheduler: VirtualScheduler())
    let undefined: [any Sendable] = [Int?.none as any Sendable, Int??.some(nil) as any Sendable, DataBox(Int?.none as any Sendable)]
    for value in undefined {
      #expect(client.setQueryData(["a"], value: value) == nil)
      #expect(client.setQueryData(["b"]) { _ in value } == nil)
    }
    #expect(client.queryCache.getAll().isEmpty)
    #expect(client.setQueryData(["a"], value: Int?.some(1) as any Sendable) as? Int? == .some(1))
    #expect(client.setQueryData(["a"], value: 2) as? Int == 2)
    #expect(client.setQueryData(["a"], value: Int?.none as any Sendable) == nil)
    #expect(client.getQueryData(["a"]) as? Int == 2)
    #expect(client.queryCache.getAll().count == 1)
  }

  /// `storedType(of:)` is `type(of:)` for everything the data checks compare it with.
  @Test func storedTypesAreTheDynamicTypesTheChecksCompare() {
    final class Object: Sendable {}
    let values: [any Sendable] = [1, "x", 2.5, true, JSONValue.null, DataBox(1), Int?.none as any Sendable, [1], Object()]
    for value in values {
      let stored = storedType(of: value)
      #expect(ObjectIdentifier(stored) == ObjectIdentifier(type(of: value) as any Any.Type))
      #expect((stored == DataBox.self) == (value is DataBox))
      #expect(castMaySeeThrough(stored) == castMaySeeThrough(type(of: value)))
    }
  }

  @Test func primitiveEqualityMatchesTheGeneralPath() {
    #expect(valuesEqual(1, 1))
    #expect(!valuesEqual(1, 2))
    #expect(!valuesEqual(1, 1.0))
    #expect(valuesEqual("a", "a"))
    #expect(valuesEqual(Double.nan, Double.nan) == false)
    #expect(valuesEqual(true, true))
    #expect(valuesEqual([1, 2], [1, 2]))
    #expect(!valuesEqual("a", "b"))
    #expect(valuesEqual(String(repeating: "long string ", count: 4), String(repeating: "long string ", count: 4)))
    #expect(valuesEqual(2.5, 2.5))
    #expect(!valuesEqual(2.5, 3.5))
    #expect(!valuesEqual(true, false))
    #expect(!valuesEqual("1", 1))
    #expect(!valuesEqual(Int?.some(1) as any Sendable, 2))
    #expect(asDataBox(1) == nil)
    let box = DataBox(1)
    #expect(asDataBox(box) === box)
    #expect(asJSONValue(JSONValue.number(1)) == .number(1))
    #expect(asJSONValue(1).map { _ in true } == nil)
    // `as?` sees through optionals and `AnyHashable`; so must the shortcuts.
    #expect(asDataBox(Optional(box) as any Sendable) === box)
    #expect(asDataBox(AnyHashable(ObjectIdentifier(box)) as any Sendable) == nil)
    #expect(asJSONValue(Optional(JSONValue.number(2)) as any Sendable) == .number(2))
    #expect(asJSONValue(AnyHashable(JSONValue.number(3)) as any Sendable) == .number(3))
    let hashable = AnyHashable(Int?.none) as any Sendable
    #expect(isUndefined(hashable) == ((hashable as? any OptionalValue)?.isNone ?? false))
  }

  @Test func keyedReadsHonourHashingDefaultsSetLater() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a", 1], value: "plain")
    // A default hash function for ["a"] keys: reads and writes now hash through it.
    var defaults = QueryOptions()
    defaults.queryKeyHashFn = FunctionBox { key in "custom:" + String(key.parts.count) }
    client.setQueryDefaults(["a"], defaults)
    #expect(client.getQueryData(["a", 1]) == nil)
    client.setQueryData(["a", 2], value: "custom")
    #expect(client.getQueryData(["a", 9]) as? String == "custom")
    #expect(client.queryCache.get("custom:2") != nil)
    // Other keys still hash by `hashKey`.
    client.setQueryData(["b"], value: 1)
    #expect(client.queryCache.get(#"["b"]"#) != nil)
  }

  /// A write whose lookup missed looks the hash up again only when the cache changed since: an
  /// updater that adds the query (by an equal key, or by another key with the same hash) writes
  /// into that query instead of building a second one.
  @Test func anUpdaterThatAddsItsQueryWritesIntoIt() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"]) { _ -> (any Sendable)? in
      client.setQueryData(["a"], value: 1)
      return 2
    }
    #expect(client.queryCache.getAll().count == 1)
    #expect(client.getQueryData(["a"]) as? Int == 2)
    // `[undefined]` hashes as `[null]`: the query the updater builds for `[null]` is its query.
    client.setQueryData([.undefined]) { _ -> (any Sendable)? in
      client.setQueryData([nil], value: 3)
      return 4
    }
    #expect(client.queryCache.getAll().count == 2)
    #expect(client.queryCache.get("[null]")?.queryKey == [nil])
    #expect(client.getQueryData([nil]) as? Int == 4)
    #expect(client.getQueryData([.undefined]) as? Int == 4)
  }

  @Test func anUpdaterThatRemovesItsQueryWritesIntoANewOne() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    let first = client.queryCache.get(#"["a"]"#)
    client.setQueryData(["a"]) { old -> (any Sendable)? in
      client.removeQueries(QueryFilters(queryKey: ["a"]))
      return (old as! Int) + 1
    }
    let second = client.queryCache.get(#"["a"]"#)
    #expect(second != nil && second !== first)
    #expect(client.getQueryData(["a"]) as? Int == 2)
  }
}

@Suite struct HotPathWriteTests {
  @Test func writingAnExistingKeyIsReadBack() {
    let client = QueryClient(scheduler: VirtualScheduler())
    let key: QueryKey = ["todos", 3, ["page": 3]]
    client.setQueryData(key, value: 3)
    #expect(client.getQueryData(key) as? Int == 3)
    let written = client.setQueryData(key, value: 4)
    #expect(written as? Int == 4)
    #expect(client.queryCache.getAll().first?.state.data as? Int == 4)
    #expect(replaceData(DataBox(3), 4, structuralSharing: true).value as? Int == 4)
    #expect(!valuesEqual(3, 4))
    #expect(client.getQueryData(key) as? Int == 4)
    #expect(client.getQueryData(["todos", 3, ["page": 3]]) as? Int == 4)
    #expect(client.queryCache.getAll().count == 1)
  }
}

/// `replaceData`'s path for a plain struct or enum (neither a box nor JSON) answers as the general
/// checks do: with sharing (on or unset) an equal value keeps the previous box, an unequal one gets
/// a new box; without sharing only an equal primitive keeps it; a value of another type never does.
@Suite struct ReplaceDataPlainValueTests {
  struct Model: Equatable, Sendable { var id: Int }
  enum Kind: Equatable, Sendable { case a, b }
  struct Opaque: Sendable { var id: Int }

  @Test func plainValuesKeepThePreviousBoxExactlyWhenTheGeneralChecksWould() {
    for sharing in [true, nil] as [Bool?] {
      let int = DataBox(3)
      #expect(replaceData(int, 3, structuralSharing: sharing) === int)
      let next = replaceData(int, 4, structuralSharing: sharing)
      #expect(next !== int && next.value as? Int == 4)
      let model = DataBox(Model(id: 1))
      #expect(replaceData(model, Model(id: 1), structuralSharing: sharing) === model)
      #expect(replaceData(model, Model(id: 2), structuralSharing: sharing) !== model)
      let kind = DataBox(Kind.a)
      #expect(replaceData(kind, Kind.a, structuralSharing: sharing) === kind)
      #expect(replaceData(kind, Kind.b, structuralSharing: sharing) !== kind)
      // Not `Equatable`: never equal, so always a new box.
      let opaque = DataBox(Opaque(id: 1))
      #expect(replaceData(opaque, Opaque(id: 1), structuralSharing: sharing) !== opaque)
      // Another type: a new box holding the new value.
      let other = replaceData(int, "3", structuralSharing: sharing)
      #expect(other !== int && other.value as? String == "3")
      // No previous box: a new one.
      #expect(replaceData(nil, 3, structuralSharing: sharing).value as? Int == 3)
    }
    // Without sharing only a primitive equal by value keeps the previous box.
    let int = DataBox(3)
    #expect(replaceData(int, 3, structuralSharing: false) === int)
    #expect(replaceData(int, 4, structuralSharing: false) !== int)
    let string = DataBox("x")
    #expect(replaceData(string, "x", structuralSharing: false) === string)
    let model = DataBox(Model(id: 1))
    #expect(replaceData(model, Model(id: 1), structuralSharing: false) !== model)
    // JSON still takes the general path: equal JSON keeps the box with sharing.
    let json = DataBox(JSONValue.array([1, 2]))
    #expect(replaceData(json, JSONValue.array([1, 2]), structuralSharing: true) === json)
    #expect(replaceData(json, JSONValue.array([1, 2]), structuralSharing: false) !== json)
  }
}

/// `QueryCache.findAll` inside a transaction with only a key (and a fetch status) to match walks
/// the cache in place; it must find what the general matching finds, in cache order, with removed
/// queries' empty slots skipped.
@Suite struct FindAllInPlaceTests {
  @Test func findingByKeyInsideATransactionFindsWhatTheGeneralMatchingFinds() {
    let client = QueryClient(scheduler: VirtualScheduler())
    for i in 0..<20 { client.setQueryData(["todos", .number(Double(i))], value: i) }
    client.setQueryData(["other"], value: 0)
    client.removeQueries(QueryFilters(queryKey: ["todos", 3]))
    client.removeQueries(QueryFilters(queryKey: ["todos", 7]))
    let cache = client.queryCache
    let filterSets: [QueryFilters] = [
      QueryFilters(queryKey: ["todos"]), QueryFilters(queryKey: ["todos", 5]), QueryFilters(queryKey: ["none"]),
      QueryFilters(queryKey: ["todos"], fetchStatus: .idle), QueryFilters(queryKey: ["todos"], fetchStatus: .fetching),
      QueryFilters(queryKey: ["todos"], type: .all),
    ]
    for filters in filterSets {
      let general = cache.getAll().filter { filters.matches($0) }.map(\.queryHash)
      let inPlace = client.engine.lock.sync { cache.findAll(filters) }.map(\.queryHash)
      #expect(inPlace == general)
    }
    #expect(client.engine.lock.sync { cache.findAll(QueryFilters(queryKey: ["todos"])) }.count == 18)
  }
}

/// Queries built by keyed writes share one options box; each still reads as its own options.
@Suite struct SharedOptionsTests {
  @Test func writtenQueriesReportTheirOwnKeyAndHash() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a", 1], value: 1)
    client.setQueryData(["b", ["x": 2]], value: 2)
    let a = client.queryCache.get(#"["a",1]"#)!
    let b = client.queryCache.get(#"["b",{"x":2}]"#)!
    #expect(a.options.queryKey == ["a", 1])
    #expect(a.options.queryHash == #"["a",1]"#)
    #expect(b.options.queryKey == ["b", ["x": 2]])
    #expect(b.options.queryHash == #"["b",{"x":2}]"#)
    #expect(a.options.throwOnError == false)
    #expect(a.options.refetchOnReconnect == .ifStale)
  }

  @Test func defaultsChangedLaterReachOnlyQueriesBuiltLater() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    var defaults = client.defaultOptions
    defaults.queries.gcTime = 10
    defaults.queries.networkMode = .always
    client.defaultOptions = defaults
    client.setQueryData(["b"], value: 2)
    client.setQueryDefaults(["c"], { var o = QueryOptions(); o.staleTime = .value(.milliseconds(5)); return o }())
    client.setQueryData(["c"], value: 3)
    client.setQueryData(["d"], value: 4)
    let a = client.queryCache.get(#"["a"]"#)!.options
    let b = client.queryCache.get(#"["b"]"#)!.options
    let c = client.queryCache.get(#"["c"]"#)!.options
    let d = client.queryCache.get(#"["d"]"#)!.options
    #expect(a.gcTime == nil && a.networkMode == nil && a.refetchOnReconnect == .ifStale)
    #expect(b.gcTime == 10 && b.networkMode == .always && b.refetchOnReconnect == .never)
    #expect(c.gcTime == 10 && c.staleTime == .value(.milliseconds(5)))
    #expect(d.gcTime == 10 && d.staleTime == nil && d.queryKey == ["d"])
  }

  @Test func aBoxIsNeverBoxedTwice() {
    let inner = DataBox(1)
    #expect(DataBox(inner).value as? Int == 1)
    #expect(DataBox(Optional(inner) as any Sendable).value as? Int == 1)
    #expect(DataBox(DataBox(JSONValue.array([.number(1)]))).value as? JSONValue == .array([.number(1)]))
    #expect(DataBox(Optional(2) as any Sendable).value as? Int? == .some(2))
  }

  @Test func resetReturnsToABlankOrAnInitialDataState() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    let a = client.queryCache.get(#"["a"]"#)!
    client.engine.lock.sync { a.reset() }
    #expect(a.state.data == nil && a.state.status == .pending && a.state.dataUpdateCount == 0)
    #expect(a.state.dataUpdatedAt == 0 && a.state.fetchStatus == .idle && !a.state.isInvalidated)
    var options = QueryOptions(queryKey: ["b"])
    options.initialData = .value(7)
    options.initialDataUpdatedAt = 5
    let b = client.engine.lock.sync { client.queryCache.build(client, options) }
    client.setQueryData(["b"], value: 8)
    client.engine.lock.sync { b.reset() }
    #expect(b.state.data as? Int == 7 && b.state.status == .success && b.state.dataUpdatedAt == 5)
    #expect(b.state.dataUpdateCount == 0)
  }

  @Test func changingOneQuerysOptionsLeavesTheOthersAlone() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    client.setQueryData(["b"], value: 2)
    let a = client.queryCache.get(#"["a"]"#)!
    var options = QueryOptions(queryKey: ["a"])
    options.retry = .count(7)
    client.engine.lock.sync { a.setOptions(options) }
    #expect(a.options.retry == .count(7))
    #expect(a.options.queryHash == nil)
    #expect(client.queryCache.get(#"["b"]"#)!.options.retry == nil)
    #expect(client.queryCache.get(#"["b"]"#)!.options.queryKey == ["b"])
  }
}
