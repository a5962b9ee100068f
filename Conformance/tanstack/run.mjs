#!/usr/bin/env node
// Replays Quarry's scenario fixtures (Specs/<area>/<id>.json) against real
// @tanstack/query-core 5.102.0 on a virtual clock and writes/compares traces.
// The fixture, trace and report formats are defined in Specs/README.md.
//
// Usage: node Conformance/tanstack/run.mjs Specs/ [--filter PATTERN] [--json FILE]
//          [--trace-dir DIR] [--record DIR] [--compare DIR]
//
// Node built-ins only. query-core is loaded from $TANSTACK_QUERY_CORE (a module path)
// or else `@tanstack/query-core` resolved from this directory's node_modules.

import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const TIMER_CAP = 100_000

// ---------------------------------------------------------------------------
// Command line

function usage(message) {
  if (message) process.stderr.write(`run.mjs: ${message}\n`)
  process.stderr.write(
    'usage: node Conformance/tanstack/run.mjs Specs/ [--filter PATTERN] [--json FILE] ' +
      '[--trace-dir DIR] [--record DIR] [--compare DIR]\n',
  )
  process.exit(1)
}

function parseArgs(argv) {
  const opts = { specs: undefined, filters: [], json: undefined, traceDirs: [], compare: undefined }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`)
      return argv[++i]
    }
    if (a === '--filter') opts.filters.push(value())
    else if (a === '--json') opts.json = value()
    else if (a === '--trace-dir' || a === '--record') opts.traceDirs.push(value())
    else if (a === '--compare') opts.compare = value()
    else if (a === '-h' || a === '--help') usage()
    else if (a.startsWith('--')) usage(`unknown option ${a}`)
    else if (opts.specs === undefined) opts.specs = a
    else usage(`unexpected argument ${a}`)
  }
  if (opts.specs === undefined) usage('missing the Specs directory')
  return opts
}

// `--filter` (repeatable): an ID, or a glob over IDs with `*` and `?`; none means every ID.
function filterMatcher(patterns) {
  if (patterns.length === 0) return () => true
  const rxs = patterns.map((pattern) => {
    let re = ''
    for (const c of pattern) {
      if (c === '*') re += '.*'
      else if (c === '?') re += '.'
      else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&')
    }
    return new RegExp(`^${re}$`)
  })
  return (id) => rxs.some((rx) => rx.test(id))
}

// ---------------------------------------------------------------------------
// Canonical JSON: keys sorted (JS default sort), JSON.stringify escaping,
// undefined members omitted, Errors written as their message.

function canon(v) {
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return undefined
  if (v === null) return 'null'
  if (typeof v === 'boolean') return v ? 'true' : 'false'
  if (typeof v === 'number') return JSON.stringify(v)
  if (typeof v === 'string') return JSON.stringify(v)
  if (typeof v === 'bigint') throw new Error('cannot write a bigint')
  if (v instanceof Error) return JSON.stringify(v.message)
  if (Array.isArray(v)) return `[${v.map((x) => canon(x) ?? 'null').join(',')}]`
  const parts = []
  for (const k of Object.keys(v).sort()) {
    const s = canon(v[k])
    if (s !== undefined) parts.push(`${JSON.stringify(k)}:${s}`)
  }
  return `{${parts.join(',')}}`
}

const show = (v) => (v === undefined ? 'undefined' : canon(v))

// ---------------------------------------------------------------------------
// Fixture errors

class FixtureError extends Error {
  constructor(jpath, expected) {
    super(`${jpath}: ${expected}`)
    this.jpath = jpath
    this.expected = expected
  }
}
const fail = (jpath, expected) => {
  throw new FixtureError(jpath, expected)
}
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
const isInt = (v) => typeof v === 'number' && Number.isInteger(v)
const typeName = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v)

function expectObject(v, jpath, allowed, what = 'an object') {
  if (!isObj(v)) fail(jpath, `expected ${what}, found ${typeName(v)}`)
  if (allowed) {
    for (const k of Object.keys(v)) {
      if (!allowed.includes(k)) fail(`${jpath}.${k}`, `unknown member; expected one of ${allowed.join(', ')}`)
    }
  }
  return v
}

// ---------------------------------------------------------------------------
// Virtual clock (sinon's rules, see Specs/README.md "Virtual time")

class VirtualClock {
  now = 0
  nextId = 1
  timers = new Map()
  inTimerPhase = false
  fired = 0

  add(callback, delay, repeat) {
    let d = Math.trunc(Number(delay))
    if (!(d > 0)) d = this.inTimerPhase ? 1 : 0
    if (repeat && d < 1) d = 1
    const id = this.nextId++
    this.timers.set(id, { id, due: this.now + d, callback, interval: repeat ? d : undefined })
    return id
  }
  clear(id) {
    if (id !== undefined && id !== null) this.timers.delete(Number(id))
  }
  next(limit) {
    let best
    for (const t of this.timers.values()) {
      if (t.due > limit) continue
      if (!best || t.due < best.due || (t.due === best.due && t.id < best.id)) best = t
    }
    return best
  }
}

class TimerCapError extends Error {}

// The error a scripted function rejects with (`throw` outcomes).
class ScriptError extends Error {}

// One line for the report; the stack goes to stderr.
function errorText(e) {
  if (e?.stack) process.stderr.write(`${e.stack}\n`)
  return String(e instanceof Error ? `${e.name}: ${e.message}` : e).split('\n')[0]
}

let currentClock = new VirtualClock()
const realSetImmediate = setImmediate
// One real macrotask boundary: node drains every microtask (promise jobs, nextTick) first.
const drain = () => new Promise((resolve) => realSetImmediate(resolve))

// Fires due timers up to `until`, draining jobs after each; the drain before the loop is
// the post-step drain (not in the timer phase).
async function advanceTo(run, until) {
  const clock = run.clock
  await drain()
  for (;;) {
    const timer = clock.next(until)
    if (!timer) break
    if (++clock.fired > TIMER_CAP) throw new TimerCapError(`more than ${TIMER_CAP} timers fired (an endless timer loop?)`)
    clock.now = timer.due
    if (timer.interval !== undefined) timer.due += timer.interval
    else clock.timers.delete(timer.id)
    clock.inTimerPhase = true
    try {
      timer.callback()
    } catch (e) {
      run.unexpected ??= `a timer callback threw at t=${clock.now}: ${errorText(e)}`
    }
    await drain()
    clock.inTimerPhase = false
  }
  if (until > clock.now) clock.now = until
}

// ---------------------------------------------------------------------------
// Loading query-core

async function loadQueryCore() {
  const override = process.env.TANSTACK_QUERY_CORE
  if (override) return import(pathToFileURL(path.resolve(override)).href)
  return import('@tanstack/query-core')
}

// ---------------------------------------------------------------------------
// Decoding fixture values

// Plain data: `{"$undefined":true}` anywhere stands for undefined; recipes are not allowed.
function decodeData(v, jpath) {
  if (Array.isArray(v)) return v.map((x, i) => decodeData(x, `${jpath}[${i}]`))
  if (isObj(v)) {
    if ('$undefined' in v) {
      if (v.$undefined !== true || Object.keys(v).length !== 1) fail(jpath, 'expected exactly {"$undefined": true}')
      return undefined
    }
    if ('$fn' in v) fail(jpath, 'a recipe ($fn) is not allowed here; expected plain data')
    const out = {}
    for (const k of Object.keys(v)) out[k] = decodeData(v[k], `${jpath}.${k}`)
    return out
  }
  return v
}

const RECIPE_PLACES = {
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
}

function isUndefinedMarker(v) {
  return isObj(v) && Object.keys(v).length === 1 && v.$undefined === true
}

function isRecipe(v) {
  return isObj(v) && '$fn' in v
}

function deepEqual(a, b) {
  return show(a) === show(b)
}

function decodeRecipe(v, jpath, place) {
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
function decodeOptionValue(v, jpath, place) {
  if (isRecipe(v)) return decodeRecipe(v, jpath, place)
  if (v === 'Infinity' && NUMERIC_OPTIONS.has(place)) return Infinity
  return decodeData(v, jpath)
}

const QUERY_OPTIONS = {
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
}

function pageParamOption(v, p, place) {
  if (!isRecipe(v)) fail(p, 'expected a page-parameter recipe')
  return decodeRecipe(v, p, place)
}

// A queries observer's options: `{combine}`; the combine recipe records its last output
// under the observer's name so the trace can show it.
function decodeQueriesOptions(v, jpath, run, name) {
  if (v === undefined || isUndefinedMarker(v)) return undefined
  expectObject(v, jpath, ['combine'], 'queries-observer options (an object)')
  if (!('combine' in v) || isUndefinedMarker(v.combine)) return {}
  if (!isRecipe(v.combine)) fail(`${jpath}.combine`, 'expected a combine recipe')
  // One function per observer and recipe: the same recipe again is the same combine.
  const cacheKey = `${name}\u0000${canon(v.combine)}`
  if (!run.combines.has(cacheKey)) {
    const f = decodeRecipe(v.combine, `${jpath}.combine`, 'combine')
    run.combines.set(cacheKey, (results) => {
      const out = f(results)
      run.lastCombined.set(name, out)
      return out
    })
  }
  return { combine: run.combines.get(cacheKey) }
}

function checkOpt(v, p, place, ok, what) {
  if (isRecipe(v)) return decodeRecipe(v, p, place)
  if (!ok(v)) fail(p, `expected ${what}`)
  return decodeOptionValue(v, p, place)
}

// Query options. `extra` lists additional allowed members (e.g. revalidateIfStale).
function decodeQueryOptions(v, jpath, run, { requireKey = false, extra = [] } = {}) {
  expectObject(v, jpath, [...Object.keys(QUERY_OPTIONS), ...extra], 'query options (an object)')
  const out = {}
  for (const k of Object.keys(v)) {
    const p = `${jpath}.${k}`
    if (isUndefinedMarker(v[k])) out[k] = undefined
    else if (k === 'queryFn') out.queryFn = decodeQueryFn(v[k], p, run)
    else if (k === 'revalidateIfStale') {
      if (typeof v[k] !== 'boolean') fail(p, 'expected a boolean')
      out[k] = v[k]
    } else out[k] = QUERY_OPTIONS[k](v[k], p)
  }
  if (requireKey && !('queryKey' in v)) fail(`${jpath}.queryKey`, 'expected a query key')
  return out
}

function decodeQueryFn(v, jpath, run) {
  if (v === '$skipToken') return run.lib.skipToken
  if (typeof v !== 'string') fail(jpath, 'expected the name of a scripted function or "$skipToken"')
  if (!run.scripts.has(v)) fail(jpath, `expected the name of a function in "functions"; "${v}" is not one`)
  return run.scripts.get(v).fn
}

const FILTER_MEMBERS = ['queryKey', 'exact', 'type', 'stale', 'fetchStatus', 'predicate']

function decodeFilters(v, jpath, { refetchType = false } = {}) {
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

function decodeCallOptions(v, jpath, allowed = ['cancelRefetch', 'throwOnError', 'revert', 'silent']) {
  if (v === undefined) return undefined
  expectObject(v, jpath, allowed, 'options (an object)')
  for (const k of Object.keys(v)) if (typeof v[k] !== 'boolean') fail(`${jpath}.${k}`, 'expected a boolean')
  return { ...v }
}

function decodeDefaultOptions(v, jpath, run) {
  expectObject(v, jpath, ['queries', 'mutations', 'dehydrate', 'hydrate'])
  const out = {}
  if ('queries' in v) out.queries = decodeQueryOptions(v.queries, `${jpath}.queries`, run)
  if ('mutations' in v) out.mutations = decodeMutationOptions(v.mutations, `${jpath}.mutations`, run)
  if ('dehydrate' in v) out.dehydrate = decodeDehydrateOptions(v.dehydrate, `${jpath}.dehydrate`)
  if ('hydrate' in v) out.hydrate = decodeHydrateOptions(v.hydrate, `${jpath}.hydrate`, run)
  return out
}

// ---------------------------------------------------------------------------
// Mutations: options, filters, scripted callbacks (Specs/README.md "Mutations")

const MUTATION_HOOKS = ['onMutate', 'onSuccess', 'onError', 'onSettled']
const MUTATION_OPTIONS = {
  mutationKey: QUERY_OPTIONS.queryKey,
  retry: QUERY_OPTIONS.retry,
  retryDelay: QUERY_OPTIONS.retryDelay,
  gcTime: QUERY_OPTIONS.gcTime,
  networkMode: QUERY_OPTIONS.networkMode,
  meta: QUERY_OPTIONS.meta,
  scope: (v, p) => {
    expectObject(v, p, ['id'], 'a scope object {"id": ...}')
    if (typeof v.id !== 'string') fail(`${p}.id`, 'expected a string')
    return { id: v.id }
  },
}

function decodeMutationOptions(v, jpath, run) {
  expectObject(v, jpath, ['mutationFn', ...MUTATION_HOOKS, ...Object.keys(MUTATION_OPTIONS)], 'mutation options (an object)')
  const out = {}
  for (const k of Object.keys(v)) {
    const p = `${jpath}.${k}`
    if (isUndefinedMarker(v[k])) out[k] = undefined
    else if (k === 'mutationFn') {
      if (typeof v[k] !== 'string' || !run.scripts.has(v[k])) fail(p, 'expected the name of a function in "functions"')
      out.mutationFn = run.scripts.get(v[k]).mutationFn
    } else if (MUTATION_HOOKS.includes(k)) out[k] = run.callback(v[k], k, p)
    else out[k] = MUTATION_OPTIONS[k](v[k], p)
  }
  return out
}

function decodeMutateOptions(v, jpath, run) {
  if (v === undefined) return undefined
  expectObject(v, jpath, ['onSuccess', 'onError', 'onSettled'], 'per-call callbacks (an object)')
  const out = {}
  for (const k of Object.keys(v)) out[k] = run.callback(v[k], `mutate.${k}`, `${jpath}.${k}`)
  return out
}

function decodeMutationCacheConfig(v, jpath, run) {
  expectObject(v, jpath, MUTATION_HOOKS, 'mutation cache callbacks (an object)')
  const out = {}
  for (const k of Object.keys(v)) out[k] = run.callback(v[k], `cache.${k}`, `${jpath}.${k}`)
  return out
}

const MUTATION_STATUSES = ['idle', 'pending', 'success', 'error']

function decodeMutationFilters(v, jpath) {
  if (v === undefined) return undefined
  expectObject(v, jpath, ['mutationKey', 'exact', 'status'], 'mutation filters (an object)')
  const out = {}
  if ('mutationKey' in v) {
    if (!Array.isArray(v.mutationKey)) fail(`${jpath}.mutationKey`, 'expected a mutation key (an array)')
    out.mutationKey = decodeData(v.mutationKey, `${jpath}.mutationKey`)
  }
  if ('exact' in v) {
    if (typeof v.exact !== 'boolean') fail(`${jpath}.exact`, 'expected a boolean')
    out.exact = v.exact
  }
  if ('status' in v) {
    if (!MUTATION_STATUSES.includes(v.status)) fail(`${jpath}.status`, 'expected idle, pending, success or error')
    out.status = v.status
  }
  return out
}

// A value inside a scripted callback: data, where {"$ref": name, "key"?: k} reads the callback's
// arguments (variables, data, error, context) or an earlier operation's "as".
function resolveRefs(v, env) {
  if (Array.isArray(v)) return v.map((x) => resolveRefs(x, env))
  if (isObj(v)) {
    if (isUndefinedMarker(v)) return undefined
    if ('$ref' in v) {
      const x = env[v.$ref]
      return 'key' in v ? (x === undefined || x === null ? undefined : x[v.key]) : x
    }
    const out = {}
    for (const k of Object.keys(v)) out[k] = resolveRefs(v[k], env)
    return out
  }
  return v
}

const CALLBACK_OPS = ['cancelQueries', 'invalidateQueries', 'refetchQueries', 'getQueryData', 'setQueryData']

// The arguments of each hook by position (TanStack's signatures), as the trace writes them.
function hookArguments(hook, args) {
  const base = hook.replace(/^(cache|mutate)\./, '')
  const cache = hook.startsWith('cache.')
  const env = {}
  let i = 0
  if (base === 'onSuccess') env.data = args[i++]
  else if (base === 'onError') env.error = args[i++]
  else if (base === 'onSettled') {
    env.data = args[i++]
    env.error = args[i++]
  }
  env.variables = args[i++]
  if (base !== 'onMutate') env.context = args[i++]
  if (cache) env.mutationId = args[i++].mutationId
  return env
}

class ScriptedCallbackError extends Error {}

function validateCallbacks(callbacks) {
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

// ---------------------------------------------------------------------------
// Fixture structure

const TOP_MEMBERS = ['format', 'id', 'title', 'source', 'client', 'functions', 'callbacks', 'streams', 'steps']
const OUTCOME_MEMBERS = ['after', 'return', 'throw', 'reject', 'throwSync', 'readSignal', 'onAbort', 'times']

function validateTop(fx, fileId, area) {
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

// Operation table: `record` is what `as` records ("settle", "return" or null).
const OPS = {
  fetchQuery: { record: 'settle' },
  prefetchQuery: { record: 'settle' },
  ensureQueryData: { record: 'settle' },
  getQueryData: { record: 'return' },
  getQueryState: { record: 'return' },
  setQueryData: { record: 'return' },
  getQueriesData: { record: 'return' },
  setQueriesData: { record: 'return' },
  invalidateQueries: { record: 'settle' },
  refetchQueries: { record: 'settle' },
  cancelQueries: { record: 'settle' },
  resetQueries: { record: 'settle' },
  removeQueries: { record: null },
  isFetching: { record: 'return' },
  setQueryDefaults: { record: null },
  clear: { record: null },
  find: { record: 'return' },
  findAll: { record: 'return' },
  observe: { record: 'return' },
  createObserver: { record: null },
  subscribe: { record: null },
  unsubscribe: { record: null },
  setOptions: { record: null },
  refetch: { record: 'settle' },
  getCurrentResult: { record: 'return' },
  getOptimisticResult: { record: 'return' },
  setFocused: { record: null },
  setOnline: { record: null },
  mutate: { record: 'settle' },
  observeMutation: { record: 'return' },
  createMutationObserver: { record: null },
  reset: { record: null },
  resumePausedMutations: { record: 'settle' },
  isMutating: { record: 'return' },
  findMutation: { record: 'return' },
  findAllMutations: { record: 'return' },
  setMutationDefaults: { record: null },
  expect: { record: null },
  tick: { record: null },
  subscribeCache: { record: null },
  fetchInfiniteQuery: { record: 'settle' },
  prefetchInfiniteQuery: { record: 'settle' },
  ensureInfiniteQueryData: { record: 'settle' },
  observeInfinite: { record: 'return' },
  createInfiniteObserver: { record: null },
  fetchNextPage: { record: 'settle' },
  fetchPreviousPage: { record: 'settle' },
  observeQueries: { record: 'return' },
  createQueriesObserver: { record: null },
  setQueries: { record: null },
  getQueriesOptimisticResult: { record: 'return' },
  dehydrate: { record: 'return' },
  hydrate: { record: null },
  newClient: { record: null },
  setStorage: { record: null },
  persistClient: { record: 'settle' },
  unpersist: { record: null },
}

// Splits a step into {op, args, at, as}, checking the shape; `prevAt` enforces ordering.
function stepShape(step, i, prevAt) {
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

// ---------------------------------------------------------------------------
// Serialising states and results

function stateOf(state) {
  return {
    status: state.status,
    fetchStatus: state.fetchStatus,
    data: state.data,
    dataUpdatedAt: state.dataUpdatedAt,
    dataUpdateCount: state.dataUpdateCount,
    error: state.error ?? null,
    errorUpdatedAt: state.errorUpdatedAt,
    errorUpdateCount: state.errorUpdateCount,
    fetchFailureCount: state.fetchFailureCount,
    fetchFailureReason: state.fetchFailureReason ?? null,
    isInvalidated: state.isInvalidated,
  }
}
const STATE_FIELDS = Object.keys(stateOf({}))

function mutationStateOf(state) {
  return {
    status: state.status,
    isPaused: state.isPaused,
    data: state.data,
    error: state.error ?? null,
    variables: state.variables,
    context: state.context,
    failureCount: state.failureCount,
    failureReason: state.failureReason ?? null,
    submittedAt: state.submittedAt,
  }
}
const MUTATION_STATE_FIELDS = Object.keys(mutationStateOf({}))
const MUTATION_RESULT_FIELDS = [...MUTATION_STATE_FIELDS, 'isIdle', 'isPending', 'isSuccess', 'isError']
function mutationResultOf(r) {
  const out = mutationStateOf(r)
  for (const k of ['isIdle', 'isPending', 'isSuccess', 'isError']) out[k] = r[k]
  return out
}

const RESULT_FIELDS = [
  'status', 'fetchStatus', 'data', 'error', 'dataUpdatedAt', 'errorUpdatedAt', 'errorUpdateCount',
  'failureCount', 'failureReason', 'isPending', 'isSuccess', 'isError', 'isLoading', 'isFetching',
  'isRefetching', 'isLoadingError', 'isRefetchError', 'isFetched', 'isFetchedAfterMount', 'isPaused',
  'isPlaceholderData', 'isStale', 'isEnabled',
]
const INFINITE_RESULT_FIELDS = [
  'hasNextPage', 'hasPreviousPage', 'isFetchingNextPage', 'isFetchingPreviousPage',
  'isFetchNextPageError', 'isFetchPreviousPageError',
]
function resultOf(r) {
  if (Array.isArray(r)) return r.map(resultOf)
  const out = {}
  for (const k of RESULT_FIELDS) out[k] = r[k]
  if ('hasNextPage' in r) for (const k of INFINITE_RESULT_FIELDS) out[k] = r[k]
  out.error ??= null
  out.failureReason ??= null
  return out
}

// ---------------------------------------------------------------------------
// Streams: `streams` in a fixture, each a query function made by `streamedQuery` whose stream
// function returns an async generator of scripted chunks (Specs/README.md, "Scripted streams").
// Swift twin: Decoder/FixtureValidator+Streams.swift, Interpreter/ScenarioSession+Streams.swift.

const STREAM_MEMBERS = ['refetchMode', 'reducer', 'initialValue', 'outcomes']
const STREAM_OUTCOME_MEMBERS = ['chunks', 'readSignal', 'times']
const CHUNK_MEMBERS = ['after', 'value', 'throw']
const STREAM_REDUCERS = {
  sum: (acc, chunk) => acc + chunk,
  concat: (acc, chunk) => acc + chunk,
  latest: (_acc, chunk) => chunk,
}

function validateStreams(fx) {
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
function addStreams(run) {
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

// ---------------------------------------------------------------------------
// One scenario

class Run {
  constructor(lib, fx, file) {
    this.lib = lib
    this.fx = fx
    this.file = file
    this.clock = new VirtualClock()
    this.trace = []
    this.failures = []
    this.unexpected = undefined
    this.scripts = new Map()
    this.observers = new Map() // name -> {observer, unsubscribe, notifications}
    this.observerNames = new Map() // observer -> name
    this.handles = new Map() // name -> {kind, status, value, error}
    this.signals = new Map() // "fn#n" -> the abort signal of a call that read it
    this.cacheActors = [] // unsubscribe functions of subscribeCache listeners
    this.lastCombined = new Map() // queries observer name -> the last combine output
    this.combines = new Map() // observer name + recipe -> its combine function
    this.stepIndex = -1
    this.tornDown = false // teardown writes nothing
    this.callbackSpecs = new Map(Object.entries(fx.callbacks ?? {}).map(([n, spec]) => [n, { spec, calls: 0 }]))
    this.callbackFns = new Map() // `${hook} ${name}` -> function (one identity per hook and name)
    this.mutationObservers = new Set() // names of mutation observers
    for (const [name, outcomes] of Object.entries(fx.functions ?? {})) this.addScript(name, outcomes)
    addStreams(this)
  }

  // The scripted callback `name` bound to `hook`: writes a callback event, performs its
  // operations (awaiting those marked "await", as an async function does), returns or throws.
  callback(name, hook, jpath) {
    if (typeof name !== 'string' || !this.callbackSpecs.has(name)) fail(jpath, 'expected the name of a callback in "callbacks"')
    const id = `${hook} ${name}`
    if (this.callbackFns.has(id)) return this.callbackFns.get(id)
    const entry = this.callbackSpecs.get(name)
    const { spec } = entry
    const ops = (spec.do ?? []).map((op, i) => this.decodeCallbackOp(op, `callbacks.${name}.do[${i}]`))
    const isAsync = spec.async === true || ops.some((o) => o.await)
    const finish = (env) => {
      if ('throw' in spec) {
        const e = new ScriptedCallbackError(spec.throw)
        throw e
      }
      return resolveRefs(spec.return, env)
    }
    const fn = (...args) => {
      const env = hookArguments(hook, args)
      entry.calls++
      const ev = { ev: 'callback', hook, fn: name, n: entry.calls }
      for (const k of ['data', 'error', 'variables', 'context', 'mutationId']) {
        if (k in env) ev[k] = k === 'error' ? (env.error === null || env.error === undefined ? null : env.error.message) : env[k]
      }
      this.emit(ev)
      if (env.error) env.error = env.error.message
      if (!isAsync) {
        for (const op of ops) {
          const r = op.perform(env)
          if (op.as !== undefined) env[op.as] = r
        }
        return finish(env)
      }
      return (async () => {
        for (const op of ops) {
          const r = op.await ? await op.perform(env) : op.perform(env)
          if (op.as !== undefined) env[op.as] = r
        }
        return finish(env)
      })()
    }
    this.callbackFns.set(id, fn)
    return fn
  }

  decodeCallbackOp(op, jpath) {
    const name = Object.keys(op).find((k) => k !== 'await' && k !== 'as')
    const a = op[name]
    const p = `${jpath}.${name}`
    const client = () => this.client
    let perform
    if (name === 'getQueryData') {
      expectObject(a, p, ['queryKey'])
      const k = decodeData(a.queryKey, `${p}.queryKey`)
      perform = () => client().getQueryData(k)
    } else if (name === 'setQueryData') {
      expectObject(a, p, ['queryKey', 'data', 'updater'])
      const k = decodeData(a.queryKey, `${p}.queryKey`)
      if (('data' in a) === ('updater' in a)) fail(p, 'expected exactly one of "data" and "updater"')
      if ('data' in a) perform = (env) => client().setQueryData(k, resolveRefs(a.data, env))
      else {
        const u = a.updater
        if (!isRecipe(u) || !['append', 'increment', 'undefined'].includes(u.$fn)) fail(`${p}.updater`, 'expected an append, increment or undefined recipe')
        perform = (env) => {
          if (u.$fn === 'append') {
            const value = resolveRefs(u.value, env)
            return client().setQueryData(k, (old) => [...(old ?? []), value])
          }
          if (u.$fn === 'increment') return client().setQueryData(k, (old) => (old ?? 0) + u.by)
          return client().setQueryData(k, () => undefined)
        }
      }
    } else {
      expectObject(a, p, ['filters', 'options'])
      const f = decodeFilters(a.filters, `${p}.filters`, { refetchType: name === 'invalidateQueries' })
      const o = decodeCallOptions(a.options, `${p}.options`)
      perform = () => client()[name](f, o)
    }
    return { perform, await: op.await === true, as: op.as }
  }

  get now() {
    return this.clock.now
  }

  emit(ev) {
    if (this.tornDown) return
    this.trace.push(canon({ ...ev, t: this.now }))
  }

  addScript(name, outcomes) {
    const script = { name, outcomes, cursor: 0, used: 0, calls: 0 }
    const run = this
    script.mutationFn = function scriptedMutation(variables, context) {
      return script.fn(context, { variables })
    }
    script.fn = function scripted(context, mutation) {
      script.calls++
      const n = script.calls
      const ev = { ev: 'call', fn: name, n }
      if (mutation) {
        if (context.mutationKey !== undefined) ev.key = run.lib.hashKey(context.mutationKey)
        ev.variables = mutation.variables
      } else ev.key = run.lib.hashKey(context.queryKey)
      const pageParam = context.pageParam
      if (pageParam !== undefined) ev.pageParam = pageParam
      run.emit(ev)
      while (script.cursor < outcomes.length) {
        const o = outcomes[script.cursor]
        const times = o.times ?? 1
        if (times === 'forever' || script.used < times) break
        script.cursor++
        script.used = 0
      }
      if (script.cursor >= outcomes.length) {
        const message = `script exhausted: ${name}`
        run.failures.push(`${message} (call ${n} at t=${run.now})`)
        return Promise.reject(new Error(message))
      }
      const o = outcomes[script.cursor]
      script.used++
      if (o.readSignal || o.onAbort) {
        const signal = context.signal
        run.signals.set(`${name}#${n}`, signal)
        if (o.onAbort) signal.addEventListener('abort', () => run.emit({ ev: 'abort', fn: name, n }))
      }
      if ('throwSync' in o) throw new ScriptError(o.throwSync)
      const settle = () => {
        if ('throw' in o) throw new ScriptError(o.throw)
        if ('reject' in o) throw decodeData(o.reject, 'reject') // not an Error
        if (isRecipe(o.return)) {
          if (o.return.$fn === 'queryKey') return structuredClone(context.queryKey)
          if (o.return.$fn === 'pageParam') return pageParam
          if (o.return.$fn === 'context') {
            return { queryKey: structuredClone(context.queryKey), meta: context.meta, client: context.client === run.client }
          }
          if (o.return.$fn === 'variables') return structuredClone(mutation?.variables)
          return n
        }
        return decodeData(o.return, 'return') // a fresh copy per call
      }
      if (o.after === undefined) {
        try {
          return Promise.resolve(settle())
        } catch (e) {
          return Promise.reject(e)
        }
      }
      return new Promise((resolve, reject) => {
        run.clock.add(() => {
          try {
            resolve(settle())
          } catch (e) {
            reject(e)
          }
        }, o.after, false)
      })
    }
    this.scripts.set(name, script)
  }

  // Static pass over all steps: shapes, options, handle and observer names.
  validate() {
    if (this.fx.client?.defaultOptions !== undefined) decodeDefaultOptions(this.fx.client.defaultOptions, 'client.defaultOptions', this)
    let prevAt = 0
    const observers = new Set()
    const handles = new Map()
    this.fx.steps.forEach((step, i) => {
      const s = stepShape(step, i, prevAt)
      prevAt = s.at
      this.decodeStep(s, { observers, handles })
      if (s.as !== undefined) {
        if (handles.has(s.as)) fail(`steps[${i}].as`, `handle "${s.as}" is already used`)
        handles.set(s.as, s.op)
      }
    })
  }

  // Decodes a step's arguments into a thunk that performs it; `names` tracks observers and
  // handles known at this point (validation) or is null (replay, where Run's maps are used).
  decodeStep(s, names) {
    const { op, path: p } = s
    const a = s.args
    const lib = this.lib
    const client = () => this.client
    const obsName = (args, { create = false, mutation = false } = {}) => {
      const n = args.observer
      if (typeof n !== 'string' || n.length === 0) fail(`${p}.observer`, 'expected an observer name')
      if (names) {
        if (create && names.observers.has(n)) fail(`${p}.observer`, `observer "${n}" already exists`)
        if (!create && !names.observers.has(n)) fail(`${p}.observer`, `expected the name of an observer created earlier; "${n}" is not one`)
        if (create) names.observers.add(n)
        if (create && mutation) this.mutationObservers.add(n)
      }
      return n
    }
    const isMutationObserver = (n) => this.mutationObservers.has(n)
    const keyArg = (args) => {
      if (!Array.isArray(args.queryKey)) fail(`${p}.queryKey`, 'expected a query key (an array)')
      return decodeData(args.queryKey, `${p}.queryKey`)
    }
    switch (op) {
      case 'fetchQuery':
      case 'prefetchQuery':
      case 'ensureQueryData':
      case 'fetchInfiniteQuery':
      case 'prefetchInfiniteQuery':
      case 'ensureInfiniteQueryData': {
        const ensure = op === 'ensureQueryData' || op === 'ensureInfiniteQueryData'
        const o = decodeQueryOptions(a, p, this, { requireKey: true, extra: ensure ? ['revalidateIfStale'] : [] })
        return () => client()[op](o)
      }
      case 'observeInfinite':
      case 'createInfiniteObserver': {
        expectObject(a, p, ['observer', 'options'])
        const n = obsName(a, { create: true })
        const o = decodeQueryOptions(a.options, `${p}.options`, this, { requireKey: true })
        return () => {
          const observer = new lib.InfiniteQueryObserver(client(), o)
          const entry = { observer, subs: new Map(), notifications: 0, received: [] }
          this.observers.set(n, entry)
          this.observerNames.set(observer, n)
          if (op === 'createInfiniteObserver') return undefined
          this.subscribeObserver(n, entry)
          return resultOf(observer.getCurrentResult())
        }
      }
      case 'fetchNextPage':
      case 'fetchPreviousPage': {
        expectObject(a, p, ['observer', 'options'])
        const n = obsName(a)
        const o = decodeCallOptions(a.options, `${p}.options`, ['cancelRefetch', 'throwOnError'])
        return () => {
          const observer = this.observers.get(n).observer
          if (!(observer instanceof lib.InfiniteQueryObserver)) fail(`${p}.observer`, `expected an infinite observer; "${n}" is not one`)
          return observer[op](o)
        }
      }
      case 'observeQueries':
      case 'createQueriesObserver': {
        expectObject(a, p, ['observer', 'queries', 'options'])
        const n = obsName(a, { create: true })
        const qs = this.decodeQueriesList(a.queries, `${p}.queries`)
        const o = decodeQueriesOptions(a.options, `${p}.options`, this, n)
        return () => {
          const observer = new lib.QueriesObserver(client(), qs, o)
          const entry = { observer, subs: new Map(), notifications: 0, received: [], queries: true }
          this.observers.set(n, entry)
          this.observerNames.set(observer, n)
          if (op === 'createQueriesObserver') return undefined
          this.subscribeObserver(n, entry)
          return resultOf(observer.getCurrentResult())
        }
      }
      case 'setQueries': {
        expectObject(a, p, ['observer', 'queries', 'options'])
        const n = obsName(a)
        const qs = this.decodeQueriesList(a.queries, `${p}.queries`)
        const o = decodeQueriesOptions(a.options, `${p}.options`, this, n)
        return () => this.queriesObserver(n, p).setQueries(qs, o)
      }
      case 'getQueriesOptimisticResult': {
        expectObject(a, p, ['observer', 'queries', 'options'])
        const n = obsName(a)
        const qs = this.decodeQueriesList(a.queries, `${p}.queries`)
        const o = decodeQueriesOptions(a.options, `${p}.options`, this, n)
        return () => {
          const [results, combineResult] = this.queriesObserver(n, p).getOptimisticResult(qs, o?.combine)
          const out = { results: resultOf(results) }
          if (o?.combine) out.combined = combineResult()
          return out
        }
      }
      case 'getQueryData': {
        expectObject(a, p, ['queryKey'])
        const k = keyArg(a)
        return () => client().getQueryData(k)
      }
      case 'getQueryState': {
        expectObject(a, p, ['queryKey'])
        const k = keyArg(a)
        return () => {
          const st = client().getQueryState(k)
          return st === undefined ? undefined : stateOf(st)
        }
      }
      case 'setQueryData': {
        expectObject(a, p, ['queryKey', 'data', 'updater', 'updatedAt'])
        const k = keyArg(a)
        if (('data' in a) === ('updater' in a)) fail(p, 'expected exactly one of "data" and "updater"')
        let value
        if ('data' in a) value = decodeData(a.data, `${p}.data`)
        else {
          if (!isRecipe(a.updater)) fail(`${p}.updater`, 'expected an updater recipe')
          value = decodeRecipe(a.updater, `${p}.updater`, 'updater')
        }
        if ('updatedAt' in a && !(typeof a.updatedAt === 'number')) fail(`${p}.updatedAt`, 'expected a number')
        const options = 'updatedAt' in a ? { updatedAt: a.updatedAt } : undefined
        return () => client().setQueryData(k, value, options)
      }
      case 'getQueriesData': {
        expectObject(a, p, ['filters'])
        if (!('filters' in a)) fail(`${p}.filters`, 'expected filters')
        const f = decodeFilters(a.filters, `${p}.filters`)
        return () => client().getQueriesData(f)
      }
      case 'setQueriesData': {
        expectObject(a, p, ['filters', 'data', 'updater'])
        if (!('filters' in a)) fail(`${p}.filters`, 'expected filters')
        const f = decodeFilters(a.filters, `${p}.filters`)
        if (('data' in a) === ('updater' in a)) fail(p, 'expected exactly one of "data" and "updater"')
        let value
        if ('data' in a) value = decodeData(a.data, `${p}.data`)
        else {
          if (!isRecipe(a.updater)) fail(`${p}.updater`, 'expected an updater recipe')
          value = decodeRecipe(a.updater, `${p}.updater`, 'updater')
        }
        return () => client().setQueriesData(f, value)
      }
      case 'invalidateQueries':
      case 'refetchQueries':
      case 'cancelQueries':
      case 'resetQueries': {
        expectObject(a, p, ['filters', 'options'])
        const f = decodeFilters(a.filters, `${p}.filters`, { refetchType: op === 'invalidateQueries' })
        const o = decodeCallOptions(a.options, `${p}.options`)
        return () => client()[op](f, o)
      }
      case 'removeQueries': {
        expectObject(a, p, ['filters'])
        const f = decodeFilters(a.filters, `${p}.filters`)
        return () => client().removeQueries(f)
      }
      case 'isFetching': {
        expectObject(a, p, ['filters'])
        const f = decodeFilters(a.filters, `${p}.filters`)
        return () => client().isFetching(f)
      }
      case 'setQueryDefaults': {
        expectObject(a, p, ['queryKey', 'options'])
        const k = keyArg(a)
        const o = decodeQueryOptions(a.options, `${p}.options`, this)
        return () => client().setQueryDefaults(k, o)
      }
      case 'clear': {
        expectObject(a, p, [])
        return () => client().clear()
      }
      case 'find': {
        expectObject(a, p, ['filters'])
        if (!('filters' in a)) fail(`${p}.filters`, 'expected filters')
        const f = decodeFilters(a.filters, `${p}.filters`)
        if (!('queryKey' in f)) fail(`${p}.filters.queryKey`, 'expected a query key (find requires one)')
        return () => {
          const q = client().getQueryCache().find(f)
          return q === undefined ? undefined : stateOf(q.state)
        }
      }
      case 'findAll': {
        expectObject(a, p, ['filters'])
        const f = decodeFilters(a.filters, `${p}.filters`)
        return () => client().getQueryCache().findAll(f).map((q) => q.queryHash)
      }
      case 'observe':
      case 'createObserver': {
        expectObject(a, p, ['observer', 'options'])
        const n = obsName(a, { create: true })
        const o = decodeQueryOptions(a.options, `${p}.options`, this, { requireKey: true })
        return () => {
          const observer = new lib.QueryObserver(client(), o)
          const entry = { observer, subs: new Map(), notifications: 0, received: [] }
          this.observers.set(n, entry)
          this.observerNames.set(observer, n)
          if (op === 'createObserver') return undefined
          this.subscribeObserver(n, entry)
          return resultOf(observer.getCurrentResult())
        }
      }
      case 'subscribe': {
        expectObject(a, p, ['observer', 'listener', 'unsubscribeAfter'])
        const n = obsName(a)
        if ('listener' in a && typeof a.listener !== 'string') fail(`${p}.listener`, 'expected a listener name')
        if ('unsubscribeAfter' in a && !(isInt(a.unsubscribeAfter) && a.unsubscribeAfter >= 1)) fail(`${p}.unsubscribeAfter`, 'expected a positive integer')
        const listener = a.listener ?? ''
        return () => {
          const entry = this.observers.get(n)
          if (entry.subs.has(listener)) fail(`${p}.observer`, `observer "${n}" is already subscribed`)
          this.subscribeObserver(n, entry, listener, a.unsubscribeAfter)
        }
      }
      case 'unsubscribe': {
        expectObject(a, p, ['observer', 'listener'])
        const n = obsName(a)
        if ('listener' in a && typeof a.listener !== 'string') fail(`${p}.listener`, 'expected a listener name')
        const listener = a.listener ?? ''
        return () => {
          const entry = this.observers.get(n)
          if (!entry.subs.has(listener)) fail(`${p}.observer`, `observer "${n}" is not subscribed`)
          this.dropListener(entry, listener)
        }
      }
      case 'setOptions': {
        expectObject(a, p, ['observer', 'options'])
        const n = obsName(a)
        const o = isMutationObserver(n)
          ? decodeMutationOptions(a.options, `${p}.options`, this)
          : decodeQueryOptions(a.options, `${p}.options`, this, { requireKey: true })
        return () => this.observers.get(n).observer.setOptions(o)
      }
      case 'mutate': {
        expectObject(a, p, ['options', 'observer', 'variables', 'mutateOptions'])
        if (('options' in a) === ('observer' in a)) fail(p, 'expected exactly one of "options" and "observer"')
        const variables = 'variables' in a ? decodeData(a.variables, `${p}.variables`) : undefined
        if ('observer' in a) {
          const n = obsName(a)
          if (!isMutationObserver(n)) fail(`${p}.observer`, `expected a mutation observer; "${n}" observes a query`)
          const mo = decodeMutateOptions(a.mutateOptions, `${p}.mutateOptions`, this)
          return () => this.observers.get(n).observer.mutate(structuredClone(variables), mo)
        }
        if ('mutateOptions' in a) fail(`${p}.mutateOptions`, 'per-call callbacks need an observer')
        const o = decodeMutationOptions(a.options, `${p}.options`, this)
        return () => client().getMutationCache().build(client(), o).execute(structuredClone(variables))
      }
      case 'observeMutation':
      case 'createMutationObserver': {
        expectObject(a, p, ['observer', 'options'])
        const n = obsName(a, { create: true, mutation: true })
        const o = decodeMutationOptions(a.options, `${p}.options`, this)
        return () => {
          const entry = { observer: undefined, subs: new Map(), notifications: 0, received: [] }
          this.mutationObservers.add(n)
          this.observers.set(n, entry)
          this.constructing = n // the constructor already notifies observerOptionsUpdated
          const observer = new lib.MutationObserver(client(), o)
          this.constructing = undefined
          entry.observer = observer
          this.observerNames.set(observer, n)
          if (op === 'createMutationObserver') return undefined
          this.subscribeObserver(n, entry)
          return mutationResultOf(observer.getCurrentResult())
        }
      }
      case 'reset': {
        expectObject(a, p, ['observer'])
        const n = obsName(a)
        if (!isMutationObserver(n)) fail(`${p}.observer`, `expected a mutation observer; "${n}" observes a query`)
        return () => this.observers.get(n).observer.reset()
      }
      case 'resumePausedMutations': {
        expectObject(a, p, [])
        return () => client().resumePausedMutations()
      }
      case 'isMutating': {
        expectObject(a, p, ['filters'])
        const f = decodeMutationFilters(a.filters, `${p}.filters`)
        return () => client().isMutating(f)
      }
      case 'findMutation': {
        expectObject(a, p, ['filters'])
        if (!('filters' in a)) fail(`${p}.filters`, 'expected filters')
        const f = decodeMutationFilters(a.filters, `${p}.filters`)
        return () => client().getMutationCache().find(f)?.mutationId
      }
      case 'findAllMutations': {
        expectObject(a, p, ['filters'])
        const f = decodeMutationFilters(a.filters, `${p}.filters`)
        return () => client().getMutationCache().findAll(f).map((m) => m.mutationId)
      }
      case 'setMutationDefaults': {
        expectObject(a, p, ['mutationKey', 'options'])
        if (!Array.isArray(a.mutationKey)) fail(`${p}.mutationKey`, 'expected a mutation key (an array)')
        const k = decodeData(a.mutationKey, `${p}.mutationKey`)
        const o = decodeMutationOptions(a.options, `${p}.options`, this)
        return () => client().setMutationDefaults(k, o)
      }
      case 'refetch': {
        expectObject(a, p, ['observer', 'options'])
        const n = obsName(a)
        const o = decodeCallOptions(a.options, `${p}.options`, ['cancelRefetch', 'throwOnError'])
        return () => this.observers.get(n).observer.refetch(o)
      }
      case 'getCurrentResult': {
        expectObject(a, p, ['observer'])
        const n = obsName(a)
        const of = isMutationObserver(n) ? mutationResultOf : resultOf
        return () => of(this.observers.get(n).observer.getCurrentResult())
      }
      case 'getOptimisticResult': {
        expectObject(a, p, ['observer', 'options'])
        const n = obsName(a)
        const o = decodeQueryOptions(a.options, `${p}.options`, this, { requireKey: true })
        return () =>
          resultOf(this.observers.get(n).observer.getOptimisticResult(client().defaultQueryOptions(o)))
      }
      case 'setFocused': {
        expectObject(a, p, ['focused'])
        if (typeof a.focused !== 'boolean' && !isUndefinedMarker(a.focused)) fail(`${p}.focused`, 'expected a boolean or {"$undefined":true}')
        const focused = typeof a.focused === 'boolean' ? a.focused : undefined
        return () => lib.focusManager.setFocused(focused)
      }
      case 'setOnline': {
        expectObject(a, p, ['online'])
        if (typeof a.online !== 'boolean') fail(`${p}.online`, 'expected a boolean')
        return () => lib.onlineManager.setOnline(a.online)
      }
      case 'expect':
        return this.decodeExpect(a, p, names)
      case 'tick': {
        // Several operations in one tick: no jobs run between them.
        const inner = this.decodeInner(a, p, s.at, names)
        return () => {
          for (const { sub, perform } of inner) this.record(sub, perform())
        }
      }
      case 'subscribeCache': {
        // A cache subscriber that acts: performs `then` inside the listener for matching events.
        expectObject(a, p, ['when', 'then', 'times'])
        const when = expectObject(a.when, `${p}.when`, ['type', 'action', 'queryKey'])
        const types = ['added', 'removed', 'updated', 'observerAdded', 'observerRemoved', 'observerResultsUpdated', 'observerOptionsUpdated']
        if (!types.includes(when.type)) fail(`${p}.when.type`, `expected one of ${types.join(', ')}`)
        if ('action' in when && typeof when.action !== 'string') fail(`${p}.when.action`, 'expected an action type')
        if ('queryKey' in when && !Array.isArray(when.queryKey)) fail(`${p}.when.queryKey`, 'expected a query key (an array)')
        const whenHash = 'queryKey' in when ? lib.hashKey(decodeData(when.queryKey, `${p}.when.queryKey`)) : undefined
        const times = a.times ?? 1
        if (!isInt(times) || times < 1) fail(`${p}.times`, 'expected a positive integer')
        const inner = this.decodeInner(a.then, `${p}.then`, s.at, names)
        return () => {
          let left = times
          this.cacheActors.push(
            this.client.getQueryCache().subscribe((event) => {
              if (left <= 0 || event.type !== when.type) return
              if (when.action !== undefined && event.action?.type !== when.action) return
              if (whenHash !== undefined && event.query.queryHash !== whenHash) return
              left--
              try {
                for (const { sub, perform } of inner) this.record(sub, perform())
              } catch (e) {
                this.unexpected ??= `a cache subscriber's step threw at t=${this.now}: ${errorText(e)}`
              }
            }),
          )
        }
      }
    }
    if (['dehydrate', 'hydrate', 'newClient', 'setStorage', 'persistClient', 'unpersist'].includes(op)) return decodeHydrationStep(this, s, names)
    throw new Error(`unhandled operation ${op}`)
  }

  // The steps of a tick or of a cache subscriber: each one operation and an optional "as".
  decodeInner(a, p, at, names) {
        if (!Array.isArray(a) || a.length === 0) fail(p, 'expected a non-empty array of steps (each one operation and an optional "as")')
        return a.map((step, j) => {
          const ip = `${p}[${j}]`
          expectObject(step, ip, null, 'a step object')
          if ('at' in step) fail(`${ip}.at`, 'no "at" inside a tick: its operations run at the tick step\'s time')
          const ops = Object.keys(step).filter((k) => k !== 'as')
          for (const k of ops) if (!(k in OPS)) fail(`${ip}.${k}`, `unknown operation; expected one of ${Object.keys(OPS).join(', ')}`)
          if (ops.length !== 1) fail(ip, `expected exactly one operation member, found ${ops.length}`)
          if (ops[0] === 'tick' || ops[0] === 'subscribeCache') fail(`${ip}.${ops[0]}`, `no ${ops[0]} inside a tick or a cache subscriber`)
          if ('as' in step) {
            if (typeof step.as !== 'string' || step.as.length === 0) fail(`${ip}.as`, 'expected a handle name')
            if (!OPS[ops[0]].record) fail(`${ip}.as`, `${ops[0]} records nothing, so it takes no "as"`)
            if (names) {
              if (names.handles.has(step.as)) fail(`${ip}.as`, `handle "${step.as}" is already used`)
              names.handles.set(step.as, ops[0])
            }
          }
          const sub = { op: ops[0], args: step[ops[0]], at, as: step.as, path: `${ip}.${ops[0]}` }
          return { sub, perform: this.decodeStep(sub, names) }
        })
  }

  // Subscribes a listener ('' is the observer's default one); with `unsubscribeAfter`, the listener
  // unsubscribes itself on that call (once `subscribe` has returned its function).
  subscribeObserver(name, entry, listener = '', unsubscribeAfter = undefined) {
    let calls = 0
    let installed = false
    let requested = false
    const unsubscribe = entry.observer.subscribe((result) => {
      calls++
      const written = (this.mutationObservers.has(name) ? mutationResultOf : resultOf)(result)
      if (listener === '') {
        entry.notifications++
        entry.received.push(written)
      }
      const ev = { ev: 'result', observer: name, result: written }
      if (entry.queries && this.lastCombined.has(name)) ev.combined = this.lastCombined.get(name)
      if (listener !== '') ev.listener = listener
      this.emit(ev)
      if (calls === unsubscribeAfter) {
        if (installed) this.dropListener(entry, listener)
        else requested = true
      }
    })
    entry.subs.set(listener, unsubscribe)
    installed = true
    if (requested) this.dropListener(entry, listener)
  }

  dropListener(entry, listener) {
    const unsubscribe = entry.subs.get(listener)
    if (!unsubscribe) return
    entry.subs.delete(listener)
    unsubscribe()
  }

  decodeQueriesList(v, jpath) {
    if (!Array.isArray(v)) fail(jpath, 'expected an array of query options')
    return v.map((q, i) => decodeQueryOptions(q, `${jpath}[${i}]`, this, { requireKey: true }))
  }

  queriesObserver(n, p) {
    const entry = this.observers.get(n)
    if (!entry.queries) fail(`${p}.observer`, `expected a queries observer; "${n}" is not one`)
    return entry.observer
  }

  decodeExpect(a, p, names) {
    const lib = this.lib
    expectObject(a, p, ['calls', 'query', 'queries', 'result', 'notifications', 'settled', 'returned', 'cacheSize', 'sameData', 'aborted', 'received', 'mutation', 'mutations', 'mutationCount'])
    const checks = [] // each () => failure message or undefined
    const cmp = (what, expected, actual) =>
      show(expected) === show(actual) ? undefined : `${what}: expected ${show(expected)}, got ${show(actual)}`
    if ('calls' in a) {
      expectObject(a.calls, `${p}.calls`)
      for (const [fn, n] of Object.entries(a.calls)) {
        if (!this.scripts.has(fn) && !this.callbackSpecs.has(fn)) fail(`${p}.calls.${fn}`, `expected the name of a function in "functions" or a callback in "callbacks"`)
        if (!isInt(n) || n < 0) fail(`${p}.calls.${fn}`, 'expected a non-negative integer')
        checks.push(() => cmp(`calls.${fn}`, n, (this.scripts.get(fn) ?? this.callbackSpecs.get(fn)).calls))
      }
    }
    const queryCheck = (q, qp) => {
      expectObject(q, qp, ['queryKey', 'exists', ...STATE_FIELDS], 'a query check (an object)')
      if (!Array.isArray(q.queryKey)) fail(`${qp}.queryKey`, 'expected a query key (an array)')
      const key = decodeData(q.queryKey, `${qp}.queryKey`)
      if ('exists' in q && typeof q.exists !== 'boolean') fail(`${qp}.exists`, 'expected a boolean')
      const fields = Object.keys(q).filter((k) => k !== 'queryKey' && k !== 'exists')
      if (q.exists === false && fields.length) fail(qp, 'expected no state fields with "exists": false')
      const expected = Object.fromEntries(fields.map((k) => [k, decodeData(q[k], `${qp}.${k}`)]))
      const label = `query ${canon(q.queryKey)}`
      checks.push(() => {
        const query = this.client.getQueryCache().find({ queryKey: key, exact: true })
        if (q.exists === false) return query ? `${label}: expected absent, but it exists` : undefined
        if (!query) return `${label}: expected to exist, but it is absent`
        const st = stateOf(query.state)
        for (const k of fields) {
          const m = cmp(`${label}.${k}`, expected[k], st[k])
          if (m) return m
        }
        return undefined
      })
    }
    if ('query' in a) queryCheck(a.query, `${p}.query`)
    if ('queries' in a) {
      if (!Array.isArray(a.queries)) fail(`${p}.queries`, 'expected an array of query checks')
      a.queries.forEach((q, i) => queryCheck(q, `${p}.queries[${i}]`))
    }
    const needObserver = (n, np) => {
      if (names && !names.observers.has(n)) fail(np, `expected the name of an observer created earlier; "${n}" is not one`)
    }
    if ('result' in a) {
      expectObject(a.result, `${p}.result`)
      for (const [n, fieldsObj] of Object.entries(a.result)) {
        const np = `${p}.result.${n}`
        needObserver(n, np)
        const isMutation = this.mutationObservers.has(n)
        expectObject(fieldsObj, np, isMutation ? MUTATION_RESULT_FIELDS : [...RESULT_FIELDS, ...INFINITE_RESULT_FIELDS], 'result fields (an object)')
        const expected = Object.fromEntries(Object.keys(fieldsObj).map((k) => [k, decodeData(fieldsObj[k], `${np}.${k}`)]))
        checks.push(() => {
          const r = (isMutation ? mutationResultOf : resultOf)(this.observers.get(n).observer.getCurrentResult())
          for (const k of Object.keys(expected)) {
            const m = cmp(`result.${n}.${k}`, expected[k], r[k])
            if (m) return m
          }
          return undefined
        })
      }
    }
    if ('received' in a) {
      expectObject(a.received, `${p}.received`)
      for (const [n, list] of Object.entries(a.received)) {
        const np = `${p}.received.${n}`
        needObserver(n, np)
        if (!Array.isArray(list)) fail(np, 'expected an array of result fields')
        const expected = list.map((item, i) => {
          expectObject(item, `${np}[${i}]`, RESULT_FIELDS, 'result fields (an object)')
          return Object.fromEntries(Object.keys(item).map((k) => [k, decodeData(item[k], `${np}[${i}].${k}`)]))
        })
        checks.push(() => {
          const got = this.observers.get(n).received
          if (got.length !== expected.length) return `received.${n}: expected ${expected.length} results, got ${got.length}`
          for (let i = 0; i < expected.length; i++) {
            for (const k of Object.keys(expected[i])) {
              const m = cmp(`received.${n}[${i}].${k}`, expected[i][k], got[i][k])
              if (m) return m
            }
          }
          return undefined
        })
      }
    }
    if ('notifications' in a) {
      expectObject(a.notifications, `${p}.notifications`)
      for (const [n, count] of Object.entries(a.notifications)) {
        const np = `${p}.notifications.${n}`
        needObserver(n, np)
        if (!isInt(count) || count < 0) fail(np, 'expected a non-negative integer')
        checks.push(() => cmp(`notifications.${n}`, count, this.observers.get(n).notifications))
      }
    }
    if ('settled' in a) {
      expectObject(a.settled, `${p}.settled`)
      for (const [h, want] of Object.entries(a.settled)) {
        const hp = `${p}.settled.${h}`
        if (names && names.handles.get(h) === undefined) fail(hp, `expected a handle named by an earlier step's "as"`)
        if (names && OPS[names.handles.get(h)].record !== 'settle') fail(hp, `handle "${h}" is not a promise (its operation returns a value; use "returned")`)
        expectObject(want, hp, ['value', 'error', 'pending'])
        if (Object.keys(want).length !== 1) fail(hp, 'expected exactly one of "value", "error", "pending"')
        if ('pending' in want && want.pending !== true) fail(`${hp}.pending`, 'expected true')
        if ('error' in want && typeof want.error !== 'string') fail(`${hp}.error`, 'expected an error message string')
        const wantValue = 'value' in want ? decodeData(want.value, `${hp}.value`) : undefined
        checks.push(() => {
          const hd = this.handles.get(h)
          if (!hd) return `settled.${h}: the step with this handle has not run`
          const got = hd.status === 'pending' ? 'pending' : hd.status === 'rejected' ? `error ${show(hd.error)}` : `value ${show(hd.value)}`
          const exp = 'pending' in want ? 'pending' : 'error' in want ? `error ${show(want.error)}` : `value ${show(wantValue)}`
          return got === exp ? undefined : `settled.${h}: expected ${exp}, got ${got}`
        })
      }
    }
    if ('returned' in a) {
      expectObject(a.returned, `${p}.returned`)
      for (const [h, want] of Object.entries(a.returned)) {
        const hp = `${p}.returned.${h}`
        if (names && names.handles.get(h) === undefined) fail(hp, `expected a handle named by an earlier step's "as"`)
        if (names && OPS[names.handles.get(h)].record !== 'return') fail(hp, `handle "${h}" is a promise; use "settled"`)
        const wantValue = decodeData(want, hp)
        checks.push(() =>
          this.handles.has(h) ? cmp(`returned.${h}`, wantValue, this.handles.get(h).value) : `returned.${h}: the step with this handle has not run`,
        )
      }
    }
    if ('aborted' in a) {
      expectObject(a.aborted, `${p}.aborted`)
      for (const [fn, calls] of Object.entries(a.aborted)) {
        const fp = `${p}.aborted.${fn}`
        if (!this.scripts.has(fn)) fail(fp, 'expected the name of a function in "functions"')
        expectObject(calls, fp, null, 'an object mapping call numbers to true or false')
        for (const [call, want] of Object.entries(calls)) {
          if (!/^[1-9]\d*$/.test(call)) fail(`${fp}.${call}`, 'expected a call number (1, 2, ...) as the member name')
          if (typeof want !== 'boolean') fail(`${fp}.${call}`, 'expected a boolean')
          checks.push(() => {
            const signal = this.signals.get(`${fn}#${call}`)
            if (!signal) return `aborted.${fn}.${call}: call ${call} of ${fn} did not read its signal`
            return cmp(`aborted.${fn}.${call}`, want, signal.aborted)
          })
        }
      }
    }
    if ('sameData' in a) {
      if (!Array.isArray(a.sameData)) fail(`${p}.sameData`, 'expected an array of {"a": ref, "b": ref, "same": true|false}')
      a.sameData.forEach((pair, i) => {
        const ip = `${p}.sameData[${i}]`
        expectObject(pair, ip, ['a', 'b', 'same'])
        if (typeof pair.same !== 'boolean') fail(`${ip}.same`, 'expected true or false')
        const ref = (side) => {
          const r = pair[side]
          const rp = `${ip}.${side}`
          expectObject(r, rp, ['observer', 'query'], '{"observer": name} or {"query": key}')
          if (Object.keys(r).length !== 1) fail(rp, 'expected exactly one of "observer" and "query"')
          if ('observer' in r) {
            needObserver(r.observer, `${rp}.observer`)
            return { label: `observer ${r.observer}'s data`, get: () => this.observers.get(r.observer).observer.getCurrentResult().data }
          }
          if (!Array.isArray(r.query)) fail(`${rp}.query`, 'expected a query key (an array)')
          const key = decodeData(r.query, `${rp}.query`)
          return { label: `query ${lib.hashKey(key)}'s data`, get: () => this.client.getQueryCache().find({ queryKey: key, exact: true })?.state.data }
        }
        const x = ref('a')
        const y = ref('b')
        checks.push(() =>
          (x.get() === y.get()) === pair.same
            ? undefined
            : `sameData[${i}]: expected ${x.label} and ${y.label} to be ${pair.same ? 'the same object' : 'different objects'}`,
        )
      })
    }
    const mutationCheck = (q, qp) => {
      expectObject(q, qp, ['mutationId', 'exists', ...MUTATION_STATE_FIELDS], 'a mutation check (an object)')
      if (!isInt(q.mutationId) || q.mutationId < 1) fail(`${qp}.mutationId`, 'expected a mutation id (1, 2, ...)')
      if ('exists' in q && typeof q.exists !== 'boolean') fail(`${qp}.exists`, 'expected a boolean')
      const fields = Object.keys(q).filter((k) => k !== 'mutationId' && k !== 'exists')
      if (q.exists === false && fields.length) fail(qp, 'expected no state fields with "exists": false')
      const expected = Object.fromEntries(fields.map((k) => [k, decodeData(q[k], `${qp}.${k}`)]))
      const label = `mutation ${q.mutationId}`
      checks.push(() => {
        const m = this.client.getMutationCache().getAll().find((x) => x.mutationId === q.mutationId)
        if (q.exists === false) return m ? `${label}: expected absent, but it exists` : undefined
        if (!m) return `${label}: expected to exist, but it is absent`
        const st = mutationStateOf(m.state)
        for (const k of fields) {
          const msg = cmp(`${label}.${k}`, expected[k], st[k])
          if (msg) return msg
        }
        return undefined
      })
    }
    if ('mutation' in a) mutationCheck(a.mutation, `${p}.mutation`)
    if ('mutations' in a) {
      if (!Array.isArray(a.mutations)) fail(`${p}.mutations`, 'expected an array of mutation checks')
      a.mutations.forEach((q, i) => mutationCheck(q, `${p}.mutations[${i}]`))
    }
    if ('mutationCount' in a) {
      if (!isInt(a.mutationCount) || a.mutationCount < 0) fail(`${p}.mutationCount`, 'expected a non-negative integer')
      checks.push(() => cmp('mutationCount', a.mutationCount, this.client.getMutationCache().getAll().length))
    }
    if ('cacheSize' in a) {
      if (!isInt(a.cacheSize) || a.cacheSize < 0) fail(`${p}.cacheSize`, 'expected a non-negative integer')
      checks.push(() => cmp('cacheSize', a.cacheSize, this.client.getQueryCache().getAll().length))
    }
    return () => {
      for (const c of checks) {
        const m = c()
        if (m) this.failures.push(`step ${this.stepIndex} (t=${this.now}): ${m}`)
      }
      for (const entry of this.observers.values()) entry.received = []
    }
  }

  // Records what a performed step returned: a settle handler attached at once, or a return event.
  record(s, out) {
    const record = OPS[s.op].record
    if (record === 'settle') {
      const handle = s.as
      const hd = { status: 'pending', value: undefined, error: undefined }
      if (handle !== undefined) this.handles.set(handle, hd)
      const promise = out && typeof out.then === 'function' ? out : Promise.resolve(out)
      promise.then(
        (v) => {
          hd.status = 'fulfilled'
          hd.value = ['refetch', 'fetchNextPage', 'fetchPreviousPage'].includes(s.op) ? resultOf(v) : s.op === 'resumePausedMutations' ? undefined : v
          if (handle !== undefined) this.emit({ ev: 'settle', handle, value: hd.value })
        },
        (e) => {
          hd.status = 'rejected'
          hd.error = e instanceof Error ? e.message : e
          if (handle !== undefined) this.emit({ ev: 'settle', handle, error: hd.error })
        },
      )
    } else if (record === 'return' && s.as !== undefined) {
      this.handles.set(s.as, { status: 'returned', value: out })
      this.emit({ ev: 'return', handle: s.as, value: out })
    }
  }

  // The scenario's client (also a `newClient` step's): the fixture's `client` configuration.
  makeClient() {
    const { lib } = this
    const defaultOptions = this.fx.client?.defaultOptions
    const config = defaultOptions ? { defaultOptions: decodeDefaultOptions(defaultOptions, 'client.defaultOptions', this) } : {}
    const callbacks = this.fx.client?.queryCache
    if (callbacks) {
      // QueryCache callbacks write `cacheCallback` events.
      const on = (callback, data, error, query) => {
        const ev = { ev: 'cacheCallback', callback, key: query.queryHash }
        if (callback !== 'onError') ev.data = data
        if (callback !== 'onSuccess') ev.error = error ?? null
        this.emit(ev)
      }
      const cacheConfig = {}
      if (callbacks.onSuccess) cacheConfig.onSuccess = (data, query) => on('onSuccess', data, undefined, query)
      if (callbacks.onError) cacheConfig.onError = (error, query) => on('onError', undefined, error, query)
      if (callbacks.onSettled) cacheConfig.onSettled = (data, error, query) => on('onSettled', data, error, query)
      config.queryCache = new lib.QueryCache(cacheConfig)
    }
    const mutationCacheConfig = this.fx.client?.mutationCache
    if (mutationCacheConfig !== undefined) {
      config.mutationCache = new lib.MutationCache(decodeMutationCacheConfig(mutationCacheConfig, 'client.mutationCache', this))
    }
    this.client = new lib.QueryClient(config)
    this.client.mount()
    // The runner's listeners write the current client's events.
    const unsubscribeMutations = this.client.getMutationCache().subscribe((event) => {
      const ev = { ev: 'mutationCache', type: event.type }
      if (event.mutation) ev.mutationId = event.mutation.mutationId
      if (event.type === 'updated') ev.action = event.action.type
      if (event.observer) ev.observer = this.observerNames.get(event.observer) ?? this.constructing ?? '?'
      this.emit(ev)
    })
    const unsubscribeCache = this.client.getQueryCache().subscribe((event) => {
      const ev = { ev: 'cache', type: event.type, key: event.query.queryHash }
      if (event.type === 'updated') ev.action = event.action.type
      if (event.observer) ev.observer = this.observerNames.get(event.observer) ?? '?'
      this.emit(ev)
    })
    this.unlisten = () => {
      unsubscribeCache()
      unsubscribeMutations()
    }
  }

  async replay() {
    this.makeClient()
    try {
      let prevAt = 0
      for (let i = 0; i < this.fx.steps.length; i++) {
        const s = stepShape(this.fx.steps[i], i, prevAt)
        prevAt = s.at
        const perform = this.decodeStep(s, null)
        await advanceTo(this, s.at)
        if (this.unexpected) break
        this.stepIndex = i
        try {
          this.record(s, perform())
        } catch (e) {
          if (e instanceof FixtureError) throw e
          this.unexpected = `step ${i} (${s.op}, t=${this.now}) threw: ${errorText(e)}`
          break
        }
      }
      if (!this.unexpected) await advanceTo(this, this.now)
      if (!this.unexpected) {
        for (const q of this.client.getQueryCache().getAll()) {
          this.emit({ ev: 'final', key: q.queryHash, state: stateOf(q.state), observers: q.getObserversCount() })
        }
        for (const m of this.client.getMutationCache().getAll()) {
          this.emit({ ev: 'mutationFinal', mutationId: m.mutationId, state: mutationStateOf(m.state) })
        }
      }
    } finally {
      this.tornDown = true
      for (const unsubscribe of this.cacheActors) unsubscribe()
      this.unlisten()
      for (const [name, { observer }] of this.observers) if (!this.mutationObservers.has(name)) observer.destroy()
      for (const old of this.oldClients ?? []) {
        old.clear()
        old.unmount()
      }
      this.client.clear()
      this.client.unmount()
      this.clock.timers.clear()
    }
  }
}

// ===========================================================================
// Hydration (Specs/README.md "Hydration"): dehydrate, hydrate, their options and recipes.
// Twin of Sources/QuarryScenarios/Interpreter/ScenarioSession+Hydration.swift.

Object.assign(RECIPE_PLACES, {
  wrap: ['transform'], // serializeData, deserializeData: d => ({[key]: d})
  mutationStateIs: ['mutationPredicate'], // shouldDehydrateMutation: m => m.state[field] deep-equals value
})
// `pluck` (d => d[key]) is also a transform.

function decodeHydrationRecipe(name, v, jpath, params, need) {
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

function decodeDehydrateOptions(v, jpath) {
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

function decodeHydrateOptions(v, jpath, run) {
  expectObject(v, jpath, ['queries', 'mutations', 'deserializeData'], 'hydrate options (an object)')
  const out = {}
  if ('queries' in v) out.queries = decodeQueryOptions(v.queries, `${jpath}.queries`, run)
  if ('mutations' in v) out.mutations = decodeMutationOptions(v.mutations, `${jpath}.mutations`, run)
  if ('deserializeData' in v) out.deserializeData = hydrationRecipe(v, 'deserializeData', jpath, 'transform')
  return out
}

// The JSON a snapshot becomes: what a persister writes (promises and errors become {}).
const snapshotJSON = (state) => JSON.parse(JSON.stringify(state))

// TanStack's persisters (query-persist-client-core, query-async-storage-persister 5.102.0): from
// node_modules, or TANSTACK_QUERY_PERSIST, an ES module of both whose @tanstack/query-core import
// is the very module TANSTACK_QUERY_CORE names (one timeoutManager). Loaded when present.
let persistLib
async function loadPersist() {
  const override = process.env.TANSTACK_QUERY_PERSIST
  try {
    if (override) return await import(pathToFileURL(path.resolve(override)).href)
    const core = await import('@tanstack/query-persist-client-core')
    const storage = await import('@tanstack/query-async-storage-persister')
    return { ...core, ...storage }
  } catch {
    return undefined
  }
}

// The scenario's storage: one map shared by every client (it outlives a `newClient`), with
// TanStack's storage-full rule (keys and values count, in characters). Writes are traced.
function scenarioStorage(run) {
  run.persistStorage ??= {
    quota: undefined,
    items: new Map(),
    getItem(key) {
      return Promise.resolve(this.items.get(key) ?? null)
    },
    setItem(key, value) {
      if (this.quota !== undefined) {
        let size = 0
        for (const [k, v] of this.items) if (k !== key) size += k.length + v.length
        if (size + key.length + value.length > this.quota) {
          run.emit({ ev: 'storage', op: 'setItem', key, refused: true })
          return Promise.reject(new Error('quota exceeded'))
        }
      }
      this.items.set(key, value)
      run.emit({ ev: 'storage', op: 'setItem', key, value: JSON.parse(value) })
      return Promise.resolve()
    },
    removeItem(key) {
      this.items.delete(key)
      run.emit({ ev: 'storage', op: 'removeItem', key })
      return Promise.resolve()
    },
  }
  return run.persistStorage
}

// The per-query persister, a query option: `{refetchOnRestore?, maxAge?, buster?}` gives
// TanStack's `persister` option, experimental_createQueryPersister over the scenario's storage.
QUERY_OPTIONS.persister = (v, p) => {
  expectObject(v, p, ['refetchOnRestore', 'maxAge', 'buster'], 'per-query persister options (an object)')
  if ('refetchOnRestore' in v && typeof v.refetchOnRestore !== 'boolean' && v.refetchOnRestore !== 'always') fail(`${p}.refetchOnRestore`, 'expected a boolean or "always"')
  if ('maxAge' in v && !(typeof v.maxAge === 'number' && v.maxAge >= 0)) fail(`${p}.maxAge`, 'expected a number ≥ 0')
  if ('buster' in v && typeof v.buster !== 'string') fail(`${p}.buster`, 'expected a string')
  return (queryFn, context, query) => {
    if (!persistLib) throw new Error('the persister packages are not loaded: npm install in Conformance/tanstack, or set TANSTACK_QUERY_PERSIST')
    return persistLib.experimental_createQueryPersister({ storage: scenarioStorage(activeRun), ...v }).persisterFn(queryFn, context, query)
  }
}

function decodePersistStep(run, s) {
  const { op, path: p } = s
  const a = s.args
  if (op === 'setStorage') {
    expectObject(a, p, ['quota', 'items'])
    if ('quota' in a && !(isInt(a.quota) && a.quota >= 0)) fail(`${p}.quota`, 'expected a whole number ≥ 0')
    if ('items' in a) expectObject(a.items, `${p}.items`, null, 'an object of stored values')
    return () => {
      const storage = scenarioStorage(run)
      if ('quota' in a) storage.quota = a.quota
      for (const [key, value] of Object.entries(a.items ?? {})) storage.items.set(key, JSON.stringify(value))
    }
  }
  if (op === 'unpersist') {
    expectObject(a, p, [])
    return () => run.unpersist?.()
  }
  expectObject(a, p, ['throttleTime', 'maxAge', 'buster', 'retry', 'dehydrateOptions'])
  for (const k of ['throttleTime', 'maxAge']) if (k in a && !(typeof a[k] === 'number' && a[k] >= 0)) fail(`${p}.${k}`, 'expected a number ≥ 0')
  if ('buster' in a && typeof a.buster !== 'string') fail(`${p}.buster`, 'expected a string')
  if ('retry' in a && a.retry !== 'removeOldestQuery') fail(`${p}.retry`, 'expected "removeOldestQuery"')
  const dehydrateOptions = 'dehydrateOptions' in a ? decodeDehydrateOptions(a.dehydrateOptions, `${p}.dehydrateOptions`) : undefined
  return () => {
    if (!persistLib) throw new Error('the persister packages are not loaded: npm install in Conformance/tanstack, or set TANSTACK_QUERY_PERSIST')
    const persister = persistLib.createAsyncStoragePersister({
      storage: scenarioStorage(run),
      ...('throttleTime' in a && { throttleTime: a.throttleTime }),
      ...('retry' in a && { retry: persistLib.removeOldestQuery }),
    })
    const [unsubscribe, restored] = persistLib.persistQueryClient({
      queryClient: run.client,
      persister,
      ...('maxAge' in a && { maxAge: a.maxAge }),
      ...('buster' in a && { buster: a.buster }),
      ...(dehydrateOptions && { dehydrateOptions }),
    })
    run.unpersist = unsubscribe
    return restored
  }
}

function decodeHydrationStep(run, s, names) {
  const { op, path: p } = s
  const a = s.args
  if (['setStorage', 'persistClient', 'unpersist'].includes(op)) return decodePersistStep(run, s)
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
// ===========================================================================

// ---------------------------------------------------------------------------
// Driver

function listFixtures(specsDir) {
  const out = []
  for (const entry of fs.readdirSync(specsDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue
    for (const f of fs.readdirSync(path.join(specsDir, entry.name))) {
      if (!f.endsWith('.json')) continue
      out.push({ area: entry.name, id: f.slice(0, -5), file: path.join(specsDir, entry.name, f) })
    }
  }
  out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.file < b.file ? -1 : 1))
  return out
}

function setUpGlobals(lib) {
  lib.timeoutManager.setTimeoutProvider({
    setTimeout: (cb, delay) => currentClock.add(cb, delay, false),
    clearTimeout: (id) => currentClock.clear(id),
    setInterval: (cb, delay) => currentClock.add(cb, delay, true),
    clearInterval: (id) => currentClock.clear(id),
  })
  lib.notifyManager.setScheduler((cb) => currentClock.add(cb, 0, false))
  lib.environmentManager.setIsServer(() => false)
}

let activeRun
// A reader that closes early (`| head`) ends the output, not the run with a stack trace.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0)
  throw e
})

// The runner handles every promise it is given, so a rejection nobody handles is either a runner
// bug (an ERROR) or a promise TanStack itself dropped: `refetchQueries`/`invalidateQueries`/
// `resetQueries` with `throwOnError: true` return `Promise.resolve()` for a paused query and drop
// its fetch promise, which may later reject with a cancellation or a scripted error. JavaScript
// ignores those (the engine is unaffected), and so do both runners (see Specs/README.md).
process.on('unhandledRejection', (reason) => {
  if (activeRun && (activeRun.lib.isCancelledError(reason) || reason instanceof ScriptError)) return
  // TanStack reports a failing mutation callback as an unhandled rejection by design
  // (`void Promise.reject(e)`); the scripted callback errors are expected.
  if (reason instanceof ScriptedCallbackError) return
  const m = `unhandled rejection: ${reason instanceof Error ? reason.message : String(reason)}`
  if (activeRun) activeRun.unexpected ??= m
  else process.stderr.write(`run.mjs: ${m}\n`)
})

async function runScenario(lib, fx, file) {
  const run = new Run(lib, fx, file)
  run.validate()
  currentClock = run.clock
  activeRun = run
  // A browser-like environment: listeners replaced so nothing leaks in; focused and online.
  lib.focusManager.setEventListener(() => undefined)
  lib.onlineManager.setEventListener(() => undefined)
  lib.focusManager.setFocused(true)
  lib.onlineManager.setOnline(true)
  const realNow = Date.now
  Date.now = () => run.clock.now
  try {
    await run.replay()
  } catch (e) {
    if (e instanceof FixtureError) throw e
    if (e instanceof TimerCapError) run.failures.push(`${e.message} (t=${run.now})`)
    else run.unexpected ??= `threw at t=${run.now}: ${errorText(e)}`
  } finally {
    await drain()
    Date.now = realNow
    activeRun = undefined
    currentClock = new VirtualClock()
  }
  return run
}

function firstDifference(expectedLines, actualLines) {
  const n = Math.max(expectedLines.length, actualLines.length)
  for (let i = 0; i < n; i++) {
    if (expectedLines[i] !== actualLines[i]) {
      return `trace line ${i + 1}: expected ${expectedLines[i] ?? '(end of trace)'}, got ${actualLines[i] ?? '(end of trace)'}`
    }
  }
  return undefined
}

async function main() {
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
  persistLib = await loadPersist()
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

await main()
