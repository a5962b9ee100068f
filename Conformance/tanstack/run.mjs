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
  countCalls: ['select'],
  pluck: ['select'],
  length: ['select'],
  throw: ['select'],
  failureCountLessThan: ['retry'],
  linear: ['retryDelay'],
  previousData: ['placeholderData'],
  keyIncludes: ['predicate'],
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
    case 'pluck': {
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
  structuralSharing: (v, p) => checkOpt(v, p, 'structuralSharing', (x) => typeof x === 'boolean', 'a boolean'),
  networkMode: (v, p) => checkOpt(v, p, 'networkMode', (x) => ['online', 'always', 'offlineFirst'].includes(x), '"online", "always" or "offlineFirst"'),
  meta: (v, p) => {
    if (!isObj(v)) fail(p, 'expected an object')
    return decodeData(v, p)
  },
  retryOnMount: (v, p) => checkOpt(v, p, 'retryOnMount', (x) => typeof x === 'boolean', 'a boolean'),
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
  expectObject(v, jpath, ['queries', 'mutations'])
  const out = {}
  if ('queries' in v) out.queries = decodeQueryOptions(v.queries, `${jpath}.queries`, run)
  if ('mutations' in v) {
    expectObject(v.mutations, `${jpath}.mutations`)
    out.mutations = {}
    for (const k of Object.keys(v.mutations)) {
      out.mutations[k] = decodeOptionValue(v.mutations[k], `${jpath}.mutations.${k}`, k)
    }
  }
  return out
}

// ---------------------------------------------------------------------------
// Fixture structure

const TOP_MEMBERS = ['format', 'id', 'title', 'source', 'client', 'functions', 'streams', 'steps']
const OUTCOME_MEMBERS = ['after', 'return', 'throw', 'readSignal', 'times']

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
  if ('client' in fx) expectObject(fx.client, 'client', ['defaultOptions'])
  if ('functions' in fx) {
    expectObject(fx.functions, 'functions', null, 'an object of scripted functions')
    for (const [name, outcomes] of Object.entries(fx.functions)) {
      const p = `functions.${name}`
      if (!Array.isArray(outcomes) || outcomes.length === 0) fail(p, 'expected a non-empty array of outcomes')
      outcomes.forEach((o, i) => {
        const op = `${p}[${i}]`
        expectObject(o, op, OUTCOME_MEMBERS, 'an outcome object')
        if (('return' in o) === ('throw' in o)) fail(op, 'expected exactly one of "return" and "throw"')
        if ('after' in o && !(isInt(o.after) && o.after >= 0)) fail(`${op}.after`, 'expected a non-negative integer (ms)')
        if ('throw' in o && typeof o.throw !== 'string') fail(`${op}.throw`, 'expected an error message string')
        if ('readSignal' in o && typeof o.readSignal !== 'boolean') fail(`${op}.readSignal`, 'expected a boolean')
        if ('times' in o && o.times !== 'forever' && !(isInt(o.times) && o.times >= 1)) {
          fail(`${op}.times`, 'expected a positive integer or "forever"')
        }
        if ('return' in o) {
          if (isRecipe(o.return)) {
            expectObject(o.return, `${op}.return`, ['$fn'], 'a return recipe')
            if (!['queryKey', 'pageParam', 'callCount'].includes(o.return.$fn)) {
              fail(`${op}.return.$fn`, 'expected "queryKey", "pageParam" or "callCount"')
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
  expect: { record: null },
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

const RESULT_FIELDS = [
  'status', 'fetchStatus', 'data', 'error', 'dataUpdatedAt', 'errorUpdatedAt', 'errorUpdateCount',
  'failureCount', 'failureReason', 'isPending', 'isSuccess', 'isError', 'isLoading', 'isFetching',
  'isRefetching', 'isLoadingError', 'isRefetchError', 'isFetched', 'isFetchedAfterMount', 'isPaused',
  'isPlaceholderData', 'isStale', 'isEnabled',
]
function resultOf(r) {
  const out = {}
  for (const k of RESULT_FIELDS) out[k] = r[k]
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
    this.stepIndex = -1
    this.tornDown = false // teardown writes nothing
    for (const [name, outcomes] of Object.entries(fx.functions ?? {})) this.addScript(name, outcomes)
    addStreams(this)
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
    script.fn = function scripted(context) {
      script.calls++
      const n = script.calls
      const ev = { ev: 'call', fn: name, n, key: run.lib.hashKey(context.queryKey) }
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
      if (o.readSignal) void context.signal
      const settle = () => {
        if ('throw' in o) throw new ScriptError(o.throw)
        if (isRecipe(o.return)) {
          if (o.return.$fn === 'queryKey') return structuredClone(context.queryKey)
          if (o.return.$fn === 'pageParam') return pageParam
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
    const obsName = (args, { create = false } = {}) => {
      const n = args.observer
      if (typeof n !== 'string' || n.length === 0) fail(`${p}.observer`, 'expected an observer name')
      if (names) {
        if (create && names.observers.has(n)) fail(`${p}.observer`, `observer "${n}" already exists`)
        if (!create && !names.observers.has(n)) fail(`${p}.observer`, `expected the name of an observer created earlier; "${n}" is not one`)
        if (create) names.observers.add(n)
      }
      return n
    }
    const keyArg = (args) => {
      if (!Array.isArray(args.queryKey)) fail(`${p}.queryKey`, 'expected a query key (an array)')
      return decodeData(args.queryKey, `${p}.queryKey`)
    }
    switch (op) {
      case 'fetchQuery':
      case 'prefetchQuery':
      case 'ensureQueryData': {
        const o = decodeQueryOptions(a, p, this, { requireKey: true, extra: op === 'ensureQueryData' ? ['revalidateIfStale'] : [] })
        return () => client()[op](o)
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
          const entry = { observer, unsubscribe: undefined, notifications: 0 }
          this.observers.set(n, entry)
          this.observerNames.set(observer, n)
          if (op === 'createObserver') return undefined
          this.subscribeObserver(n, entry)
          return resultOf(observer.getCurrentResult())
        }
      }
      case 'subscribe': {
        expectObject(a, p, ['observer'])
        const n = obsName(a)
        return () => {
          const entry = this.observers.get(n)
          if (entry.unsubscribe) fail(`${p}.observer`, `observer "${n}" is already subscribed`)
          this.subscribeObserver(n, entry)
        }
      }
      case 'unsubscribe': {
        expectObject(a, p, ['observer'])
        const n = obsName(a)
        return () => {
          const entry = this.observers.get(n)
          if (!entry.unsubscribe) fail(`${p}.observer`, `observer "${n}" is not subscribed`)
          const u = entry.unsubscribe
          entry.unsubscribe = undefined
          u()
        }
      }
      case 'setOptions': {
        expectObject(a, p, ['observer', 'options'])
        const n = obsName(a)
        const o = decodeQueryOptions(a.options, `${p}.options`, this, { requireKey: true })
        return () => this.observers.get(n).observer.setOptions(o)
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
        return () => resultOf(this.observers.get(n).observer.getCurrentResult())
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
    }
    throw new Error(`unhandled operation ${op}`)
  }

  subscribeObserver(name, entry) {
    entry.unsubscribe = entry.observer.subscribe((result) => {
      entry.notifications++
      this.emit({ ev: 'result', observer: name, result: resultOf(result) })
    })
  }

  decodeExpect(a, p, names) {
    expectObject(a, p, ['calls', 'query', 'queries', 'result', 'notifications', 'settled', 'returned', 'cacheSize'])
    const checks = [] // each () => failure message or undefined
    const cmp = (what, expected, actual) =>
      show(expected) === show(actual) ? undefined : `${what}: expected ${show(expected)}, got ${show(actual)}`
    if ('calls' in a) {
      expectObject(a.calls, `${p}.calls`)
      for (const [fn, n] of Object.entries(a.calls)) {
        if (!this.scripts.has(fn)) fail(`${p}.calls.${fn}`, `expected the name of a function in "functions"`)
        if (!isInt(n) || n < 0) fail(`${p}.calls.${fn}`, 'expected a non-negative integer')
        checks.push(() => cmp(`calls.${fn}`, n, this.scripts.get(fn).calls))
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
        expectObject(fieldsObj, np, RESULT_FIELDS, 'result fields (an object)')
        const expected = Object.fromEntries(Object.keys(fieldsObj).map((k) => [k, decodeData(fieldsObj[k], `${np}.${k}`)]))
        checks.push(() => {
          const r = resultOf(this.observers.get(n).observer.getCurrentResult())
          for (const k of Object.keys(expected)) {
            const m = cmp(`result.${n}.${k}`, expected[k], r[k])
            if (m) return m
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
        checks.push(() => cmp(`returned.${h}`, wantValue, this.handles.get(h).value))
      }
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
    }
  }

  async replay() {
    const { lib } = this
    const defaultOptions = this.fx.client?.defaultOptions
    this.client = new lib.QueryClient(
      defaultOptions ? { defaultOptions: decodeDefaultOptions(defaultOptions, 'client.defaultOptions', this) } : {},
    )
    this.client.mount()
    const unsubscribeCache = this.client.getQueryCache().subscribe((event) => {
      const ev = { ev: 'cache', type: event.type, key: event.query.queryHash }
      if (event.type === 'updated') ev.action = event.action.type
      if (event.observer) ev.observer = this.observerNames.get(event.observer) ?? '?'
      this.emit(ev)
    })
    try {
      let prevAt = 0
      for (let i = 0; i < this.fx.steps.length; i++) {
        const s = stepShape(this.fx.steps[i], i, prevAt)
        prevAt = s.at
        const perform = this.decodeStep(s, null)
        await advanceTo(this, s.at)
        if (this.unexpected) break
        this.stepIndex = i
        let out
        try {
          out = perform()
        } catch (e) {
          if (e instanceof FixtureError) throw e
          this.unexpected = `step ${i} (${s.op}, t=${this.now}) threw: ${errorText(e)}`
          break
        }
        const record = OPS[s.op].record
        if (record === 'settle') {
          const handle = s.as
          const hd = { status: 'pending', value: undefined, error: undefined }
          if (handle !== undefined) this.handles.set(handle, hd)
          const promise = out && typeof out.then === 'function' ? out : Promise.resolve(out)
          promise.then(
            (v) => {
              hd.status = 'fulfilled'
              hd.value = s.op === 'refetch' ? resultOf(v) : v
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
      if (!this.unexpected) await advanceTo(this, this.now)
      if (!this.unexpected) {
        for (const q of this.client.getQueryCache().getAll()) {
          this.emit({ ev: 'final', key: q.queryHash, state: stateOf(q.state), observers: q.getObserversCount() })
        }
      }
    } finally {
      this.tornDown = true
      unsubscribeCache()
      for (const { observer } of this.observers.values()) observer.destroy()
      this.client.clear()
      this.client.unmount()
      this.clock.timers.clear()
    }
  }
}

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
