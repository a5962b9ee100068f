import QuarryApp
import Testing
@testable import QuarrySwiftUI

/// A query that answers after `delay` virtual milliseconds.
struct SlowNumber: QueryFunc {
  let scheduler: VirtualScheduler
  let delay: Double
  func run(_ id: Int) async throws -> Int {
    await scheduler.sleep(delay)
    return id
  }
}

/// A mutation that settles after 50 virtual milliseconds.
struct SlowSave: MutationFunc {
  let scheduler: VirtualScheduler
  func run(variables: Int) async throws -> Int {
    await scheduler.sleep(50)
    return variables
  }
}

@MainActor @Suite struct CacheActivityTests {
  @Test func countsFetchingQueriesAsTheyStartAndSettle() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let fetching = CacheActivity.fetching(client, QueryFilters())
    #expect(fetching.count == 0)

    let fast = QueryModel(SlowNumber(scheduler: scheduler, delay: 100), client: client)
    let slow = QueryModel(SlowNumber(scheduler: scheduler, delay: 300), client: client)
    fast.setVariables(1)
    slow.setVariables(2)
    #expect(fetching.count == 2)
    scheduler.advance(by: 100)
    #expect(fetching.count == 1)
    scheduler.advance(by: 200)
    #expect(fetching.count == 0)
  }

  @Test func filtersNarrowTheCount() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let one = QueryModel(SlowNumber(scheduler: scheduler, delay: 100), client: client)
    let two = QueryModel(SlowNumber(scheduler: scheduler, delay: 100), client: client)
    let onlyOne = CacheActivity.fetching(client, QueryFilters(queryKey: QueryCacheKey<SlowNumber>(variables: 1).queryKey))
    one.setVariables(1)
    two.setVariables(2)
    #expect(onlyOne.count == 1)
    scheduler.advance(by: 100)
    #expect(onlyOne.count == 0)
  }

  @Test func countsPendingMutations() async {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let mutating = CacheActivity.mutating(client, MutationFilters())
    let save = MutationModel(SlowSave(scheduler: scheduler), client: client)
    let run = Task { await save.mutate(with: 7) }
    await Task.yield()
    // The mutation starts synchronously inside `mutate`; wait until it has.
    while save.result?.status != .pending { await Task.yield() }
    #expect(mutating.count == 1)
    scheduler.advance(by: 50)
    _ = await run.value
    #expect(mutating.count == 0)
  }

  @Test func stopsCountingWhenReleased() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    var fetching: CacheActivity? = CacheActivity.fetching(client, QueryFilters())
    weak let released = fetching
    fetching = nil
    #expect(released == nil)
    let model = QueryModel(SlowNumber(scheduler: scheduler, delay: 100), client: client)
    model.setVariables(1)  // no listener left to call
    #expect(client.isFetching() == 1)
  }

  @Test func theHolderMakesOneModelPerClient() {
    let first = QueryClient(scheduler: VirtualScheduler())
    let second = QueryClient(scheduler: VirtualScheduler())
    let holder = ModelHolder<CacheActivity>()
    var made = 0
    let make = { (client: QueryClient) -> CacheActivity in
      made += 1
      return CacheActivity.fetching(client, QueryFilters())
    }
    let a = holder.model(for: first, make: make)
    #expect(holder.model(for: first, make: make) === a)
    #expect(made == 1)
    let b = holder.model(for: second, make: make)
    #expect(b !== a)
    #expect(made == 2)
  }
}
