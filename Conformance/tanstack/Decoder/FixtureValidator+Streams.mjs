// Checking a fixture's `streams` (Specs/README.md, "Scripted streams").
// Swift twin: Decoder/FixtureValidator+Streams.swift.

import { expectObject, fail, isInt } from '../Model/FixtureError.mjs'
import { decodeData } from './FixtureValidator+Values.mjs'
import { CHUNK_MEMBERS, STREAM_MEMBERS, STREAM_OUTCOME_MEMBERS } from './FixtureVocabulary+Streams.mjs'
import { STREAM_REDUCERS } from '../Interpreter/ScenarioSession+Streams.mjs'

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
