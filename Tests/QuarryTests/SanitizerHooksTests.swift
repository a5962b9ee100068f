import Synchronization
import Testing
@testable import Quarry

/// `sanitizerAcquire` / `sanitizerRelease` skip the hooks' lookup once it found none: the flag
/// must say "absent" exactly when the process has no thread sanitizer, so that under
/// `--sanitize=thread` every critical section still tells the sanitizer its ordering.
@Suite struct SanitizerHooksTests {
  @Test func theAbsentFlagFollowsTheHooks() {
    // A promise's critical sections go through both functions.
    let promise = Promise<Int>(scheduler: VirtualScheduler())
    promise.resolve(1)
    promise.whenSettled { _ in }
    let hooks = SanitizerHooks.current
    #expect((hooks.acquire == nil) == (hooks.release == nil))
    #expect(sanitizerAbsent.load(ordering: .relaxed) == (hooks.acquire == nil ? 1 : 0))
  }
}
