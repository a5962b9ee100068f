// Mutations (Specs/README.md "Mutations"): options, filters, scripted callbacks (their shape is
// checked in Decoder/FixtureValidator.mjs) and the mutation operations (mutate, mutation
// observers, resumePausedMutations, the mutation cache's queries).
// Swift twin: Interpreter/ScenarioSession+Mutations.swift.

import { expectObject, fail, isObj } from '../Model/FixtureError.mjs'
import { decodeData, isRecipe, isUndefinedMarker } from '../Decoder/FixtureValidator+Values.mjs'
import { MUTATION_HOOKS, MUTATION_STATUSES } from '../Decoder/FixtureVocabulary.mjs'
import { decodeCallOptions, decodeFilters, QUERY_OPTIONS } from './OptionsDecoder.mjs'
import { subscribeObserver } from './ScenarioSession+Steps.mjs'
import { mutationResultOf } from './TraceValues.mjs'

const MUTATION_OPTIONS = {
  mutationKey: (v, p) => QUERY_OPTIONS.queryKey(v, p),
  retry: (v, p) => QUERY_OPTIONS.retry(v, p),
  retryDelay: (v, p) => QUERY_OPTIONS.retryDelay(v, p),
  gcTime: (v, p) => QUERY_OPTIONS.gcTime(v, p),
  networkMode: (v, p) => QUERY_OPTIONS.networkMode(v, p),
  meta: (v, p) => QUERY_OPTIONS.meta(v, p),
  scope: (v, p) => {
    expectObject(v, p, ['id'], 'a scope object {"id": ...}')
    if (typeof v.id !== 'string') fail(`${p}.id`, 'expected a string')
    return { id: v.id }
  },
}

export function decodeMutationOptions(v, jpath, run) {
  expectObject(v, jpath, ['mutationFn', ...MUTATION_HOOKS, ...Object.keys(MUTATION_OPTIONS)], 'mutation options (an object)')
  const out = {}
  for (const k of Object.keys(v)) {
    const p = `${jpath}.${k}`
    if (isUndefinedMarker(v[k])) out[k] = undefined
    else if (k === 'mutationFn') {
      if (typeof v[k] !== 'string' || !run.scripts.has(v[k])) fail(p, 'expected the name of a function in "functions"')
      out.mutationFn = run.scripts.get(v[k]).mutationFn
    } else if (MUTATION_HOOKS.includes(k)) out[k] = scriptedCallback(run, v[k], k, p)
    else out[k] = MUTATION_OPTIONS[k](v[k], p)
  }
  return out
}

export function decodeMutateOptions(v, jpath, run) {
  if (v === undefined) return undefined
  expectObject(v, jpath, ['onSuccess', 'onError', 'onSettled'], 'per-call callbacks (an object)')
  const out = {}
  for (const k of Object.keys(v)) out[k] = scriptedCallback(run, v[k], `mutate.${k}`, `${jpath}.${k}`)
  return out
}

export function decodeMutationCacheConfig(v, jpath, run) {
  expectObject(v, jpath, MUTATION_HOOKS, 'mutation cache callbacks (an object)')
  const out = {}
  for (const k of Object.keys(v)) out[k] = scriptedCallback(run, v[k], `cache.${k}`, `${jpath}.${k}`)
  return out
}

export function decodeMutationFilters(v, jpath) {
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

export class ScriptedCallbackError extends Error {}

// The scripted callback `name` bound to `hook`: writes a callback event, performs its
// operations (awaiting those marked "await", as an async function does), returns or throws.
export function scriptedCallback(session, name, hook, jpath) {
  if (typeof name !== 'string' || !session.callbackSpecs.has(name)) fail(jpath, 'expected the name of a callback in "callbacks"')
  const id = `${hook} ${name}`
  if (session.callbackFns.has(id)) return session.callbackFns.get(id)
  const entry = session.callbackSpecs.get(name)
  const { spec } = entry
  const ops = (spec.do ?? []).map((op, i) => decodeCallbackOp(session, op, `callbacks.${name}.do[${i}]`))
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
    session.emit(ev)
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
  session.callbackFns.set(id, fn)
  return fn
}

function decodeCallbackOp(session, op, jpath) {
  const name = Object.keys(op).find((k) => k !== 'await' && k !== 'as')
  const a = op[name]
  const p = `${jpath}.${name}`
  const client = () => session.client
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

// The mutation operations.
export function decodeMutationStep(session, s, ctx) {
  const { op, p, a, lib, client, obsName, isMutationObserver, keyArg } = ctx
  switch (op) {
    case 'mutate': {
      expectObject(a, p, ['options', 'observer', 'variables', 'mutateOptions'])
      if (('options' in a) === ('observer' in a)) fail(p, 'expected exactly one of "options" and "observer"')
      const variables = 'variables' in a ? decodeData(a.variables, `${p}.variables`) : undefined
      if ('observer' in a) {
        const n = obsName(a)
        if (!isMutationObserver(n)) fail(`${p}.observer`, `expected a mutation observer; "${n}" observes a query`)
        const mo = decodeMutateOptions(a.mutateOptions, `${p}.mutateOptions`, session)
        return () => session.observers.get(n).observer.mutate(structuredClone(variables), mo)
      }
      if ('mutateOptions' in a) fail(`${p}.mutateOptions`, 'per-call callbacks need an observer')
      const o = decodeMutationOptions(a.options, `${p}.options`, session)
      return () => client().getMutationCache().build(client(), o).execute(structuredClone(variables))
    }
    case 'observeMutation':
    case 'createMutationObserver': {
      expectObject(a, p, ['observer', 'options'])
      const n = obsName(a, { create: true, mutation: true })
      const o = decodeMutationOptions(a.options, `${p}.options`, session)
      return () => {
        const entry = { observer: undefined, subs: new Map(), notifications: 0, received: [] }
        session.mutationObservers.add(n)
        session.observers.set(n, entry)
        session.constructing = n // the constructor already notifies observerOptionsUpdated
        const observer = new lib.MutationObserver(client(), o)
        session.constructing = undefined
        entry.observer = observer
        session.observerNames.set(observer, n)
        if (op === 'createMutationObserver') return undefined
        subscribeObserver(session, n, entry)
        return mutationResultOf(observer.getCurrentResult())
      }
    }
    case 'reset': {
      expectObject(a, p, ['observer'])
      const n = obsName(a)
      if (!isMutationObserver(n)) fail(`${p}.observer`, `expected a mutation observer; "${n}" observes a query`)
      return () => session.observers.get(n).observer.reset()
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
      const o = decodeMutationOptions(a.options, `${p}.options`, session)
      return () => client().setMutationDefaults(k, o)
    }
  }
  throw new Error(`unhandled operation ${op}`)
}
