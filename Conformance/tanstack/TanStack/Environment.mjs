// The reference side only (no Swift twin): loading query-core and TanStack's persisters, the
// process-wide set-up (TanStack's timers and notify scheduler on the virtual clock, not a
// server), the per-scenario environment (focus, online, `Date.now`), and which promise
// rejections nobody handles are expected. The Swift runner's engine is built for the virtual
// clock (Sources/Quarry/Scheduling/VirtualScheduler.swift) and needs none of this.

import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { VirtualClock } from '../Scheduling/VirtualClock.mjs'
import { ScriptedCallbackError } from '../Interpreter/ScenarioSession+Mutations.mjs'
import { ScriptError } from '../Interpreter/ScenarioSession.mjs'

// The harness's process-wide state, one object (an importer cannot assign to an imported `let`):
// `clock` is the clock TanStack's timers run on (the current scenario's), `activeRun` the
// scenario being replayed, `persist` TanStack's persisters once loaded.
export const harness = { clock: new VirtualClock(), activeRun: undefined, persist: undefined }

// query-core from $TANSTACK_QUERY_CORE (a module path), or else node_modules.
export async function loadQueryCore() {
  const override = process.env.TANSTACK_QUERY_CORE
  if (override) return import(pathToFileURL(path.resolve(override)).href)
  return import('@tanstack/query-core')
}

// TanStack's persisters (query-persist-client-core, query-async-storage-persister 5.102.0): from
// node_modules, or TANSTACK_QUERY_PERSIST, an ES module of both whose @tanstack/query-core import
// is the very module TANSTACK_QUERY_CORE names (one timeoutManager). Loaded when present.
async function importPersist() {
  const override = process.env.TANSTACK_QUERY_PERSIST
  try {
    if (override) return await import(pathToFileURL(path.resolve(override)).href)
    const core = await import('@tanstack/query-persist-client-core')
    const storage = await import('@tanstack/query-async-storage-persister')
    return { ...core, ...storage }
  } catch {
    return undefined
  }
}

// Loads the persisters once per process (run before any scenario).
export async function loadPersist() {
  harness.persist = await importPersist()
}

// Once per process: TanStack's timeouts and notify scheduler run on the virtual clock.
export function setUpGlobals(lib) {
  lib.timeoutManager.setTimeoutProvider({
    setTimeout: (cb, delay) => harness.clock.add(cb, delay, false),
    clearTimeout: (id) => harness.clock.clear(id),
    setInterval: (cb, delay) => harness.clock.add(cb, delay, true),
    clearInterval: (id) => harness.clock.clear(id),
  })
  lib.notifyManager.setScheduler((cb) => harness.clock.add(cb, 0, false))
  lib.environmentManager.setIsServer(() => false)
}

// Before a scenario replays: its clock drives TanStack's timers, and a browser-like environment:
// listeners replaced so nothing leaks in; focused and online; `Date.now` is the virtual clock.
// Returns what puts the real `Date.now` and an idle clock back.
export function enterScenario(lib, run) {
  harness.clock = run.clock
  harness.activeRun = run
  lib.focusManager.setEventListener(() => undefined)
  lib.onlineManager.setEventListener(() => undefined)
  lib.focusManager.setFocused(true)
  lib.onlineManager.setOnline(true)
  const realNow = Date.now
  Date.now = () => run.clock.now
  return () => {
    Date.now = realNow
    harness.activeRun = undefined
    harness.clock = new VirtualClock()
  }
}

// The runner handles every promise it is given, so a rejection nobody handles is either a runner
// bug (an ERROR) or a promise TanStack itself dropped: `refetchQueries`/`invalidateQueries`/
// `resetQueries` with `throwOnError: true` return `Promise.resolve()` for a paused query and drop
// its fetch promise, which may later reject with a cancellation or a scripted error. JavaScript
// ignores those (the engine is unaffected), and so do both runners (see Specs/README.md).
process.on('unhandledRejection', (reason) => {
  const activeRun = harness.activeRun
  if (activeRun && (activeRun.lib.isCancelledError(reason) || reason instanceof ScriptError)) return
  // TanStack reports a failing mutation callback as an unhandled rejection by design
  // (`void Promise.reject(e)`); the scripted callback errors are expected.
  if (reason instanceof ScriptedCallbackError) return
  const m = `unhandled rejection: ${reason instanceof Error ? reason.message : String(reason)}`
  if (activeRun) activeRun.unexpected ??= m
  else process.stderr.write(`run.mjs: ${m}\n`)
})
