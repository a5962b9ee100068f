import Foundation
import Quarry
@testable import QuarryPersist
import Testing

/// The persister on the production scheduler: changes from many threads are saved off the
/// callers' threads, the last one wins, and a new client restores it from the file.
@Suite struct RealClockPersistTests {
  /// Polls `condition` until it holds or `seconds` pass (a bound so a lost save fails, not hangs).
  func eventually(within seconds: Double, _ condition: @Sendable () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .milliseconds(seconds * 1000))
    while clock.now < deadline {
      if condition() { return true }
      try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
  }

  @Test func concurrentChangesEndInTheLatestSnapshot() async throws {
    let storage = try FileStorage(directory: temporaryDirectory("realclock"))
    let client = QueryClient()
    let persister = StoragePersister(storage: storage, scheduler: client.scheduler, throttleTime: 20)
    let persistence = persistQueryClient(client, PersistQueryClientOptions(persister: persister))
    try persistence.restore()
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<8 {
        group.addTask {
          for i in 0..<50 { _ = client.setQueryData(["item", .number(Double(thread))], value: JSONValue.number(Double(i))) }
        }
      }
    }
    _ = client.setQueryData(["done"], value: JSONValue.bool(true))
    let saved = await eventually(within: 300) {  // a hang guard: see QuarryTests' hangGuardSeconds
      guard !persister.isSaving, let stored = try? persister.restoreClient() else { return false }
      return stored.clientState.queries.contains { $0.queryHash == #"["done"]"# }
    }
    #expect(saved)
    persistence.unsubscribe()
    let relaunched = QueryClient()
    try persistQueryClient(relaunched, PersistQueryClientOptions(persister: StoragePersister(storage: storage, scheduler: relaunched.scheduler))).restore()
    for thread in 0..<8 {
      #expect(relaunched.getQueryData(["item", .number(Double(thread))]) as? JSONValue == 49)
    }
    #expect(relaunched.getQueryData(["done"]) as? JSONValue == true)
  }
}
