// The driver: lists the fixtures, replays each one (validating it first), and reports
// PASS/FAIL/ERROR lines, the traces (`--record`/`--trace-dir`), `--compare` and `--json`.
// Swift twin: Runner/Runner.swift, Runner/ScenarioResult.swift, Runner/RunReport.swift.

import fs from 'node:fs'
import path from 'node:path'
import { fail, FixtureError } from '../Model/FixtureError.mjs'
import { validateTop } from '../Decoder/FixtureValidator.mjs'
import { listFixtures } from './FixtureFile.mjs'
import { filterMatcher } from './GlobPattern.mjs'
import { errorText, firstDifference } from './TraceText.mjs'
import { runScenario } from '../Interpreter/Interpreter.mjs'
import { loadPersist, loadQueryCore, setUpGlobals } from '../TanStack/Environment.mjs'
import { parseArgs } from '../CommandLine/RunnerCommand.mjs'

// A reader that closes early (`| head`) ends the output, not the run with a stack trace.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0)
  throw e
})

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
  setUpGlobals(lib)
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
