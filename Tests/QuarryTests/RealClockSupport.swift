import Foundation

/// A thread-safe counter for tests on the real clock.
final class Counter: @unchecked Sendable {
  // Safe: `storage` is guarded by `lock`.
  private let lock = NSLockish()
  private var storage = 0
  func increment() { lock.sync { storage += 1 } }
  var value: Int { lock.sync { storage } }
}

/// A thread-safe dictionary for tests on the real clock.
final class LockedMap<Key: Hashable, Value>: @unchecked Sendable {
  // Safe: `storage` is guarded by `lock`.
  private let lock = NSLockish()
  private var storage: [Key: Value] = [:]
  subscript(key: Key) -> Value? {
    get { lock.sync { storage[key] } }
    set { lock.sync { storage[key] = newValue } }
  }
  func update(_ key: Key, default value: Value, _ body: (inout Value) -> Void) {
    lock.sync { body(&storage[key, default: value]) }
  }
  var snapshot: [Key: Value] { lock.sync { storage } }
}

/// How long a real-clock test waits before it calls work stuck: these waits only turn a hang
/// into a failure. On a two-core machine the full `swift test` keeps both cooperative-pool
/// threads busy with other suites, and a real-clock test's tasks wait for them: in a full run
/// on this project's CI machine `ProductionStressTests` (0.55 s alone) took 52-66 s and the
/// `ClockSchedulerTests` cases about 57 s, against 60 s bounds (one run failed so), and a
/// `VirtualSchedulerTests` task once took 75 s to start beside two release builds.
let hangGuardSeconds: Double = 300

/// Polls `condition` every millisecond until it holds or `seconds` pass on the real clock;
/// returns whether it held. Tests use it to fail, not hang, when work never finishes. The bound
/// is generous because parallel tests that block the cooperative pool can starve timers for
/// seconds; a timer that is lost never comes, however long the wait.
func eventually(within seconds: Double, _ condition: @Sendable () -> Bool) async -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: .milliseconds(seconds * 1000))
  while clock.now < deadline {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return condition()
}
