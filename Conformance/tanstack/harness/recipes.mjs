// Recipes (`{"$fn": name, ...}`): the named functions a fixture may put where TanStack takes a
// function, the places each is allowed, and option values that may be recipes.
// Swift twin: Interpreter/OptionsDecoder.swift (recipes), Decoder/ValueRule.swift.

import { fail, expectObject, isInt } from './fixture.mjs'
import { decodeData, deepEqual, isRecipe, stateOf, STATE_FIELDS } from './values.mjs'
import { decodeHydrationRecipe } from './hydration.mjs'

// Where each recipe may appear (option names; null: any option).
export const RECIPE_PLACES = {
  const: null, // any option
  identity: ['select'],
  countCalls: ['select', 'combine'],
  pluck: ['select'],
  length: ['select', 'combine'],
  throw: ['select'],
  failureCountLessThan: ['retry'],
  linear: ['retryDelay'],
  previousData: ['placeholderData'],
  keyIncludes: ['predicate'],
  stateIs: ['predicate'],
  dataBelow: ['enabled', 'staleTime', 'refetchInterval'],
  joinKey: ['queryKeyHashFn'],
  keepPrevious: ['structuralSharing'],
  takeNew: ['structuralSharing'],
  paramPlus: ['getNextPageParam', 'getPreviousPageParam'],
  pageField: ['getNextPageParam', 'getPreviousPageParam'],
  pluckAll: ['combine'],
  increment: ['updater'],
  append: ['updater'],
  undefined: ['updater'],
  wrap: ['transform'], // serializeData, deserializeData: d => ({[key]: d}); `pluck` is also a transform
  mutationStateIs: ['mutationPredicate'], // shouldDehydrateMutation: m => m.state[field] deep-equals value
}

export function decodeRecipe(v, jpath, place) {
  const name = v.$fn
  const places = RECIPE_PLACES[name]
  if (typeof name !== 'string' || places === undefined) {
    fail(`${jpath}.$fn`, `expected a recipe name (${Object.keys(RECIPE_PLACES).join(', ')})`)
  }
  if (places !== null && !places.includes(place)) {
    fail(`${jpath}.$fn`, `recipe "${name}" is not allowed in ${place} (only in ${places.join(', ')})`)
  }
  const params = (allowed) => expectObject(v, jpath, ['$fn', ...allowed], 'a recipe')
  const need = (k, check, what) => {
    if (!(k in v) || !check(v[k])) fail(`${jpath}.${k}`, `expected ${what}`)
    return v[k]
  }
  switch (name) {
    case 'const': {
      params(['value'])
      if (!('value' in v)) fail(`${jpath}.value`, 'expected a value')
      const value = decodeOptionValue(v.value, `${jpath}.value`, place)
      return () => value
    }
    case 'identity':
      params([])
      return (d) => d
    case 'countCalls': {
      params([])
      let calls = 0
      return () => ++calls
    }
    case 'pluck': {  // also serializeData/deserializeData
      params(['key'])
      const key = need('key', (k) => typeof k === 'string' || isInt(k), 'a string or integer key')
      return (d) => d[key]
    }
    case 'length':
      params([])
      return (d) => d.length
    case 'throw': {
      params(['message'])
      const m = need('message', (x) => typeof x === 'string', 'a message string')
      return () => {
        throw new Error(m)
      }
    }
    case 'failureCountLessThan': {
      params(['n'])
      const n = need('n', (x) => typeof x === 'number', 'a number')
      return (failureCount) => failureCount < n
    }
    case 'linear': {
      params(['ms'])
      const ms = need('ms', (x) => typeof x === 'number', 'a number')
      return (failureCount) => failureCount * ms
    }
    case 'previousData':
      params([])
      return (previousData) => previousData
    case 'keyIncludes': {
      params(['value'])
      if (!('value' in v)) fail(`${jpath}.value`, 'expected a value')
      const value = decodeData(v.value, `${jpath}.value`)
      return (q) => q.queryKey.some((e) => deepEqual(e, value))
    }
    case 'stateIs': {
      params(['field', 'value'])
      const field = need('field', (f) => STATE_FIELDS.includes(f), `a query state field (${STATE_FIELDS.join(', ')})`)
      if (!('value' in v)) fail(`${jpath}.value`, 'expected a value')
      const value = decodeData(v.value, `${jpath}.value`)
      return (q) => deepEqual(stateOf(q.state)[field], value)
    }
    case 'dataBelow': {
      params(['n', 'then', 'else'])
      const n = need('n', (x) => typeof x === 'number', 'a number')
      for (const k of ['then', 'else']) if (!(k in v)) fail(`${jpath}.${k}`, 'expected a value')
      const yes = decodeOptionValue(v.then, `${jpath}.then`, place)
      const no = decodeOptionValue(v.else, `${jpath}.else`, place)
      return (query) => ((query.state.data ?? 0) < n ? yes : no)
    }
    case 'wrap':
    case 'mutationStateIs':
      return decodeHydrationRecipe(name, v, jpath, params, need)
    case 'keepPrevious':
      params([])
      return (previous, data) => previous ?? data
    case 'takeNew':
      params([])
      return (previous, data) => data
    case 'joinKey': {
      params(['separator'])
      const separator = need('separator', (x) => typeof x === 'string', 'a separator string')
      return (queryKey) => queryKey.join(separator)
    }
    case 'paramPlus': {
      params(['by', 'until'])
      const by = need('by', (x) => typeof x === 'number', 'a number')
      const until = need('until', (x) => typeof x === 'number', 'a number')
      return (_page, _pages, param) => {
        const next = param + by
        return (by >= 0 ? next > until : next < until) ? undefined : next
      }
    }
    case 'pageField': {
      params(['key'])
      const key = need('key', (k) => typeof k === 'string', 'a string key')
      return (page) => page[key]
    }
    case 'pluckAll': {
      params(['key'])
      const key = need('key', (k) => typeof k === 'string', 'a string key')
      return (results) => results.map((r) => r[key])
    }
    case 'increment': {
      params(['by'])
      const by = need('by', (x) => typeof x === 'number', 'a number')
      return (old) => (old ?? 0) + by
    }
    case 'append': {
      params(['value'])
      if (!('value' in v)) fail(`${jpath}.value`, 'expected a value')
      return (old) => [...(old ?? []), decodeData(v.value, `${jpath}.value`)]
    }
    case 'undefined':
      params([])
      return () => undefined
  }
  throw new Error('unreachable')
}

const NUMERIC_OPTIONS = new Set([
  'staleTime', 'gcTime', 'retry', 'retryDelay', 'refetchInterval', 'initialDataUpdatedAt', 'updatedAt',
])

// An option value: a recipe, `$undefined`, "Infinity" for numeric options, or plain data.
export function decodeOptionValue(v, jpath, place) {
  if (isRecipe(v)) return decodeRecipe(v, jpath, place)
  if (v === 'Infinity' && NUMERIC_OPTIONS.has(place)) return Infinity
  return decodeData(v, jpath)
}
