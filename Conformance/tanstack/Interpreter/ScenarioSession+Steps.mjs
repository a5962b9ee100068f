// Steps: decoding a step into a thunk that performs it, by the `place` its operation names in
// Decoder/OperationSpec.mjs, the query-client and query-observer operations themselves (plus
// `tick` and `subscribeCache`, whose inner steps are decoded the same way), and observer
// listeners (`subscribe`, `unsubscribeAfter`, `result` events).
// Swift twin: Interpreter/ScenarioSession+Steps.swift, Interpreter/ArgumentReader.swift,
// Decoder/FixtureValidator+Steps.swift.

import { expectObject, fail, isInt } from '../Model/FixtureError.mjs'
import { decodeData, isUndefinedMarker } from '../Decoder/FixtureValidator+Values.mjs'
import { OPS } from '../Decoder/OperationSpec.mjs'
import { errorText } from '../Runner/TraceText.mjs'
import { decodeCallOptions, decodeFilters, decodeQueryOptions, decodeUpdater } from './OptionsDecoder.mjs'
import { decodeExpect } from './ScenarioSession+Checks.mjs'
import { decodeHydrationStep } from './ScenarioSession+Hydration.mjs'
import { decodeMutationOptions, decodeMutationStep } from './ScenarioSession+Mutations.mjs'
import { decodePagedStep } from './ScenarioSession+Paged.mjs'
import { decodePersistStep } from './ScenarioSession+Persist.mjs'
import { mutationResultOf, resultOf, stateOf } from './TraceValues.mjs'

// Decodes a step's arguments into a thunk that performs it; `names` tracks observers and
// handles known at this point (validation) or is null (replay, where the session's maps are used).
export function decodeStep(session, s, names) {
  const ctx = stepContext(session, s, names)
  switch (OPS[s.op].place) {
    case 'steps':
      return decodeQueryStep(session, s, ctx, names)
    case 'checks':
      return decodeExpect(session, ctx.a, ctx.p, names)
    case 'mutations':
      return decodeMutationStep(session, s, ctx)
    case 'paged':
      return decodePagedStep(session, s, ctx)
    case 'hydration':
      return decodeHydrationStep(session, s, names)
    case 'persist':
      return decodePersistStep(session, s)
  }
  throw new Error(`unhandled operation ${s.op}`)
}

// What every step decoder reads: the operation, its arguments and JSON path, the library and
// client, and the observer-name and query-key readers (which track names during validation).
export function stepContext(session, s, names) {
  const { op, path: p } = s
  const a = s.args
  const lib = session.lib
  const client = () => session.client
  const obsName = (args, { create = false, mutation = false } = {}) => {
    const n = args.observer
    if (typeof n !== 'string' || n.length === 0) fail(`${p}.observer`, 'expected an observer name')
    if (names) {
      if (create && names.observers.has(n)) fail(`${p}.observer`, `observer "${n}" already exists`)
      if (!create && !names.observers.has(n)) fail(`${p}.observer`, `expected the name of an observer created earlier; "${n}" is not one`)
      if (create) names.observers.add(n)
      if (create && mutation) session.mutationObservers.add(n)
    }
    return n
  }
  const isMutationObserver = (n) => session.mutationObservers.has(n)
  const keyArg = (args) => {
    if (!Array.isArray(args.queryKey)) fail(`${p}.queryKey`, 'expected a query key (an array)')
    return decodeData(args.queryKey, `${p}.queryKey`)
  }
  return { op, p, a, lib, client, obsName, isMutationObserver, keyArg }
}

// The query-client and query-observer operations, focus and online, `tick` and `subscribeCache`.
function decodeQueryStep(session, s, ctx, names) {
  const { op, p, a, lib, client, obsName, isMutationObserver, keyArg } = ctx
  switch (op) {
    case 'fetchQuery':
    case 'prefetchQuery':
    case 'ensureQueryData': {
      const ensure = op === 'ensureQueryData' || op === 'ensureInfiniteQueryData'
      const o = decodeQueryOptions(a, p, session, { requireKey: true, extra: ensure ? ['revalidateIfStale'] : [] })
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
      const value = decodeUpdater(a, p)
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
      const value = decodeUpdater(a, p)
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
      const o = decodeQueryOptions(a.options, `${p}.options`, session)
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
      const o = decodeQueryOptions(a.options, `${p}.options`, session, { requireKey: true })
      return () => addObserver(session, n, new lib.QueryObserver(client(), o), op === 'observe')
    }
    case 'subscribe': {
      expectObject(a, p, ['observer', 'listener', 'unsubscribeAfter'])
      const n = obsName(a)
      if ('listener' in a && typeof a.listener !== 'string') fail(`${p}.listener`, 'expected a listener name')
      if ('unsubscribeAfter' in a && !(isInt(a.unsubscribeAfter) && a.unsubscribeAfter >= 1)) fail(`${p}.unsubscribeAfter`, 'expected a positive integer')
      const listener = a.listener ?? ''
      return () => {
        const entry = session.observers.get(n)
        if (entry.subs.has(listener)) fail(`${p}.observer`, `observer "${n}" is already subscribed`)
        subscribeObserver(session, n, entry, listener, a.unsubscribeAfter)
      }
    }
    case 'unsubscribe': {
      expectObject(a, p, ['observer', 'listener'])
      const n = obsName(a)
      if ('listener' in a && typeof a.listener !== 'string') fail(`${p}.listener`, 'expected a listener name')
      const listener = a.listener ?? ''
      return () => {
        const entry = session.observers.get(n)
        if (!entry.subs.has(listener)) fail(`${p}.observer`, `observer "${n}" is not subscribed`)
        dropListener(entry, listener)
      }
    }
    case 'setOptions': {
      expectObject(a, p, ['observer', 'options'])
      const n = obsName(a)
      const o = isMutationObserver(n)
        ? decodeMutationOptions(a.options, `${p}.options`, session)
        : decodeQueryOptions(a.options, `${p}.options`, session, { requireKey: true })
      return () => session.observers.get(n).observer.setOptions(o)
    }
    case 'refetch': {
      expectObject(a, p, ['observer', 'options'])
      const n = obsName(a)
      const o = decodeCallOptions(a.options, `${p}.options`, ['cancelRefetch', 'throwOnError'])
      return () => session.observers.get(n).observer.refetch(o)
    }
    case 'getCurrentResult': {
      expectObject(a, p, ['observer'])
      const n = obsName(a)
      const of = isMutationObserver(n) ? mutationResultOf : resultOf
      return () => of(session.observers.get(n).observer.getCurrentResult())
    }
    case 'getOptimisticResult': {
      expectObject(a, p, ['observer', 'options'])
      const n = obsName(a)
      const o = decodeQueryOptions(a.options, `${p}.options`, session, { requireKey: true })
      return () =>
        resultOf(session.observers.get(n).observer.getOptimisticResult(client().defaultQueryOptions(o)))
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
    case 'tick': {
      // Several operations in one tick: no jobs run between them.
      const inner = decodeInner(session, a, p, s.at, names)
      return () => {
        for (const { sub, perform } of inner) session.record(sub, perform())
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
      const inner = decodeInner(session, a.then, `${p}.then`, s.at, names)
      return () => {
        let left = times
        session.cacheActors.push(
          session.client.getQueryCache().subscribe((event) => {
            if (left <= 0 || event.type !== when.type) return
            if (when.action !== undefined && event.action?.type !== when.action) return
            if (whenHash !== undefined && event.query.queryHash !== whenHash) return
            left--
            try {
              for (const { sub, perform } of inner) session.record(sub, perform())
            } catch (e) {
              session.unexpected ??= `a cache subscriber's step threw at t=${session.now}: ${errorText(e)}`
            }
          }),
        )
      }
    }
  }
  throw new Error(`unhandled operation ${op}`)
}

// The steps of a tick or of a cache subscriber: each one operation and an optional "as".
export function decodeInner(session, a, p, at, names) {
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
    return { sub, perform: decodeStep(session, sub, names) }
  })
}

// Registers `observer` as `name` (`observe`, `observeInfinite`, `observeQueries` and their
// `create…` twins; `extra` marks a queries observer); when `subscribe` (`observe…`), subscribes
// its default listener and returns its current result. Swift twin: ScenarioSession.addObserver
// (ScenarioSession+Steps.swift).
export function addObserver(session, name, observer, subscribe, extra = {}) {
  const entry = { observer, subs: new Map(), notifications: 0, received: [], ...extra }
  session.observers.set(name, entry)
  session.observerNames.set(observer, name)
  if (!subscribe) return undefined
  subscribeObserver(session, name, entry)
  return resultOf(observer.getCurrentResult())
}

// Subscribes a listener ('' is the observer's default one); with `unsubscribeAfter`, the listener
// unsubscribes itself on that call (once `subscribe` has returned its function).
export function subscribeObserver(session, name, entry, listener = '', unsubscribeAfter = undefined) {
  let calls = 0
  let installed = false
  let requested = false
  const unsubscribe = entry.observer.subscribe((result) => {
    calls++
    const written = (session.mutationObservers.has(name) ? mutationResultOf : resultOf)(result)
    if (listener === '') {
      entry.notifications++
      entry.received.push(written)
    }
    const ev = { ev: 'result', observer: name, result: written }
    if (entry.queries && session.lastCombined.has(name)) ev.combined = session.lastCombined.get(name)
    if (listener !== '') ev.listener = listener
    session.emit(ev)
    if (calls === unsubscribeAfter) {
      if (installed) dropListener(entry, listener)
      else requested = true
    }
  })
  entry.subs.set(listener, unsubscribe)
  installed = true
  if (requested) dropListener(entry, listener)
}

export function dropListener(entry, listener) {
  const unsubscribe = entry.subs.get(listener)
  if (!unsubscribe) return
  entry.subs.delete(listener)
  unsubscribe()
}
