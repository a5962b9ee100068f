import Testing
@testable import Quarry

/// A query takes its observer's options box as it is when its key has no `setQueryDefaults`;
/// each must still report its own options and identity, before and after either changes.
@Suite struct ObserverOptionsSharingTests {
  private func observerOptions(_ key: QueryKey, staleTime: Double) -> QueryOptions {
    var options = QueryOptions(queryKey: key)
    options.queryFn = .fn { _ in 0 }
    options.staleTime = .value(.milliseconds(staleTime))
    return options
  }

  @Test func theQueryReadsTheObserversOptionsWithoutItsIdentity() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    let observer = QueryObserver(client: client, options: observerOptions(["a"], staleTime: 5))
    let query = observer.getCurrentQuery()
    #expect(query.sharedOptionsBox === observer.optionsBox)
    #expect(observer.optionsBox.options.identity != nil)
    #expect(query.options.identity == nil)
    #expect(query.options.staleTime == .value(.milliseconds(5)))
    #expect(query.options.queryKey == ["a"] && query.options.queryHash == #"["a"]"#)
    #expect(query.options.defaulted)
    // The observer's own options keep their identity: the same options are no change.
    #expect(observer.options.isShallowEqual(to: observer.options))
  }

  @Test func changingTheObserverReplacesTheBoxAndLeavesTheOldOneAlone() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    let observer = QueryObserver(client: client, options: observerOptions(["a"], staleTime: 5))
    let query = observer.getCurrentQuery()
    let first = observer.optionsBox
    let firstIdentity = first.options.identity
    observer.setOptions(observerOptions(["a"], staleTime: 9))
    #expect(first.options.staleTime == .value(.milliseconds(5)))
    #expect(first.options.identity == firstIdentity)
    #expect(observer.options.staleTime == .value(.milliseconds(9)))
    #expect(observer.options.identity != firstIdentity)
    #expect(query.options.staleTime == .value(.milliseconds(9)))
    #expect(query.options.identity == nil)
  }

  @Test func changingTheQueryLeavesTheObserverAlone() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    let observer = QueryObserver(client: client, options: observerOptions(["a"], staleTime: 5))
    let query = observer.getCurrentQuery()
    var options = QueryOptions(queryKey: ["a"])
    options.retry = .count(7)
    client.engine.lock.sync { query.setOptions(options) }
    #expect(query.options.retry == .count(7))
    #expect(query.options.staleTime == nil)
    #expect(observer.options.retry == nil)
    #expect(observer.options.staleTime == .value(.milliseconds(5)))
    #expect(observer.options.identity != nil)
  }

  @Test func keyDefaultsGiveTheQueryAMergedBoxOfItsOwn() {
    let client = QueryClient(scheduler: VirtualScheduler())
    var defaults = QueryOptions()
    defaults.gcTime = 123
    client.setQueryDefaults(["a"], defaults)
    let observer = QueryObserver(client: client, options: observerOptions(["a"], staleTime: 5))
    let query = observer.getCurrentQuery()
    #expect(query.sharedOptionsBox !== observer.optionsBox)
    #expect(query.options.gcTime == 123 && query.options.identity == nil)
    #expect(query.options.staleTime == .value(.milliseconds(5)))
    #expect(observer.options.gcTime == 123)
  }

  @Test func aFetchWithAnObserversOptionsSharesThemToo() async throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let observer = QueryObserver(client: client, options: observerOptions(["a"], staleTime: 5))
    let unsubscribe = observer.subscribe { _ in }
    scheduler.runUntilIdle()
    let query = observer.getCurrentQuery()
    #expect(query.sharedOptionsBox === observer.optionsBox)
    #expect(query.state.data as? Int == 0)
    #expect(query.options.identity == nil)
    unsubscribe()
  }
}

/// An observer whose key is cached takes the query's hash instead of writing it again; the
/// hash must be the one `defaultQueryOptions` writes, and the query the one `build` finds.
@Suite struct ObserverHashReuseTests {
  @Test func aCachedKeysHashIsTheQuerysAndEqualsTheWrittenOne() {
    let client = QueryClient(scheduler: VirtualScheduler())
    let key: QueryKey = ["todos", 7, ["page": 2, "a": -0.0]]
    client.setQueryData(key, value: 1)
    let cached = client.queryCache.get(key.queryHash)!
    let observer = QueryObserver(client: client, options: QueryOptions(queryKey: key))
    #expect(observer.getCurrentQuery() === cached)
    #expect(observer.options.queryHash == key.queryHash)
    #expect(observer.options.queryHash == client.defaultQueryOptions(QueryOptions(queryKey: key)).queryHash)
    #expect(observer.options.keyHashed)
  }

  @Test func anUncachedKeyBuildsOneQueryFoundByKeyAfterwards() {
    let client = QueryClient(scheduler: VirtualScheduler())
    let first = QueryObserver(client: client, options: QueryOptions(queryKey: ["a", 1]))
    let second = QueryObserver(client: client, options: QueryOptions(queryKey: ["a", 1]))
    #expect(first.getCurrentQuery() === second.getCurrentQuery())
    #expect(client.queryCache.getAll().count == 1)
    #expect(first.options.queryHash == #"["a",1]"#)
    #expect(client.engine.lock.sync { client.queryCache.lookup(key: ["a", 1]) } === first.getCurrentQuery())
  }

  @Test func aKeyHashFunctionIsStillCalled() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    var options = QueryOptions(queryKey: ["a"])
    options.queryKeyHashFn = FunctionBox { _ in "custom" }
    let observer = QueryObserver(client: client, options: options)
    #expect(observer.options.queryHash == "custom")
    #expect(observer.getCurrentQuery().queryHash == "custom")
    #expect(client.queryCache.getAll().count == 2)
  }

  @Test func aKeyWithTheHashOfAnotherKeyFindsThatKeysQuery() {
    // `[null]` and `[undefined]` are unequal keys with one hash: found by hash, as before.
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData([JSONValue.null], value: 1)
    let observer = QueryObserver(client: client, options: QueryOptions(queryKey: [JSONValue.undefined]))
    #expect(observer.getCurrentQuery() === client.queryCache.get("[null]"))
    #expect(observer.options.queryHash == "[null]")
    #expect(client.queryCache.getAll().count == 1)
  }

  @Test func aDefaultHashFunctionIsStillCalled() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    var defaults = QueryOptions()
    defaults.queryKeyHashFn = FunctionBox { key in "d:" + key.queryHash }
    client.setQueryDefaults(["a"], defaults)
    let observer = QueryObserver(client: client, options: QueryOptions(queryKey: ["a"]))
    #expect(observer.options.queryHash == #"d:["a"]"#)
    #expect(observer.getCurrentQuery() !== client.queryCache.get(#"["a"]"#))
  }
}

/// An observer keeps its current result in a box that its listener calls share.
@Suite struct ObserverResultBoxTests {
  @Test func listenersGetTheCurrentResultAndEarlierResultsKeepTheirValues() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    client.setQueryData(["a"], value: 1)
    var options = QueryOptions(queryKey: ["a"])
    options.staleTime = .value(.milliseconds(.infinity))
    let observer = QueryObserver(client: client, options: options)
    let received = OrderedLog<QueryObserverResult>()
    let unsubscribe = observer.subscribe { result in received.append(result) }
    let first = observer.getCurrentResult()
    client.setQueryData(["a"], value: 2)
    client.setQueryData(["a"], value: 3)
    scheduler.runUntilIdle()
    let results = received.entries
    #expect(results.map { $0.data as? Int } == [2, 3])
    #expect(first.data as? Int == 1)
    #expect(observer.getCurrentResult().data as? Int == 3)
    #expect(sameData(observer.getCurrentResult().dataBox, results.last?.dataBox))
    // An optimistic result that differs becomes the current one, as before.
    var other = options
    other.queryKey = ["b"]
    let optimistic = observer.getOptimisticResult(other)
    #expect(optimistic.status == .pending)
    #expect(observer.getCurrentResult().status == .pending)
    unsubscribe()
  }
}

/// A box's `isCommonPrimitive` is a shortcut of `isPrimitive`: never true where it is false.
@Suite struct DataBoxPrimitiveTests {
  @Test func theShortcutAgreesWithIsPrimitive() {
    let values: [any Sendable] = [
      1, "x", 1.5, true, JSONValue.number(1), JSONValue.string("x"), JSONValue.array([]), Float(1), Int64(2),
      [1, 2], ["a": 1], Int?.some(1), Int?.none as any Sendable, DataBox(3),
    ]
    for value in values {
      let box = DataBox(value)
      if box.isCommonPrimitive { #expect(isPrimitive(box.value)) }
    }
    #expect(DataBox(1).isCommonPrimitive && DataBox("x").isCommonPrimitive)
    #expect(DataBox(1.5).isCommonPrimitive && DataBox(false).isCommonPrimitive)
    #expect(DataBox(DataBox(1)).isCommonPrimitive)
    #expect(!DataBox(JSONValue.number(1)).isCommonPrimitive && isPrimitive(JSONValue.number(1)))
    let optional = DataBox(Int?.some(1) as any Sendable)
    #expect(optional.isCommonPrimitive == false)
  }

  @Test func sameDataComparesPrimitivesByValueEitherWay() {
    #expect(sameData(DataBox(1), DataBox(1)))
    #expect(!sameData(DataBox(1), DataBox(2)))
    #expect(!sameData(DataBox(1), DataBox(1.0)))
    #expect(sameData(DataBox(JSONValue.number(1)), DataBox(JSONValue.number(1))))
    #expect(!sameData(DataBox(JSONValue.array([])), DataBox(JSONValue.array([]))))
    #expect(sameData(DataBox("a"), DataBox(Optional("a") as any Sendable)) == isPrimitive(Optional("a") as any Sendable))
    #expect(!sameData(DataBox([1]), DataBox([1])))
  }
}

/// `hasInitialData` follows `initialData` through every way options are made, and a keyed
/// write's new query starts from the defaults' initial data exactly when they have one.
@Suite struct InitialDataFlagTests {
  @Test func theFlagFollowsTheOption() {
    var options = QueryOptions(queryKey: ["a"])
    #expect(!options.hasInitialData)
    options.initialData = .value(1)
    #expect(options.hasInitialData)
    options.initialData = nil
    #expect(!options.hasInitialData)
    options.initialData = .function(FunctionBox { @Sendable in nil })
    #expect(options.hasInitialData)
    var base = QueryOptions()
    base.initialData = .value(2)
    #expect(QueryOptions(queryKey: ["b"]).merged(over: base).hasInitialData)
    #expect(!QueryOptions(queryKey: ["b"]).merged(over: QueryOptions()).hasInitialData)
    let client = QueryClient(scheduler: VirtualScheduler())
    var defaults = client.defaultOptions
    defaults.queries = base
    client.defaultOptions = defaults
    #expect(client.defaultQueryOptions(QueryOptions(queryKey: ["c"])).hasInitialData)
  }

  @Test func aKeyedWritesNewQueryStartsFromTheDefaultsInitialData() {
    // The query a keyed write builds keeps the defaults' initial data as its initial state (what
    // `reset` returns to), or a blank one without them.
    func resetAfterWrite(initialData: InitialDataOption?) -> (any Sendable)? {
      let client = QueryClient(scheduler: VirtualScheduler())
      if let initialData {
        var defaults = client.defaultOptions
        defaults.queries.initialData = initialData
        client.defaultOptions = defaults
      }
      client.setQueryData(["a"], value: 2)
      #expect(client.getQueryData(["a"]) as? Int == 2)
      _ = client.resetQueriesPromise(QueryFilters(queryKey: ["a"]))
      return client.getQueryData(["a"])
    }
    #expect(resetAfterWrite(initialData: nil) == nil)
    #expect(resetAfterWrite(initialData: .value(7)) as? Int == 7)
    #expect(resetAfterWrite(initialData: .function(FunctionBox { @Sendable in 8 })) as? Int == 8)
  }
}

/// A keyed write of a new key shares the client's defaulted options only while no key has
/// `setQueryDefaults` (`QueryClient.noKeyDefaults`, kept beside `queryDefaults`).
@Suite struct KeyDefaultsFlagTests {
  @Test func aKeyedWriteAfterSetQueryDefaultsTakesTheKeysDefaults() {
    let client = QueryClient(scheduler: VirtualScheduler())
    // Builds the shared options of keyed writes first.
    client.setQueryData(["a", 0], value: 0)
    var options = QueryOptions()
    options.gcTime = 10
    client.setQueryDefaults(["a"], options)
    client.setQueryData(["a", 1], value: 1)
    client.setQueryData(["b", 1], value: 1)
    func gcTime(_ key: QueryKey) -> Double? { client.queryCache.find(QueryFilters(queryKey: key))?.options.gcTime }
    // The others keep the client's options, which leave `gcTime` to the query's default.
    #expect(gcTime(["a", 1]) == 10)
    #expect(gcTime(["b", 1]) == nil)
    #expect(gcTime(["a", 0]) == nil)
  }
}

/// `hasPlaceholderData` follows `placeholderData` through every way options are made.
@Suite struct PlaceholderFlagTests {
  @Test func theFlagFollowsTheOption() {
    var options = QueryOptions(queryKey: ["a"])
    #expect(!options.hasPlaceholderData)
    options.placeholderData = .value(1)
    #expect(options.hasPlaceholderData)
    options.placeholderData = nil
    #expect(!options.hasPlaceholderData)
    options.placeholderData = .function(FunctionBox { @Sendable _, _ in nil })
    #expect(options.hasPlaceholderData)
    var base = QueryOptions()
    base.placeholderData = .value(2)
    #expect(QueryOptions(queryKey: ["b"]).merged(over: base).hasPlaceholderData)
    #expect(!QueryOptions(queryKey: ["b"]).merged(over: QueryOptions()).hasPlaceholderData)
    let client = QueryClient(scheduler: VirtualScheduler())
    var defaults = client.defaultOptions
    defaults.queries = base
    client.defaultOptions = defaults
    #expect(client.defaultQueryOptions(QueryOptions(queryKey: ["c"])).hasPlaceholderData)
  }

  @Test func aDefaultedPlaceholderStillShowsWhilePending() {
    let client = QueryClient(scheduler: VirtualScheduler())
    var defaults = client.defaultOptions
    defaults.queries.placeholderData = .value(42)
    client.defaultOptions = defaults
    var options = QueryOptions(queryKey: ["p"])
    options.enabled = .value(false)
    let observer = QueryObserver(client: client, options: options)
    let result = observer.getCurrentResult()
    #expect(result.isPlaceholderData && result.data as? Int == 42 && result.status == .success)
  }
}

/// The refetch filter's lock-free checks answer as the public ones.
@Suite struct LockedQueryChecksTests {
  @Test func lockedChecksAnswerAsThePublicOnes() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    client.setQueryData(["b"], value: 2)
    var staticOptions = QueryOptions(queryKey: ["a"])
    staticOptions.staleTime = .value(.static)
    let a = QueryObserver(client: client, options: staticOptions)
    var disabled = QueryOptions(queryKey: ["b"])
    disabled.enabled = .value(false)
    disabled.staleTime = .value(.milliseconds(5))
    let b = QueryObserver(client: client, options: disabled)
    let ua = a.subscribe { _ in }
    let ub = b.subscribe { _ in }
    for query in [a.getCurrentQuery(), b.getCurrentQuery()] {
      let locked = client.engine.lock.sync { (query.isStaticLocked(), query.isDisabledLocked(), query.isActiveLocked()) }
      #expect(locked.0 == query.isStatic() && locked.1 == query.isDisabled() && locked.2 == query.isActive())
    }
    #expect(a.getCurrentQuery().isStatic() && !b.getCurrentQuery().isStatic())
    #expect(b.getCurrentQuery().isDisabled() && !a.getCurrentQuery().isDisabled())
    ua()
    ub()
  }
}

/// An observer whose key is cached by a keyed write takes the query's hash without writing it
/// (`QueryOptions.takeQueryHash(of:)`): the string is written on the first read, of the options
/// or of the query, once for both, and equals the key's `hashKey`.
@Suite struct ObserverKeyHashTakenUnwrittenTests {
  @Test func theObserversOptionsTakeTheQuerysHashUnwritten() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    let key: QueryKey = ["todos", 7, ["page": 2]]
    client.setQueryData(key, value: 1)
    let observer = QueryObserver(client: client, options: QueryOptions(queryKey: key))
    let query = observer.getCurrentQuery()
    let box = try #require(query.keyHashBox())
    #expect(!box.isWritten)
    #expect(observer.optionsBox.options.hasQueryHash)
    // Read through the options first: written once, for the query too.
    #expect(observer.options.queryHash == key.queryHash)
    #expect(box.isWritten)
    #expect(query.keyHashBox() === box)
    #expect(query.queryHash == #"["todos",7,{"page":2}]"#)
  }

  @Test func theQuerysReadWritesTheOptionsHashToo() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a", 1], value: 1)
    let observer = QueryObserver(client: client, options: QueryOptions(queryKey: ["a", 1]))
    let query = observer.getCurrentQuery()
    #expect(query.queryHash == #"["a",1]"#)
    #expect(try #require(query.keyHashBox()).isWritten)
    #expect(observer.options.queryHash == #"["a",1]"#)
    #expect(query.options.queryHash == #"["a",1]"#)
  }

  @Test func setAndMergedHashesKeepTheirSide() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    let observer = QueryObserver(client: client, options: QueryOptions(queryKey: ["a"]))
    let taken = observer.options
    // Options that take the hash keep theirs over a base with another.
    var base = QueryOptions()
    base.queryHash = "base"
    #expect(taken.merged(over: base).queryHash == #"["a"]"#)
    // Options without one take the base's, taken or given.
    #expect(QueryOptions().merged(over: taken).queryHash == #"["a"]"#)
    #expect(QueryOptions().merged(over: base).queryHash == "base")
    #expect(!QueryOptions().merged(over: QueryOptions()).hasQueryHash)
    // Setting the hash replaces a taken one; setting nil clears it.
    var changed = taken
    changed.queryHash = "given"
    #expect(changed.queryHash == "given")
    changed.queryHash = nil
    #expect(changed.queryHash == nil && !changed.hasQueryHash)
    #expect(taken.queryHash == #"["a"]"#)
  }

  @Test func aGivenHashIsTakenAsTheString() {
    let client = QueryClient(scheduler: VirtualScheduler())
    var options = QueryOptions(queryKey: ["a"])
    options.queryHash = "given"
    let first = QueryObserver(client: client, options: options)
    #expect(first.getCurrentQuery().keyHashBox() == nil)
    #expect(first.options.queryHash == "given")
  }
}

/// Each defaulting of options draws a new identity (`OptionsIdentity.next()`), which their
/// copies share: the same options are no change, equal options defaulted again are.
@Suite struct OptionsIdentityTests {
  @Test func eachDefaultingDrawsANewIdentity() {
    let client = QueryClient(scheduler: VirtualScheduler())
    let first = client.defaultQueryOptions(QueryOptions(queryKey: ["a"]))
    let second = client.defaultQueryOptions(QueryOptions(queryKey: ["a"]))
    #expect(first.identity != nil && second.identity != nil)
    #expect(first.identity != second.identity)
    let copy = first
    #expect(copy.identity == first.identity)
    #expect(first.isShallowEqual(to: copy))
    #expect(!first.isShallowEqual(to: second))
    #expect(client.defaultQueryOptions(QueryOptions(queryKey: ["a"]), identity: false).identity == nil)
  }
}
