// Query options, filters and call options: each option's decoder (a fixture value to what
// TanStack takes), the scripted query function, and query filters.
// Swift twin: Interpreter/OptionsDecoder.swift, Interpreter/OptionsDecoder+Infinite.swift.

import { fail, expectObject, isObj, isInt } from './fixture.mjs'
import { decodeData, isRecipe, isUndefinedMarker } from './values.mjs'
import { decodeRecipe, decodeOptionValue } from './recipes.mjs'
import { decodePersisterOption } from './persist.mjs'

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
  // The per-query persister (persist.mjs): `{refetchOnRestore?, maxAge?, buster?}`.
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

const FILTER_MEMBERS = ['queryKey', 'exact', 'type', 'stale', 'fetchStatus', 'predicate']

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
