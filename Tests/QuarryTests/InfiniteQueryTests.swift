import Testing
@testable import Quarry

/// One page of a paged server list.
struct TodoPage: Sendable, Equatable {
  var todos: [String]
  var next: Int?
}

/// A fake server: 3 pages of 2 todos.
enum PagedServer {
  static func page(_ number: Int) -> TodoPage {
    TodoPage(todos: ["todo \(2 * number)", "todo \(2 * number + 1)"], next: number < 2 ? number + 1 : nil)
  }

  static func options(_ calls: Log, key: QueryKey = ["todos"]) -> QueryOptions {
    .infinite(
      queryKey: key, as: TodoPage.self, initialPageParam: 0,
      getNextPageParam: { page, _, _, _ in page.next.map { .number(Double($0)) } },
      getPreviousPageParam: { _, _, first, _ in
        guard let n = first?.numberValue, n > 0 else { return nil }
        return .number(n - 1)
      },
      queryFn: { context in
        let number = Int(context.pageParam?.numberValue ?? 0)
        calls.append("page \(number) \(context.direction?.rawValue ?? "-")")
        return page(number)
      })
  }
}

@Suite struct InfiniteQueryTests {
  /// The observer's first options go through its `setOptions` override too (TanStack's
  /// `InfiniteQueryObserver` sets `_type: 'infinite'` in its `setOptions`, which its
  /// constructor calls): options made without `.infinite(…)` still build an infinite query.
  @Test func anInfiniteObserversFirstOptionsAreInfinite() {
    let client = QueryClient(scheduler: VirtualScheduler())
    var options = QueryOptions(queryKey: ["plain"])
    options.queryFn = .fn { _ in 1 }
    #expect(options.isInfinite == false)
    let observer = InfiniteQueryObserver(client: client, options: options)
    #expect(observer.options.isInfinite)
    #expect(observer.getCurrentQuery().options.isInfinite)
  }

  @Test func pagesThroughATypedListUntilThereIsNoNextPage() async throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let calls = Log()
    let observer = InfiniteQueryObserver(client: client, options: PagedServer.options(calls))
    let unsubscribe = observer.subscribe { _ in }
    scheduler.advance(by: 0)
    #expect(observer.getCurrentResult().hasNextPage)
    var fetches = 0
    while observer.getCurrentResult().hasNextPage {
      let next = Task(executorPreference: scheduler) { try await observer.fetchNextPage() }
      scheduler.advance(by: 0)
      let result = try await next.value
      #expect(!result.isFetchingNextPage)
      fetches += 1
      #expect(fetches < 10, "paging must end")
    }
    let result = observer.getCurrentResult()
    let pages = try #require(result.infiniteData).pages(as: TodoPage.self)
    #expect(fetches == 2)
    #expect(pages.flatMap(\.todos) == (0..<6).map { "todo \($0)" })
    #expect(result.infiniteData?.pageParams == [0, 1, 2])
    #expect(!result.hasPreviousPage)
    #expect(calls.entries == ["page 0 forward", "page 1 forward", "page 2 forward"])
    #expect(throws: QuarryError.self) { try result.infiniteData?.pages(as: Int.self) }
    unsubscribe()
  }

  @Test func aRefetchFetchesEveryPageAndFetchPreviousPagePrepends() async throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let calls = Log()
    var options = PagedServer.options(calls)
    options.initialPageParam = 1
    let observer = InfiniteQueryObserver(client: client, options: options)
    let unsubscribe = observer.subscribe { _ in }
    scheduler.advance(by: 0)
    let next = Task(executorPreference: scheduler) { try await observer.fetchNextPage() }
    scheduler.advance(by: 0)
    _ = try await next.value
    let refetch = Task(executorPreference: scheduler) { try await observer.refetch() }
    scheduler.advance(by: 0)
    #expect(try await refetch.value.infiniteData?.pageParams == [1, 2])
    #expect(observer.getCurrentResult().hasPreviousPage)
    let previous = Task(executorPreference: scheduler) { try await observer.fetchPreviousPage() }
    scheduler.advance(by: 0)
    let result = try await previous.value
    #expect(result.infiniteData?.pageParams == [0, 1, 2])
    #expect(!result.hasPreviousPage && !result.hasNextPage)
    #expect(calls.entries == ["page 1 forward", "page 2 forward", "page 1 forward", "page 2 forward", "page 0 backward"])
    unsubscribe()
  }

  @Test func clientFetchesPrefetchesAndEnsuresInfiniteQueries() async throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let calls = Log()
    var twoPages = PagedServer.options(calls)
    twoPages.pages = 2
    let options = twoPages
    let fetch = Task(executorPreference: scheduler) { try await client.fetchInfiniteQuery(options) }
    scheduler.advance(by: 0)
    #expect(try await fetch.value.pages(as: TodoPage.self) == [PagedServer.page(0), PagedServer.page(1)])

    let ensure = Task(executorPreference: scheduler) { try await client.ensureInfiniteQueryData(options) }
    scheduler.advance(by: 0)
    #expect(try await ensure.value.pageParams == [0, 1])
    #expect(calls.entries.count == 2, "cached pages are returned without fetching")

    var broken = QueryOptions(queryKey: ["broken"])
    broken.queryFn = .fn { _ in throw CancellationError() }
    broken.initialPageParam = 0
    let failing = broken
    let prefetch = Task(executorPreference: scheduler) { await client.prefetchInfiniteQuery(failing) }
    scheduler.advance(by: 0)
    await prefetch.value
    #expect(client.getQueryState(["broken"])?.status == .error)

    let prefetchPages = Task(executorPreference: scheduler) { await client.prefetchInfiniteQuery(PagedServer.options(calls, key: ["other"])) }
    scheduler.advance(by: 0)
    await prefetchPages.value
    let cached = try #require(InfiniteData(client.getQueryData(["other"])))
    #expect(try cached.pages(as: TodoPage.self) == [PagedServer.page(0)])
  }

  @Test func maxPagesDropsFromTheOtherEnd() async throws {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var options = PagedServer.options(Log())
    options.maxPages = 2
    let observer = InfiniteQueryObserver(client: client, options: options)
    let unsubscribe = observer.subscribe { _ in }
    scheduler.advance(by: 0)
    for _ in 0..<2 {
      let next = Task(executorPreference: scheduler) { try await observer.fetchNextPage() }
      scheduler.advance(by: 0)
      _ = try await next.value
    }
    #expect(observer.getCurrentResult().infiniteData?.pageParams == [1, 2])
    #expect(observer.getCurrentResult().hasPreviousPage)
    unsubscribe()
  }
}
