// Streams: `streams` in a fixture, each a query function made by `streamedQuery` whose stream
// function returns an async generator of scripted chunks (Specs/README.md, "Scripted streams").
// Checked by Decoder/FixtureValidator+Streams.mjs.
// Swift twin: Interpreter/ScenarioSession+Streams.swift.

import { decodeData } from '../Decoder/FixtureValidator+Values.mjs'
import { ScriptError } from './ScenarioSession.mjs'

// The reducers a stream's `reducer` recipe names.
export const STREAM_REDUCERS = {
  sum: (acc, chunk) => acc + chunk,
  concat: (acc, chunk) => acc + chunk,
  latest: (_acc, chunk) => chunk,
}

// Registers each stream as a script (so `queryFn` and the `calls` check find it by name).
export function addStreams(run) {
  for (const [name, stream] of Object.entries(run.fx.streams ?? {})) {
    const outcomes = stream.outcomes
    const script = { name, outcomes, cursor: 0, used: 0, calls: 0 }
    const streamFn = (context) => {
      script.calls++
      run.emit({ ev: 'call', fn: name, n: script.calls, key: run.lib.hashKey(context.queryKey) })
      while (script.cursor < outcomes.length) {
        const times = outcomes[script.cursor].times ?? 1
        if (times === 'forever' || script.used < times) break
        script.cursor++
        script.used = 0
      }
      if (script.cursor >= outcomes.length) {
        const message = `script exhausted: ${name}`
        run.failures.push(`${message} (call ${script.calls} at t=${run.now})`)
        throw new Error(message)
      }
      const o = outcomes[script.cursor]
      script.used++
      if (o.readSignal) void context.signal
      return (async function* chunks() {
        for (const c of o.chunks) {
          if (c.after !== undefined) await new Promise((resolve) => run.clock.add(resolve, c.after, false))
          if ('throw' in c) throw new ScriptError(c.throw)
          yield decodeData(c.value, 'value') // a fresh copy per chunk
        }
      })()
    }
    const params = { streamFn }
    if (stream.refetchMode !== undefined) params.refetchMode = stream.refetchMode
    if (stream.reducer !== undefined) {
      params.reducer = STREAM_REDUCERS[stream.reducer.$fn]
      params.initialValue = decodeData(stream.initialValue, 'initialValue')
    }
    script.fn = run.lib.experimental_streamedQuery(params)
    run.scripts.set(name, script)
  }
}
