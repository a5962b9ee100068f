import Quarry

/// Builds one random fixture step by step, tracking what makes the next step valid (observers
/// and whether they listen, handle names, the clock, focus and online).
struct ScenarioBuilder: Sendable {
  var random: SplitMix64
  var client: JSONValue = .object([:])
  var functions: [String: JSONValue] = [:]
  var steps: [JSONValue] = []
  var keys: [JSONValue] = []
  var queryFunctions: [String] = []
  var mutationFunctions: [String] = []
  var observers: [(name: String, subscribed: Bool)] = []
  /// Named listeners that may be unsubscribed or subscribed again (not those with `unsubscribeAfter`).
  var listeners: [(observer: String, name: String, subscribed: Bool)] = []
  var listenerCount = 0
  /// Mutation observers, named `mo1`, `mo2`, ...
  var mutationObservers = 0
  /// Inside a `tick`: steps take no `at`.
  var inTick = false
  var handles = 0
  var time = 0
  var focused = true
  var online = true

  static let keyPool: [JSONValue] = [
    ["todos"], ["todos", 1], ["todos", 2], ["todos", ["done": true]], ["todos", 1, "comments"],
    ["user"], ["user", "a"],
  ]

  init(random: SplitMix64) { self.random = random }

  mutating func build() {
    var queries: [String: JSONValue] = ["retry": .number(Double(random.pick([0, 0, 1, 2])))]
    if random.chance(50) { queries["retryDelay"] = .number(Double(random.pick([0, 5, 20]))) }
    if random.chance(30) { queries["gcTime"] = random.pick([0, 50, 200] as [JSONValue]) }
    if random.chance(20) { queries["staleTime"] = random.pick([10, 100] as [JSONValue]) }
    if random.chance(15) { queries["networkMode"] = random.pick(["always", "offlineFirst"] as [JSONValue]) }
    client = ["defaultOptions": ["queries": .object(queries)]]

    var pool = Self.keyPool
    for _ in 0..<random.int(2...4) { keys.append(pool.remove(at: random.int(0...(pool.count - 1)))) }
    for index in 0..<random.int(1...3) {
      let name = "f\(index)"
      queryFunctions.append(name)
      functions[name] = outcomes(mutation: false)
    }
    if random.chance(40) {
      mutationFunctions = ["m0"]
      functions["m0"] = outcomes(mutation: true)
    }
    for _ in 0..<random.int(4...24) { step() }
    advance()
    if random.chance(50) { time += random.int(50...300) }
    steps.append(["at": .number(Double(time)), "isFetching": [:], "as": .string(handle())])
  }

  mutating func outcomes(mutation: Bool) -> JSONValue {
    var list: [JSONValue] = []
    let count = random.int(1...4)
    for index in 0..<count {
      var outcome: [String: JSONValue] = [:]
      let roll = random.int(0...99)
      if roll < 5 {
        outcome["throwSync"] = "sync boom"
      } else {
        if random.chance(75) { outcome["after"] = .number(Double(random.pick([0, 1, 5, 10, 25, 40, 60]))) }
        if roll < 30 {
          outcome["throw"] = .string(random.pick(["boom", "down"]))
        } else if mutation && random.chance(50) {
          outcome["return"] = ["$fn": "variables"]
        } else if random.chance(50) {
          outcome["return"] = ["$fn": "callCount"]
        } else {
          outcome["return"] = .number(Double(random.int(0...9)))
        }
        // A mutation function has no abort signal in TanStack (its context has none).
        if !mutation && random.chance(20) { outcome["readSignal"] = true }
        if !mutation && random.chance(10) { outcome["onAbort"] = true }
      }
      if index == count - 1 { outcome["times"] = "forever" } else if random.chance(20) { outcome["times"] = 2 }
      list.append(.object(outcome))
    }
    return .array(list)
  }

  mutating func handle() -> String {
    handles += 1
    return "h\(handles)"
  }

  mutating func advance() {
    if random.chance(30) { return }
    time += random.pick([1, 2, 5, 10, 15, 20, 30, 45, 70])
  }

  mutating func emit(_ operation: String, _ arguments: JSONValue, recording: Bool) {
    var step: [String: JSONValue] = [operation: arguments]
    if !inTick { step["at"] = .number(Double(time)) }
    if recording && random.chance(70) { step["as"] = .string(handle()) }
    steps.append(.object(step))
  }
}
