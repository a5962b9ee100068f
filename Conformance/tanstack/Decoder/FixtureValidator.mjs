// The checks of a fixture that come before any step is decoded: the top level (format, ID,
// title, client, functions), the scripted callbacks, and the shape of a step (one operation
// member, `at`, `as`). Each step's arguments are checked by the module that decodes it.
// Swift twin: Decoder/FixtureValidator+Scenario.swift, Decoder/FixtureValidator+Steps.swift.

import { expectObject, fail, isInt } from '../Model/FixtureError.mjs'
import { validateStreams } from './FixtureValidator+Streams.mjs'
import { decodeData, isRecipe } from './FixtureValidator+Values.mjs'
import { CALLBACK_OPS, OUTCOME_MEMBERS, TOP_MEMBERS } from './FixtureVocabulary.mjs'
import { OPS } from './OperationSpec.mjs'

export function validateTop(fx, fileId, area) {
  expectObject(fx, '$', TOP_MEMBERS, 'a fixture object')
  if (fx.format !== 1) fail('format', 'expected 1')
  if (typeof fx.id !== 'string' || !/^[a-z][a-z0-9-]*-\d{3}$/.test(fx.id)) fail('id', 'expected an ID "<area>-NNN"')
  if (fx.id !== fileId) fail('id', `expected "${fileId}" (the file name)`)
  if (!fx.id.startsWith(`${area}-`) || !/^\d{3}$/.test(fx.id.slice(area.length + 1))) {
    fail('id', `expected "${area}-NNN" (the fixture is in Specs/${area}/)`)
  }
  if (typeof fx.title !== 'string' || fx.title.length === 0 || fx.title.length > 80) {
    fail('title', 'expected a title string of 1 to 80 characters')
  }
  if ('source' in fx && typeof fx.source !== 'string') fail('source', 'expected a string')
  if ('client' in fx) {
    expectObject(fx.client, 'client', ['defaultOptions', 'queryCache', 'mutationCache'])
    if ('queryCache' in fx.client) {
      expectObject(fx.client.queryCache, 'client.queryCache', ['onSuccess', 'onError', 'onSettled'])
      for (const [k, v] of Object.entries(fx.client.queryCache)) if (v !== true) fail(`client.queryCache.${k}`, 'expected true')
    }
  }
  if ('callbacks' in fx) validateCallbacks(fx.callbacks)
  if ('functions' in fx) {
    expectObject(fx.functions, 'functions', null, 'an object of scripted functions')
    for (const [name, outcomes] of Object.entries(fx.functions)) {
      const p = `functions.${name}`
      if (!Array.isArray(outcomes) || outcomes.length === 0) fail(p, 'expected a non-empty array of outcomes')
      outcomes.forEach((o, i) => {
        const op = `${p}[${i}]`
        expectObject(o, op, OUTCOME_MEMBERS, 'an outcome object')
        const kinds = ['return', 'throw', 'reject', 'throwSync'].filter((k) => k in o)
        if (kinds.length !== 1) fail(op, 'expected exactly one of "return", "throw", "reject" and "throwSync"')
        if ('throwSync' in o && typeof o.throwSync !== 'string') fail(`${op}.throwSync`, 'expected an error message string')
        if ('throwSync' in o && 'after' in o) fail(`${op}.after`, 'no "after" with "throwSync": it throws when called')
        if ('reject' in o) decodeData(o.reject, `${op}.reject`)
        if ('onAbort' in o && typeof o.onAbort !== 'boolean') fail(`${op}.onAbort`, 'expected a boolean')
        if ('after' in o && !(isInt(o.after) && o.after >= 0)) fail(`${op}.after`, 'expected a non-negative integer (ms)')
        if ('throw' in o && typeof o.throw !== 'string') fail(`${op}.throw`, 'expected an error message string')
        if ('readSignal' in o && typeof o.readSignal !== 'boolean') fail(`${op}.readSignal`, 'expected a boolean')
        if ('times' in o && o.times !== 'forever' && !(isInt(o.times) && o.times >= 1)) {
          fail(`${op}.times`, 'expected a positive integer or "forever"')
        }
        if ('return' in o) {
          if (isRecipe(o.return)) {
            expectObject(o.return, `${op}.return`, ['$fn'], 'a return recipe')
            if (!['queryKey', 'pageParam', 'callCount', 'context', 'variables'].includes(o.return.$fn)) {
              fail(`${op}.return.$fn`, 'expected "queryKey", "pageParam", "callCount", "context" or "variables"')
            }
          } else decodeData(o.return, `${op}.return`)
        }
      })
    }
  }
  if ('streams' in fx) validateStreams(fx)
  if (!Array.isArray(fx.steps)) fail('steps', 'expected an array of steps')
}

export function validateCallbacks(callbacks) {
  expectObject(callbacks, 'callbacks', null, 'an object of scripted callbacks')
  for (const [name, spec] of Object.entries(callbacks)) {
    const p = `callbacks.${name}`
    expectObject(spec, p, ['do', 'return', 'throw', 'async'], 'a scripted callback')
    if ('return' in spec && 'throw' in spec) fail(p, 'expected at most one of "return" and "throw"')
    if ('throw' in spec && typeof spec.throw !== 'string') fail(`${p}.throw`, 'expected an error message string')
    if ('async' in spec && typeof spec.async !== 'boolean') fail(`${p}.async`, 'expected a boolean')
    if ('do' in spec) {
      if (!Array.isArray(spec.do)) fail(`${p}.do`, 'expected an array of operations')
      spec.do.forEach((op, i) => {
        const op_p = `${p}.do[${i}]`
        expectObject(op, op_p, [...CALLBACK_OPS, 'await', 'as'], 'a callback operation')
        const names = Object.keys(op).filter((k) => k !== 'await' && k !== 'as')
        if (names.length !== 1) fail(op_p, `expected exactly one of ${CALLBACK_OPS.join(', ')}`)
        if ('await' in op && typeof op.await !== 'boolean') fail(`${op_p}.await`, 'expected a boolean')
        if ('as' in op && typeof op.as !== 'string') fail(`${op_p}.as`, 'expected a name')
        expectObject(op[names[0]], `${op_p}.${names[0]}`)
      })
    }
  }
}

// Splits a step into {op, args, at, as}, checking the shape; `prevAt` enforces ordering.
export function stepShape(step, i, prevAt) {
  const p = `steps[${i}]`
  expectObject(step, p, null, 'a step object')
  const ops = Object.keys(step).filter((k) => k !== 'at' && k !== 'as')
  for (const k of ops) if (!(k in OPS)) fail(`${p}.${k}`, `unknown operation; expected one of ${Object.keys(OPS).join(', ')}`)
  if (ops.length !== 1) fail(p, `expected exactly one operation member, found ${ops.length}`)
  const op = ops[0]
  if ('at' in step) {
    if (!isInt(step.at) || step.at < 0) fail(`${p}.at`, 'expected a non-negative integer (virtual ms)')
    if (step.at < prevAt) fail(`${p}.at`, `expected at least ${prevAt} (the previous step's time)`)
  }
  if ('as' in step) {
    if (typeof step.as !== 'string' || step.as.length === 0) fail(`${p}.as`, 'expected a handle name')
    if (!OPS[op].record) fail(`${p}.as`, `${op} records nothing, so it takes no "as"`)
  }
  return { op, args: step[op], at: 'at' in step ? step.at : prevAt, as: step.as, path: `${p}.${op}` }
}
