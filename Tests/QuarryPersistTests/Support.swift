import Foundation
import Quarry
@testable import QuarryPersist
import QuarryTestSupport

/// A lock-guarded value for test logs.
final class Locked<Value>: @unchecked Sendable {
  // Safe: `value` is only touched while `lock` is held.
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
  var current: Value { withLock { $0 } }
}

/// A storage that counts writes and can be told to fail.
final class SpyStorage: PersistStorage, @unchecked Sendable {
  // Safe: `inner` is thread-safe; the counters are guarded by `log`.
  let inner: InMemoryStorage
  let log = Locked<[String]>([])
  let failGet = Locked<(any Error)?>(nil)
  let failRemove = Locked<(any Error)?>(nil)
  init(quota: Int? = nil) { inner = InMemoryStorage(quota: quota) }
  func getItem(_ key: String) throws -> Data? {
    log.withLock { $0.append("get") }
    if let error = failGet.current { throw error }
    return try inner.getItem(key)
  }
  func setItem(_ key: String, _ value: Data) throws {
    log.withLock { $0.append("set") }
    try inner.setItem(key, value)
  }
  func removeItem(_ key: String) throws {
    log.withLock { $0.append("remove") }
    if let error = failRemove.current { throw error }
    try inner.removeItem(key)
  }
  func entries() throws -> [(key: String, value: Data)] { try inner.entries() }
  var sets: Int { log.current.filter { $0 == "set" }.count }
}

/// An error a test throws.
struct TestFailure: Error, Equatable { var message: String }

/// A fresh temporary directory (removed when the test process exits).
func temporaryDirectory(_ name: String) -> URL {
  ScratchFolder.make("quarry-persist-\(name)")
}

/// A successful query state with `data` written at `at`, through the state's JSON.
func successState(_ data: JSONValue, at: Double) throws -> QueryState {
  let json: JSONValue = ["status": "success", "fetchStatus": "idle", "data": data, "dataUpdatedAt": .number(at), "dataUpdateCount": 1]
  return try JSONDecoder().decode(QueryState.self, from: JSONEncoder().encode(json))
}

/// A snapshot with one query per (key, data, dataUpdatedAt).
func snapshot(_ queries: [(String, JSONValue, Double)], mutations: [DehydratedMutation] = []) throws -> DehydratedState {
  DehydratedState(mutations: mutations, queries: try queries.map { key, data, at in
    DehydratedQuery(queryHash: QueryKey([.string(key)]).queryHash, queryKey: QueryKey([.string(key)]), state: try successState(data, at: at), dehydratedAt: at)
  })
}
