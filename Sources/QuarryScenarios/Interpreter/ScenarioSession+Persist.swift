import Foundation
import Quarry
import QuarryPersist

/// The scenario's storage (shared by every client of the scenario, as a device's disk outlives an
/// app) and the current client's persistence.
final class PersistSession {
  var storage: TracingStorage?
  var persistence: QueryClientPersistence?
}

/// Steps of persistence: `setStorage`, `persistClient`, `unpersist` (Specs/README.md
/// "Persistence"). Node twin: Conformance/tanstack/Interpreter/ScenarioSession+Persist.mjs.
extension ScenarioSession {
  func scenarioStorage() -> TracingStorage {
    if let storage = persist.storage { return storage }
    let storage = TracingStorage { [unowned self] event in emit(event) }
    persist.storage = storage
    return storage
  }

  /// `queryFn` wrapped by a `QueryPersister` over the scenario's storage (the `persister` query
  /// option: TanStack's `experimental_createQueryPersister(...).persisterFn`).
  func persistedQueryFn(_ queryFn: QueryFnOption?, _ config: JSONValue, _ path: String) throws -> QueryFnOption {
    guard case .object(let o) = config else { throw decoder.fail(path, "expected {refetchOnRestore?, maxAge?, buster?}") }
    var refetch = RefetchOnRestore.ifStale
    var maxAge = 1000.0 * 60 * 60 * 24
    var buster = ""
    for (name, value) in o {
      switch (name, value) {
      case ("refetchOnRestore", .bool(let b)): refetch = b ? .ifStale : .never
      case ("refetchOnRestore", .string("always")): refetch = .always
      case ("maxAge", .number(let n)) where n >= 0: maxAge = n
      case ("buster", .string(let s)): buster = s
      default: throw decoder.fail("\(path).\(name)", "refetchOnRestore (a boolean or \"always\"), maxAge (a number ≥ 0) or buster (a string)")
      }
    }
    let persister = QueryPersister(storage: scenarioStorage(), buster: buster, maxAge: maxAge, refetchOnRestore: refetch)
    return persister.queryFn(queryFn ?? .skipToken)
  }

  func performPersist(_ step: Step, _ a: ArgumentReader) throws {
    switch step.operation {
    case "setStorage":
      let storage = scenarioStorage()
      if a.has("quota") { storage.quota = Int(try a.number("quota")) }
      if case .object(let items)? = a["items"] {
        for (key, value) in items { storage.preset(key, fixtureValue(value) ?? .null) }
      }
    case "unpersist":
      persist.persistence?.unsubscribe()
    default:
      let chosen = try a["dehydrateOptions"].map { try dehydrateOptions($0, "\(step.path).dehydrateOptions") } ?? DehydrateOptions()
      let persister = StoragePersister(
        storage: scenarioStorage(), scheduler: client.scheduler,
        throttleTime: a.has("throttleTime") ? try a.number("throttleTime") : 1000,
        retry: a.has("retry") ? removeOldestQuery : nil)
      let options = PersistQueryClientOptions(
        persister: persister, maxAge: a.has("maxAge") ? try a.number("maxAge") : 1000 * 60 * 60 * 24,
        buster: a.has("buster") ? try a.string("buster") : "", dehydrateOptions: chosen)
      let persistence = persistQueryClient(client, options)
      persist.persistence = persistence
      let outcome = Result<Void, any Error> { try persistence.restore() }
      track(Promise<Void>.settled(outcome, scheduler: scheduler), handle: step.handle) { _ in nil }
    }
  }
}

/// An in-memory storage with TanStack's storage-full rule (keys and values count; here in UTF-8
/// bytes, equal to JavaScript's length for ASCII) that writes a `storage` trace event per write.
final class TracingStorage: PersistStorage, @unchecked Sendable {
  // Safe: a scenario session runs every job on the thread that drives it.
  var items: [String: Data] = [:]
  var quota: Int?
  let emit: (TraceEvent) -> Void

  init(emit: @escaping (TraceEvent) -> Void) { self.emit = emit }

  /// Stores a fixture's value as its JSON text, writing no event.
  func preset(_ key: String, _ value: JSONValue) {
    items[key] = Data(value.canonicalJSON.utf8)
  }

  func getItem(_ key: String) throws -> Data? { items[key] }

  func setItem(_ key: String, _ value: Data) throws {
    if let quota {
      let others = items.filter { $0.key != key }.reduce(0) { $0 + $1.key.utf8.count + $1.value.count }
      if others + key.utf8.count + value.count > quota {
        emit(["ev": "storage", "op": "setItem", "key": .string(key), "refused": true])
        throw PersistStorageError.full("quota exceeded")
      }
    }
    items[key] = value
    // The persister writes plain JSON through `JSONEncoder` (at most 512 levels deep), which the
    // strict parser reads as `JSONDecoder` does, several times faster; anything else goes on to
    // `JSONDecoder`, then stands as its text.
    let json = (try? JSONParser.parse(bytes: Array(value)))
      ?? (try? JSONDecoder().decode(JSONValue.self, from: value)) ?? .string(String(decoding: value, as: UTF8.self))
    emit(["ev": "storage", "op": "setItem", "key": .string(key), "value": json])
  }

  func removeItem(_ key: String) throws {
    items[key] = nil
    emit(["ev": "storage", "op": "removeItem", "key": .string(key)])
  }

  func entries() throws -> [(key: String, value: Data)] { items.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
}
