// Hydration (Specs/README.md "Hydration"): dehydrate, hydrate, a new client, their options and
// recipes (`wrap`, `mutationStateIs`; `pluck` is also a transform).
// Swift twin: Interpreter/ScenarioSession+Hydration.swift, Decoder/OperationSpec+Hydration.swift.

import { expectObject, fail, isInt } from '../Model/FixtureError.mjs'
import { decodeData, isRecipe } from '../Decoder/FixtureValidator+Values.mjs'
import { decodeQueryOptions, decodeRecipe } from './OptionsDecoder.mjs'
import { decodeMutationOptions } from './ScenarioSession+Mutations.mjs'
import { deepEqual, MUTATION_STATE_FIELDS, mutationStateOf } from './TraceValues.mjs'

// A recipe of hydration (OptionsDecoder.mjs's decodeRecipe hands these over).
export function decodeHydrationRecipe(name, v, jpath, params, need) {
  if (name === 'wrap') {
    params(['key'])
    const key = need('key', (k) => typeof k === 'string', 'a string')
    return (d) => ({ [key]: d })
  }
  params(['field', 'value'])
  const field = need('field', (f) => MUTATION_STATE_FIELDS.includes(f), `a mutation state field (${MUTATION_STATE_FIELDS.join(', ')})`)
  if (!('value' in v)) fail(`${jpath}.value`, 'expected a value')
  const value = decodeData(v.value, `${jpath}.value`)
  return (m) => deepEqual(mutationStateOf(m.state)[field], value)
}

function hydrationRecipe(v, k, jpath, place) {
  const p = `${jpath}.${k}`
  if (!isRecipe(v[k])) fail(p, 'expected a recipe')
  if (place === 'transform' && v[k].$fn === 'pluck') {
    expectObject(v[k], p, ['$fn', 'key'], 'a recipe')
    const key = v[k].key
    if (typeof key !== 'string' && !isInt(key)) fail(`${p}.key`, 'expected a string or an index')
    return (d) => d[key]
  }
  return decodeRecipe(v[k], p, place)
}

export function decodeDehydrateOptions(v, jpath) {
  expectObject(v, jpath, ['shouldDehydrateQuery', 'shouldDehydrateMutation', 'shouldRedactErrors', 'serializeData'], 'dehydrate options (an object)')
  const out = {}
  if ('shouldDehydrateQuery' in v) out.shouldDehydrateQuery = hydrationRecipe(v, 'shouldDehydrateQuery', jpath, 'predicate')
  if ('shouldDehydrateMutation' in v) out.shouldDehydrateMutation = hydrationRecipe(v, 'shouldDehydrateMutation', jpath, 'mutationPredicate')
  if ('shouldRedactErrors' in v) {
    if (v.shouldRedactErrors?.$fn !== 'const') fail(`${jpath}.shouldRedactErrors`, 'expected a const recipe')
    out.shouldRedactErrors = hydrationRecipe(v, 'shouldRedactErrors', jpath, 'shouldRedactErrors')
  }
  if ('serializeData' in v) out.serializeData = hydrationRecipe(v, 'serializeData', jpath, 'transform')
  return out
}

export function decodeHydrateOptions(v, jpath, run) {
  expectObject(v, jpath, ['queries', 'mutations', 'deserializeData'], 'hydrate options (an object)')
  const out = {}
  if ('queries' in v) out.queries = decodeQueryOptions(v.queries, `${jpath}.queries`, run)
  if ('mutations' in v) out.mutations = decodeMutationOptions(v.mutations, `${jpath}.mutations`, run)
  if ('deserializeData' in v) out.deserializeData = hydrationRecipe(v, 'deserializeData', jpath, 'transform')
  return out
}

// The JSON a snapshot becomes: what a persister writes (promises and errors become {}).
const snapshotJSON = (state) => JSON.parse(JSON.stringify(state))

export function decodeHydrationStep(run, s, names) {
  const { op, path: p } = s
  const a = s.args
  run.snapshots ??= new Map()
  if (op === 'newClient') {
    // Another client (a second process, or the app after a relaunch): the runner's listeners move
    // to it; the old one keeps running unobserved and is cleared at teardown.
    expectObject(a, p, [])
    return () => {
      run.unlisten()
      ;(run.oldClients ??= []).push(run.client)
      run.makeClient()
    }
  }
  if (op === 'dehydrate') {
    expectObject(a, p, ['options'])
    const o = 'options' in a ? decodeDehydrateOptions(a.options, `${p}.options`) : undefined
    return () => {
      const snapshot = run.lib.dehydrate(run.client, o)
      if (s.as !== undefined) run.snapshots.set(s.as, snapshot)
      return snapshotJSON(snapshot)
    }
  }
  expectObject(a, p, ['state', 'from', 'options'])
  if (('state' in a) === ('from' in a)) fail(p, 'expected exactly one of "state" and "from"')
  if ('from' in a) {
    if (typeof a.from !== 'string') fail(`${p}.from`, 'expected the handle of an earlier dehydrate step')
    if (names && names.handles.get(a.from) !== 'dehydrate') fail(`${p}.from`, `expected the handle of an earlier dehydrate step; "${a.from}" is not one`)
  }
  const state = 'state' in a ? decodeData(a.state, `${p}.state`) : undefined
  const o = 'options' in a ? { defaultOptions: decodeHydrateOptions(a.options, `${p}.options`, run) } : undefined
  return () => run.lib.hydrate(run.client, 'from' in a ? run.snapshots.get(a.from) : state, o)
}
