// The crash test's helper (Scripts/crash-test.sh), not part of the library.
//
//   quarry-crash-writer write <file|sqlite> <path>   writes snapshots in a loop and prints
//                                                    "committed N" after each complete write
//   quarry-crash-writer check <file|sqlite> <path> <N>  restores after the kill and checks that
//                                                    the stored state is generation N or N + 1,
//                                                    complete, and that the paused mutation
//                                                    stored with it resumes
import Foundation
import Quarry
import QuarryPersist

let queryCount = 200
let payload = String(repeating: "x", count: 400)
let mutationKey: QueryKey = ["crash", "note"]
let noteVariables: JSONValue = ["note": "written before the kill"]

func storage(_ backend: String, _ path: String) throws -> any PersistStorage {
  switch backend {
  case "file": return try FileStorage(directory: URL(fileURLWithPath: path))
  case "sqlite": return try SQLiteStorage(path: path)
  default: fail("unknown backend \(backend)")
  }
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("quarry-crash-writer: \(message)\n".utf8))
  exit(1)
}

/// Unbuffered, so the line exists as soon as the write it reports returned.
func report(_ line: String) {
  let bytes = Array((line + "\n").utf8)
  _ = bytes.withUnsafeBufferPointer { write(1, $0.baseAddress, $0.count) }
}

func writeLoop(_ backend: String, _ path: String) throws -> Never {
  let scheduler = VirtualScheduler()
  scheduler.advance(to: Date().timeIntervalSince1970 * 1000)  // real timestamps: the check uses the real clock
  let client = QueryClient(scheduler: scheduler)
  client.onlineManager.setOnline(false)
  var mutation = MutationOptions(mutationKey: mutationKey)
  mutation.mutationFn = MutationFunction { _, _ in JSONValue.string("never runs offline") }
  _ = client.mutatePromise(mutation, variables: noteVariables)
  scheduler.runUntilIdle()
  let persister = StoragePersister(storage: try storage(backend, path), scheduler: scheduler, throttleTime: 0, onError: { error in
    fail("a save failed: \(error)")
  })
  let options = PersistQueryClientOptions(persister: persister)
  var generation = 0
  while true {
    generation += 1
    for i in 0..<queryCount {
      _ = client.setQueryData(["item", .number(Double(i))], value: ["generation": .number(Double(generation)), "index": .number(Double(i)), "payload": .string(payload)] as JSONValue)
    }
    persistQueryClientSave(client, options)  // throttle 0: written before it returns
    if persister.isSaving { fail("the save did not finish synchronously") }
    report("committed \(generation)")
    scheduler.advance(by: 1)
  }
}

func check(_ backend: String, _ path: String, _ committed: Int) async throws {
  let client = QueryClient()
  let noted = Locked<JSONValue>()
  var defaults = MutationOptions()
  defaults.mutationFn = MutationFunction { variables, _ in
    noted.append(variables as? JSONValue ?? .null)
    return JSONValue.string("sent")
  }
  client.setMutationDefaults(mutationKey, defaults)
  let persister = StoragePersister(storage: try storage(backend, path), scheduler: client.scheduler)
  try persistQueryClientRestore(client, PersistQueryClientOptions(persister: persister))
  let queries = client.queryCache.getAll()
  guard queries.count == queryCount else { fail("restored \(queries.count) queries, expected \(queryCount)") }
  var generations = Set<Int>()
  for (i, query) in queries.enumerated() {
    guard let data = query.state.data as? JSONValue, data["index"]?.numberValue == Double(i), data["payload"]?.stringValue == payload,
      let generation = data["generation"]?.numberValue
    else { fail("query \(i) is damaged: \(String(describing: query.state.data))") }
    generations.insert(Int(generation))
  }
  guard generations.count == 1, let generation = generations.first else { fail("a mix of generations: \(generations.sorted())") }
  guard generation == committed || generation == committed + 1 else {
    fail("generation \(generation) stored, but \(committed) was the last committed")
  }
  let mutations = client.mutationCache.getAll()
  guard mutations.count == 1, mutations[0].state.isPaused else { fail("the paused mutation was not restored") }
  await client.resumePausedMutations()
  guard noted.values == [noteVariables], mutations[0].state.status == .success else {
    fail("the restored mutation did not resume: \(noted.values), \(mutations[0].state.status)")
  }
  print("ok generation \(generation) (last committed \(committed)), mutation resumed")
}

final class Locked<Value: Sendable>: @unchecked Sendable {
  // Safe: `items` is only touched while `lock` is held.
  private let lock = NSLock()
  private var items: [Value] = []
  func append(_ value: Value) { lock.withLock { items.append(value) } }
  var values: [Value] { lock.withLock { items } }
}

let arguments = CommandLine.arguments
guard arguments.count >= 4 else { fail("usage: write|check <file|sqlite> <path> [committed]") }
do {
  switch arguments[1] {
  case "write": try writeLoop(arguments[2], arguments[3])
  case "check":
    guard arguments.count == 5, let committed = Int(arguments[4]) else { fail("check needs the last committed generation") }
    try await check(arguments[2], arguments[3], committed)
  default: fail("unknown command \(arguments[1])")
  }
} catch {
  fail("\(error)")
}
