// One scenario replayed: a session validated (every step decoded once), then replayed in the
// TanStack environment on its own clock; what the replay threw becomes a failure or an ERROR.
// Swift twin: Interpreter/Interpreter.swift.

import { FixtureError } from '../Model/FixtureError.mjs'
import { errorText } from '../Runner/TraceText.mjs'
import { drain, TimerCapError } from '../Scheduling/VirtualClock.mjs'
import { ScenarioSession } from './ScenarioSession.mjs'
import { enterScenario } from '../TanStack/Environment.mjs'

export async function runScenario(lib, fx, file) {
  const run = new ScenarioSession(lib, fx, file)
  run.validate()
  const leave = enterScenario(lib, run)
  try {
    await run.replay()
  } catch (e) {
    if (e instanceof FixtureError) throw e
    if (e instanceof TimerCapError) run.failures.push(`${e.message} (t=${run.now})`)
    else run.unexpected ??= `threw at t=${run.now}: ${errorText(e)}`
  } finally {
    await drain()
    leave()
  }
  return run
}
