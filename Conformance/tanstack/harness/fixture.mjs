// Fixture errors and the top level of a fixture: format, ID, title, client, functions.
// A FixtureError names the JSON path and what was expected (an ERROR, not a FAIL).
// Swift twin: Decoder/JSONPath.swift, Decoder/FixtureValidator+Scenario.swift.

import { decodeData, isRecipe } from './values.mjs'
import { validateCallbacks } from './mutations.mjs'
import { validateStreams } from './streams.mjs'

export class FixtureError extends Error {
  constructor(jpath, expected) {
    super(`${jpath}: ${expected}`)
    this.jpath = jpath
    this.expected = expected
  }
}
export const fail = (jpath, expected) => {
  throw new FixtureError(jpath, expected)
}
export const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
export const isInt = (v) => typeof v === 'number' && Number.isInteger(v)
export const typeName = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v)

export function expectObject(v, jpath, allowed, what = 'an object') {
  if (!isObj(v)) fail(jpath, `expected ${what}, found ${typeName(v)}`)
  if (allowed) {
    for (const k of Object.keys(v)) {
      if (!allowed.includes(k)) fail(`${jpath}.${k}`, `unknown member; expected one of ${allowed.join(', ')}`)
    }
  }
  return v
}

const TOP_MEMBERS = ['format', 'id', 'title', 'source', 'client', 'functions', 'callbacks', 'streams', 'steps']
const OUTCOME_MEMBERS = ['after', 'return', 'throw', 'reject', 'throwSync', 'readSignal', 'onAbort', 'times']

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
