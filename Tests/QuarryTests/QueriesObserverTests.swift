import Testing
@testable import Quarry

struct Todo: Sendable, Equatable {
  var title: String
}

struct User: Sendable, Equatable {
  var name: String
}

/// What a dashboard shows: a combine of a `[Todo]` query and a `User` query.
struct Dashboard: Sendable, Equatable {
  var todoCount: Int?
  var userName: String?
}

@Suite struct QueriesObserverTests {
  static func queries(_ scheduler: VirtualScheduler, user name: String = "Ada") -> [QueryOptions] {
    var todos = QueryOptions(queryKey: ["todos"])
    todos.queryFn = .fn { _ in
      await scheduler.sleep(10)
      return [Todo(title: "milk"), Todo(title: "eggs")]
    }
    var user = QueryOptions(queryKey: ["user", 1])
    user.queryFn = .fn { _ in
      await scheduler.sleep(20)
      return User(name: name)
    }
    return [todos, user]
  }

  static let dashboard = QueriesCombine(reading: ["data"]) { results in
    Dashboard(
      todoCount: (results[0].data as? [Todo])?.count,
      userName: (results[1].data as? User)?.name)
  }

  @Test func combinesATodoListQueryAndAUserQuery() throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let observer = QueriesObserver(client: client, queries: [])
    observer.setQueries(Self.queries(scheduler), options: QueriesObserverOptions(combine: Self.dashboard))
    let log = Log()
    let unsubscribe = observer.subscribe { results in
      log.append(results.map { "\($0.status)" }.joined(separator: ","))
    }
    #expect(observer.combinedResult as? Dashboard == Dashboard())
    scheduler.advance(by: 10)
    #expect(observer.combinedResult as? Dashboard == Dashboard(todoCount: 2))
    scheduler.advance(by: 10)
    #expect(observer.combinedResult as? Dashboard == Dashboard(todoCount: 2, userName: "Ada"))
    let results = observer.getCurrentResult()
    #expect(try results[0].data(as: [Todo].self) == [Todo(title: "milk"), Todo(title: "eggs")])
    #expect(try results[1].data(as: User.self) == User(name: "Ada"))
    // One call per change of the combined value; the fetching states (untracked) notify nobody.
    #expect(log.entries == ["pending,pending", "success,pending", "success,success"])

    // An equal write keeps the combined value, so nobody hears of it.
    client.setQueryData(["user", 1], value: User(name: "Ada"))
    scheduler.advance(by: 0)
    #expect(log.entries.count == 3)
    client.setQueryData(["user", 1], value: User(name: "Grace"))
    scheduler.advance(by: 0)
    #expect(observer.combinedResult as? Dashboard == Dashboard(todoCount: 2, userName: "Grace"))
    #expect(log.entries.count == 4)
    unsubscribe()
    #expect(client.queryCache.getAll().allSatisfy { $0.observerCount == 0 })
  }

  @Test func aCombineGivenToTheConstructorIsDropped() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let observer = QueriesObserver(client: client, queries: Self.queries(scheduler), options: QueriesObserverOptions(combine: Self.dashboard))
    let log = Log()
    let unsubscribe = observer.subscribe { _ in log.append("results") }
    scheduler.advance(by: 20)
    #expect(observer.combinedResult == nil)
    #expect(log.entries.count == 4)
    unsubscribe()
  }

  @Test func reorderingReusesObserversWithoutRefetching() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let queries = Self.queries(scheduler)
    let observer = QueriesObserver(client: client, queries: queries)
    let unsubscribe = observer.subscribe { _ in }
    scheduler.advance(by: 20)
    let before = observer.getObservers()
    observer.setQueries([queries[1], queries[0]])
    #expect(observer.getObservers().map(ObjectIdentifier.init) == before.reversed().map(ObjectIdentifier.init))
    #expect(observer.getQueries().map(\.queryHash) == [#"["user",1]"#, #"["todos"]"#])
    #expect(client.isFetching() == 0)
    let optimistic = observer.getOptimisticResult([queries[0]], combine: nil)
    #expect(optimistic.results.count == 1)
    #expect((optimistic.combine(nil) as? [QueryObserverResult])?.count == 1)
    unsubscribe()
  }

  @Test func removingOneOfTwoListenersKeepsTheObserversSubscribed() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let observer = QueriesObserver(client: client, queries: Self.queries(scheduler))
    let first = observer.subscribe { _ in }
    let second = observer.subscribe { _ in }
    first()
    #expect(observer.hasListeners)
    #expect(client.queryCache.getAll().allSatisfy { $0.observerCount == 1 })
    second()
    #expect(!observer.hasListeners)
    #expect(client.queryCache.getAll().allSatisfy { $0.observerCount == 0 })
  }

  @Test func listenersOnManyThreadsSeeEveryWriteInOrder() async {
    let client = QueryClient(scheduler: ClockScheduler(clock: ContinuousClock()))
    var counter = QueryOptions(queryKey: ["counter"])
    counter.queryFn = .fn { _ in 0 }
    counter.staleTime = .value(.milliseconds(.infinity))
    client.setQueryData(["counter"], value: 0)
    let observer = QueriesObserver(client: client, queries: [])
    observer.setQueries([counter], options: QueriesObserverOptions(combine: QueriesCombine(reading: ["data"]) { results in
      results.first?.data as? Int ?? -1
    }))
    let seen = Log()
    let unsubscribe = observer.subscribe { results in seen.append("\(results.first?.data as? Int ?? -1)") }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<50 { client.setQueryData(["counter"]) { old in (old as? Int ?? 0) + 1 } }
        }
      }
    }
    #expect(observer.combinedResult as? Int == 200)
    // Every write changes the combined value, and listener calls of all threads are delivered
    // in the order the writes committed (ARCHITECTURE.md, "Order across threads"): one call per
    // write, never an older value after a newer one (`CommitOrderTests` pins the interleaving).
    let values = seen.entries.compactMap(Int.init)
    #expect(values == Array(1...200), "a listener hears every write, in commit order")
    unsubscribe()
  }
}
