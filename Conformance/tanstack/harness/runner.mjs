// The driver: loads query-core, lists the fixtures, replays each one (validating it first), and
// reports PASS/FAIL/ERROR lines, the traces (`--record`/`--trace-dir`), `--compare` and `--json`.
// Swift twin: Runner/Runner.swift, Runner/FixtureFile.swift.

import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs, filterMatcher } from './cli.mjs'
import { fail, FixtureError, validateTop } from './fixture.mjs'
import { ScriptError } from './values.mjs'
import { errorText, firstDifference } from './trace.mjs'
import { TimerCapError, VirtualClock, drain, installVirtualTimers, useClock } from './clock.mjs'
import { ScriptedCallbackError } from './mutations.mjs'
import { loadPersist } from './persist.mjs'
import { ScenarioSession } from './session.mjs'

// query-core from $TANSTACK_QUERY_CORE (a module path), or else node_modules.
async function loadQueryCore() {
  const override = process.env.TANSTACK_QUERY_CORE
  if (override) return import(pathToFileURL(path.resolve(override)).href)
  return import('@tanstack/query-core')
}

// Every `<area>/<id>.json` under the specs directory, sorted by ID.
function listFixtures(specsDir) {
  const out = []
  for (const entry of fs.readdirSync(specsDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue
    for (const f of fs.readdirSync(path.join(specsDir, entry.name))) {
      if (!f.endsWith('.json')) continue
      out.push({ area: entry.name, id: f.slice(0, -5), file: path.join(specsDir, entry.name, f) })
    }
  }
  out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.file < b.file ? -1 : 1))
  return out
}

let activeRun
// A reader that closes early (`| head`) ends the output, not the run with a stack trace.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0)
  throw e
})

// The runner handles every promise it is given, so a rejection nobody handles is either a runner
// bug (an ERROR) or a promise TanStack itself dropped: `refetchQueries`/`invalidateQueries`/
// `resetQueries` with `throwOnError: true` return `Promise.resolve()` for a paused query and drop
// its fetch promise, which may later reject with a cancellation or a scripted error. JavaScript
// ignores those (the engine is unaffected), and so do both runners (see Specs/README.md).
process.on('unhandledRejection', (reason) => {
  if (activeRun && (activeRun.lib.isCancelledError(reason) || reason instanceof ScriptError)) return
  // TanStack reports a failing mutation callback as an unhandled rejection by design
  // (`void Promise.reject(e)`); the scripted callback errors are expected.
  if (reason instanceof ScriptedCallbackError) return
  const m = `unhandled rejection: ${reason instanceof Error ? reason.message : String(reason)}`
  if (activeRun) activeRun.unexpected ??= m
  else process.stderr.write(`run.mjs: ${m}\n`)
})

async function runScenario(lib, fx, file) {
  const run = new ScenarioSession(lib, fx, file)
  run.validate()
  useClock(run.clock)
  activeRun = run
  // A browser-like environment: listeners replaced so nothing leaks in; focused and online.
  lib.focusManager.setEventListener(() => undefined)
  lib.onlineManager.setEventListener(() => undefined)
  lib.focusManager.setFocused(true)
  lib.onlineManager.setOnline(true)
  const realNow = Date.now
  Date.now = () => run.clock.now
  try {
    await run.replay()
  } catch (e) {
    if (e instanceof FixtureError) throw e
    if (e instanceof TimerCapError) run.failures.push(`${e.message} (t=${run.now})`)
    else run.unexpected ??= `threw at t=${run.now}: ${errorText(e)}`
  } finally {
    await drain()
    Date.now = realNow
    activeRun = undefined
    useClock(new VirtualClock())
  }
  return run
}

export async function main() {
  const opts = parseArgs(process.argv.slice(2))
  let lib
  try {
    lib = await loadQueryCore()
  } catch (e) {
    process.stderr.write(
      `run.mjs: cannot load @tanstack/query-core (set TANSTACK_QUERY_CORE to a module path, or run npm install in Conformance/tanstack): ${e.message}\n`,
    )
    process.exit(1)
  }
  installVirtualTimers(lib)
  await loadPersist()
  const match = filterMatcher(opts.filters)
  const fixtures = listFixtures(opts.specs).filter((f) => match(f.id))
  for (const dir of opts.traceDirs) fs.mkdirSync(dir, { recursive: true })
  const results = []
  const seen = new Map()
  let passed = 0
  let failed = 0
  for (const { area, id, file } of fixtures) {
    const report = (status, line, message) => {
      process.stdout.write(`${line}\n`)
      results.push(message === undefined ? { id, status } : { id, status, message })
      if (status === 'pass') passed++
      else failed++
    }
    let fx
    try {
      try {
        fx = JSON.parse(fs.readFileSync(file, 'utf8'))
      } catch (e) {
        fail('$', `expected valid JSON (${e.message})`)
      }
      if (seen.has(id)) fail('id', `expected a unique ID; ${seen.get(id)} has the same one`)
      seen.set(id, file)
      validateTop(fx, id, area)
      const run = await runScenario(lib, fx, file)
      if (run.unexpected) {
        const m = `${file}: ${run.unexpected}`
        report('error', `ERROR ${id}: ${m}`, m)
        continue
      }
      const text = run.trace.map((l) => `${l}\n`).join('')
      for (const dir of opts.traceDirs) fs.writeFileSync(path.join(dir, `${id}.jsonl`), text)
      let message = run.failures[0]
      if (message === undefined && opts.compare) {
        const golden = path.join(opts.compare, `${id}.jsonl`)
        if (!fs.existsSync(golden)) message = `no recorded trace ${golden}`
        else {
          const d = firstDifference(fs.readFileSync(golden, 'utf8').split('\n').filter((l) => l !== ''), run.trace)
          if (d) message = `${d} (vs ${golden})`
        }
      }
      if (message === undefined) report('pass', `PASS ${id} ${fx.title}`)
      else report('fail', `FAIL ${id} ${fx.title}: ${message}`, message)
    } catch (e) {
      if (!(e instanceof FixtureError)) {
        const m = `${file}: unexpected: ${errorText(e)}`
        report('error', `ERROR ${id}: ${m}`, m)
        continue
      }
      const m = `${file}: ${e.jpath}: ${e.expected}`
      report('error', `ERROR ${id}: ${m}`, m)
    }
  }
  process.stdout.write(`${passed} passed, ${failed} failed\n`)
  if (opts.json) {
    results.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    fs.writeFileSync(opts.json, `${JSON.stringify({ format: 1, implementation: 'tanstack', results }, null, 2)}\n`)
  }
  process.exit(failed === 0 ? 0 : 1)
}
