import Synchronization
import Testing
@testable import Quarry

/// A settled fetch loads the cache for its config's callbacks only when the cache link says the
/// config has one (`QueryCacheLink.hasFetchCallbacks`): the flag must say so for each callback,
/// and the callbacks must still be called.
@Suite struct FetchCallbacksFlagTests {
  final class Calls: Sendable {
    let names = Mutex<[String]>([])
    init() {}
  }

  @Test func theFlagFollowsTheConfig() {
    let calls = Calls()
    let configs: [(QueryCache.Config, Bool)] = [
      (QueryCache.Config(), false),
      (QueryCache.Config(onSuccess: { _, _ in calls.names.withLock { $0.append("success") } }), true),
      (QueryCache.Config(onError: { _, _ in calls.names.withLock { $0.append("error") } }), true),
      (QueryCache.Config(onSettled: { _, _, _ in calls.names.withLock { $0.append("settled") } }), true),
    ]
    for (config, expected) in configs {
      let client = QueryClient(scheduler: VirtualScheduler(), queryCacheConfig: config)
      #expect(client.queryCache.link.hasFetchCallbacks == expected)
    }
  }

  @Test func theCallbacksAreCalled() {
    let calls = Calls()
    let scheduler = VirtualScheduler()
    let config = QueryCache.Config(
      onSuccess: { _, query in calls.names.withLock { $0.append("success \(query.queryHash)") } },
      onError: { _, query in calls.names.withLock { $0.append("error \(query.queryHash)") } },
      onSettled: { _, _, query in calls.names.withLock { $0.append("settled \(query.queryHash)") } })
    let client = QueryClient(scheduler: scheduler, queryCacheConfig: config)
    var good = QueryOptions(queryKey: ["good"])
    good.queryFn = .fn { _ in 1 }
    var bad = QueryOptions(queryKey: ["bad"])
    bad.queryFn = .fn { _ in throw QuarryError.missingQueryFn(queryHash: "x") }
    _ = client.fetchQueryPromise(good)
    _ = client.fetchQueryPromise(bad)
    scheduler.runUntilIdle()
    #expect(calls.names.withLock { $0 } == [
      #"success ["good"]"#, #"settled ["good"]"#, #"error ["bad"]"#, #"settled ["bad"]"#,
    ])
  }
}
