import Testing
@testable import QuarryLive

@Suite struct LiveFetchMachineTests {
  @Test func changesDuringAFetchAreFetchedOnceAfterIt() {
    var machine = LiveFetchMachine()
    #expect(machine.start() == .fetch(id: 1))
    #expect(machine.changed() == .none)
    #expect(machine.changed() == .none)
    #expect(machine.completed(1) == .apply(thenFetch: 2))
    #expect(machine.completed(2) == .apply(thenFetch: nil))
    #expect(machine.isSettled)
  }

  @Test func aRestartMakesTheRunningFetchStale() {
    var machine = LiveFetchMachine()
    _ = machine.start()
    #expect(machine.restart() == .fetch(id: 2))
    #expect(machine.completed(2) == .apply(thenFetch: nil))
    #expect(machine.completed(1) == .discard)
  }

  @Test func pausedChangesFetchOnceOnResume() {
    var machine = LiveFetchMachine()
    _ = machine.start()
    machine.pause()
    #expect(machine.completed(1) == .discard)
    #expect(machine.changed() == .none)
    #expect(machine.resume() == .fetch(id: 2))
    #expect(machine.resume() == .none)
  }

  @Test func aRestartWhilePausedDropsTheRunningFetch() {
    var machine = LiveFetchMachine()
    _ = machine.start()
    machine.pause()
    #expect(machine.restart() == .none)
    #expect(machine.resume() == .fetch(id: 2))
    #expect(machine.completed(1) == .discard)
  }

  @Test func aStoppedMachineFetchesNothing() {
    var machine = LiveFetchMachine()
    #expect(machine.changed() == .none)
    _ = machine.start()
    machine.stop()
    #expect(machine.completed(1) == .discard)
    #expect(machine.changed() == .none)
    #expect(machine.start() == .fetch(id: 2))
  }
}
