// Decoding options: each query option's decoder (a fixture value to what TanStack takes), the
// recipes (`{"$fn": name, ...}`: the named functions a fixture may put where TanStack takes a
// function, and the places each is allowed), the scripted query function, query filters, call
// options, and the client's `defaultOptions`.
// Swift twin: Interpreter/OptionsDecoder.swift, Interpreter/OptionsDecoder+Infinite.swift,
// Decoder/ValueRule.swift (where each recipe is allowed).

import { expectObject, fail, isInt, isObj } from '../Model/FixtureError.mjs'
import { decodeData, isRecipe, isUndefinedMarker } from '../Decoder/FixtureValidator+Values.mjs'
import { FILTER_MEMBERS } from '../Decoder/FixtureVocabulary.mjs'
import { decodeDehydrateOptions, decodeHydrateOptions, decodeHydrationRecipe } from './ScenarioSession+Hydration.mjs'
import { decodeMutationOptions } from './ScenarioSession+Mutations.mjs'
import { decodePersisterOption } from './ScenarioSession+Persist.mjs'
import { deepEqual, STATE_FIELDS, stateOf } from './TraceValues.mjs'

// The decoder of each query option: (value, JSON path, session) -> the option's value.
export const QUERY_OPTIONS = {
  queryKey: (v, p) => {
    if (!Array.isArray(v)) fail(p, 'expected a query key (an array)')
    return decodeData(v, p)
  },
  queryFn: null, // special
  staleTime: (v, p) => checkOpt(v, p, 'staleTime', (x) => typeof x === 'number' || x === 'Infinity' || x === 'static', 'a number, "Infinity", "static" or a const recipe'),
  gcTime: (v, p) => checkOpt(v, p, 'gcTime', (x) => typeof x === 'number' || x === 'Infinity', 'a number or "Infinity"'),
  retry: (v, p) => checkOpt(v, p, 'retry', (x) => typeof x === 'number' || typeof x === 'boolean' || x === 'Infinity', 'a boolean, a number, "Infinity" or a retry recipe'),
  retryDelay: (v, p) => checkOpt(v, p, 'retryDelay', (x) => typeof x === 'number', 'a number or a retryDelay recipe'),
  enabled: (v, p) => checkOpt(v, p, 'enabled', (x) => typeof x === 'boolean', 'a boolean or a const recipe'),
  select: (v, p) => {
    if (!isRecipe(v)) fail(p, 'expected a select recipe')
    return decodeRecipe(v, p, 'select')
  },
  placeholderData: (v, p) => decodeOptionValue(v, p, 'placeholderData'),
  initialData: (v, p) => decodeOptionValue(v, p, 'initialData'),
  initialDataUpdatedAt: (v, p) => checkOpt(v, p, 'initialDataUpdatedAt', (x) => typeof x === 'number', 'a number or a const recipe'),
  refetchOnMount: (v, p) => checkOpt(v, p, 'refetchOnMount', (x) => typeof x === 'boolean' || x === 'always', 'a boolean or "always"'),
  refetchOnWindowFocus: (v, p) => checkOpt(v, p, 'refetchOnWindowFocus', (x) => typeof x === 'boolean' || x === 'always', 'a boolean or "always"'),
  refetchOnReconnect: (v, p) => checkOpt(v, p, 'refetchOnReconnect', (x) => typeof x === 'boolean' || x === 'always', 'a boolean or "always"'),
  refetchInterval: (v, p) => checkOpt(v, p, 'refetchInterval', (x) => typeof x === 'number' || x === false, 'a number or false'),
  refetchIntervalInBackground: (v, p) => checkOpt(v, p, 'refetchIntervalInBackground', (x) => typeof x === 'boolean', 'a boolean'),
  notifyOnChangeProps: (v, p) => checkOpt(v, p, 'notifyOnChangeProps', (x) => x === 'all' || (Array.isArray(x) && x.every((s) => typeof s === 'string')), '"all" or an array of result field names'),
  structuralSharing: (v, p) => checkOpt(v, p, 'structuralSharing', (x) => typeof x === 'boolean', 'a boolean, or a keepPrevious or takeNew recipe'),
  networkMode: (v, p) => checkOpt(v, p, 'networkMode', (x) => ['online', 'always', 'offlineFirst'].includes(x), '"online", "always" or "offlineFirst"'),
  meta: (v, p) => {
    if (!isObj(v)) fail(p, 'expected an object')
    return decodeData(v, p)
  },
  retryOnMount: (v, p) => checkOpt(v, p, 'retryOnMount', (x) => typeof x === 'boolean', 'a boolean'),
  queryHash: (v, p) => {
    if (typeof v !== 'string') fail(p, 'expected a string')
    return v
  },
  queryKeyHashFn: (v, p) => {
    if (!isRecipe(v)) fail(p, 'expected a joinKey recipe')
    return decodeRecipe(v, p, 'queryKeyHashFn')
  },
  initialPageParam: (v, p) => decodeData(v, p),
  getNextPageParam: (v, p) => pageParamOption(v, p, 'getNextPageParam'),
  getPreviousPageParam: (v, p) => pageParamOption(v, p, 'getPreviousPageParam'),
  maxPages: (v, p) => checkOpt(v, p, 'maxPages', (x) => isInt(x) && x >= 0, 'a whole number'),
  pages: (v, p) => checkOpt(v, p, 'pages', (x) => isInt(x) && x >= 0, 'a whole number'),
  // The per-query persister (ScenarioSession+Persist.mjs): `{refetchOnRestore?, maxAge?, buster?}`.
  persister: (v, p, run) => decodePersisterOption(v, p, run),
}

function pageParamOption(v, p, place) {
  if (!isRecipe(v)) fail(p, 'expected a page-parameter recipe')
  return decodeRecipe(v, p, place)
}

function checkOpt(v, p, place, ok, what) {
  if (isRecipe(v)) return decodeRecipe(v, p, place)
  if (!ok(v)) fail(p, `expected ${what}`)
  return decodeOptionValue(v, p, place)
}
// Query options. `extra` lists additional allowed members (e.g. revalidateIfStale).
export function decodeQueryOptions(v, jpath, run, { requireKey = false, extra = [] } = {}) {
  expectObject(v, jpath, [...Object.keys(QUERY_OPTIONS), ...extra], 'query options (an object)')
  const out = {}
  for (const k of Object.keys(v)) {
    const p = `${jpath}.${k}`
    if (isUndefinedMarker(v[k])) out[k] = undefined
    else if (k === 'queryFn') out.queryFn = decodeQueryFn(v[k], p, run)
    else if (k === 'revalidateIfStale') {
      if (typeof v[k] !== 'boolean') fail(p, 'expected a boolean')
      out[k] = v[k]
    } else out[k] = QUERY_OPTIONS[k](v[k], p, run)
  }
  if (requireKey && !('queryKey' in v)) fail(`${jpath}.queryKey`, 'expected a query key')
  return out
}

export function decodeQueryFn(v, jpath, run) {
  if (v === '$skipToken') return run.lib.skipToken
  if (typeof v !== 'string') fail(jpath, 'expected the name of a scripted function or "$skipToken"')
  if (!run.scripts.has(v)) fail(jpath, `expected the name of a function in "functions"; "${v}" is not one`)
  return run.scripts.get(v).fn
}

export function decodeFilters(v, jpath, { refetchType = false } = {}) {
  if (v === undefined) return undefined
  expectObject(v, jpath, refetchType ? [...FILTER_MEMBERS, 'refetchType'] : FILTER_MEMBERS, 'filters (an object)')
  const out = {}
  for (const k of Object.keys(v)) {
    const x = v[k]
    const p = `${jpath}.${k}`
    if (k === 'queryKey') {
      if (!Array.isArray(x)) fail(p, 'expected a query key (an array)')
      out.queryKey = decodeData(x, p)
    } else if (k === 'exact' || k === 'stale') {
      if (typeof x !== 'boolean') fail(p, 'expected a boolean')
      out[k] = x
    } else if (k === 'type' || k === 'refetchType') {
      const allowed = k === 'type' ? ['active', 'inactive', 'all'] : ['active', 'inactive', 'all', 'none']
      if (!allowed.includes(x)) fail(p, `expected one of ${allowed.map((s) => `"${s}"`).join(', ')}`)
      out[k] = x
    } else if (k === 'fetchStatus') {
      if (!['fetching', 'paused', 'idle'].includes(x)) fail(p, 'expected "fetching", "paused" or "idle"')
      out[k] = x
    } else if (k === 'predicate') {
      if (!isRecipe(x)) fail(p, 'expected a predicate recipe')
      out.predicate = decodeRecipe(x, p, 'predicate')
    }
  }
  return out
}

export function decodeCallOptions(v, jpath, allowed = ['cancelRefetch', 'throwOnError', 'revert', 'silent']) {
  if (v === undefined) return undefined
  expectObject(v, jpath, allowed, 'options (an object)')
  for (const k of Object.keys(v)) if (typeof v[k] !== 'boolean') fail(`${jpath}.${k}`, 'expected a boolean')
  return { ...v }
}

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
// A `setQueryData` / `setQueriesData` step's value: exactly one of `data` (the value) and
// `updater` (a recipe). Swift twin: OptionsDecoder.updater(data:updater:_:).
export function decodeUpdater(a, jpath) {
  if (('data' in a) === ('updater' in a)) fail(jpath, 'expected exactly one of "data" and "updater"')
  if ('data' in a) return decodeData(a.data, `${jpath}.data`)
  if (!isRecipe(a.updater)) fail(`${jpath}.updater`, 'expected an updater recipe')
  return decodeRecipe(a.updater, `${jpath}.updater`, 'updater')
}

export function decodeOptionValue(v, jpath, place) {
  if (isRecipe(v)) return decodeRecipe(v, jpath, place)
  if (v === 'Infinity' && NUMERIC_OPTIONS.has(place)) return Infinity
  return decodeData(v, jpath)
}

// The client's `defaultOptions`: queries, mutations, dehydrate and hydrate.
export function decodeDefaultOptions(v, jpath, run) {
  expectObject(v, jpath, ['queries', 'mutations', 'dehydrate', 'hydrate'])
  const out = {}
  if ('queries' in v) out.queries = decodeQueryOptions(v.queries, `${jpath}.queries`, run)
  if ('mutations' in v) out.mutations = decodeMutationOptions(v.mutations, `${jpath}.mutations`, run)
  if ('dehydrate' in v) out.dehydrate = decodeDehydrateOptions(v.dehydrate, `${jpath}.dehydrate`)
  if ('hydrate' in v) out.hydrate = decodeHydrateOptions(v.hydrate, `${jpath}.hydrate`, run)
  return out
}
