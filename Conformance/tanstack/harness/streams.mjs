// Streams: `streams` in a fixture, each a query function made by `streamedQuery` whose stream
// function returns an async generator of scripted chunks (Specs/README.md, "Scripted streams").
// Swift twin: Decoder/FixtureValidator+Streams.swift, Interpreter/ScenarioSession+Streams.swift.

import { fail, expectObject, isInt } from './fixture.mjs'
import { decodeData, ScriptError } from './values.mjs'

const STREAM_MEMBERS = ['refetchMode', 'reducer', 'initialValue', 'outcomes']
const STREAM_OUTCOME_MEMBERS = ['chunks', 'readSignal', 'times']
const CHUNK_MEMBERS = ['after', 'value', 'throw']
const STREAM_REDUCERS = {
  sum: (acc, chunk) => acc + chunk,
  concat: (acc, chunk) => acc + chunk,
  latest: (_acc, chunk) => chunk,
}

export function validateStreams(fx) {
  expectObject(fx.streams, 'streams', null, 'an object of scripted streams')
  for (const [name, stream] of Object.entries(fx.streams)) {
    const p = `streams.${name}`
    if (name === '' || name.startsWith('$')) fail(p, "expected a stream name that is not empty and does not start with '$'")
    if (fx.functions !== undefined && name in fx.functions) fail(p, `expected a name not used in "functions"; "${name}" is`)
    expectObject(stream, p, STREAM_MEMBERS, 'a stream object')
    if ('refetchMode' in stream && !['reset', 'append', 'replace'].includes(stream.refetchMode)) {
      fail(`${p}.refetchMode`, 'expected "reset", "append" or "replace"')
    }
    if (('reducer' in stream) !== ('initialValue' in stream)) fail(p, 'expected both or neither of "reducer" and "initialValue"')
    if ('reducer' in stream) {
      expectObject(stream.reducer, `${p}.reducer`, ['$fn'], 'a reducer recipe')
      if (!(stream.reducer.$fn in STREAM_REDUCERS)) fail(`${p}.reducer.$fn`, 'expected "sum", "concat" or "latest"')
      decodeData(stream.initialValue, `${p}.initialValue`)
    }
    const outcomes = stream.outcomes
    if (!Array.isArray(outcomes) || outcomes.length === 0) fail(`${p}.outcomes`, 'expected a non-empty array of stream outcomes')
    outcomes.forEach((o, i) => {
      const op = `${p}.outcomes[${i}]`
      if (i > 0 && outcomes[i - 1].times === 'forever') fail(op, 'no outcome after one used "forever" (it is never reached)')
      expectObject(o, op, STREAM_OUTCOME_MEMBERS, 'a stream outcome object')
      if (!Array.isArray(o.chunks)) fail(`${op}.chunks`, 'expected an array of chunks')
      o.chunks.forEach((c, j) => {
        const cp = `${op}.chunks[${j}]`
        expectObject(c, cp, CHUNK_MEMBERS, 'a chunk object')
        if (('value' in c) === ('throw' in c)) fail(cp, 'expected exactly one of "value" and "throw"')
        if ('throw' in c && typeof c.throw !== 'string') fail(`${cp}.throw`, 'expected an error message string')
        if ('throw' in c && j !== o.chunks.length - 1) fail(cp, 'expected "throw" only in the last chunk')
        if ('after' in c && !(isInt(c.after) && c.after >= 0)) fail(`${cp}.after`, 'expected a non-negative integer (ms)')
        if ('value' in c) decodeData(c.value, `${cp}.value`)
      })
      if ('readSignal' in o && typeof o.readSignal !== 'boolean') fail(`${op}.readSignal`, 'expected a boolean')
      if ('times' in o && o.times !== 'forever' && !(isInt(o.times) && o.times >= 1)) {
        fail(`${op}.times`, 'expected a positive integer or "forever"')
      }
    })
  }
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
