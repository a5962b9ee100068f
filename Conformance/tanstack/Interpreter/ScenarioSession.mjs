// One replay of one scenario: its clock, client, scripted functions, observers, handles and the
// trace it writes; `validate` decodes every step once before anything runs, `replay` runs them.
// `ScriptError` is what scripted functions and streams throw.
// Swift twin: Interpreter/ScenarioSession.swift.

import { fail, FixtureError } from '../Model/FixtureError.mjs'
import { decodeData, isRecipe } from '../Decoder/FixtureValidator+Values.mjs'
import { stepShape } from '../Decoder/FixtureValidator.mjs'
import { OPS } from '../Decoder/OperationSpec.mjs'
import { errorText } from '../Runner/TraceText.mjs'
import { advanceTo, VirtualClock } from '../Scheduling/VirtualClock.mjs'
import { decodeDefaultOptions } from './OptionsDecoder.mjs'
import { decodeMutationCacheConfig } from './ScenarioSession+Mutations.mjs'
import { decodeStep } from './ScenarioSession+Steps.mjs'
import { addStreams } from './ScenarioSession+Streams.mjs'
import { canon, mutationStateOf, resultOf, stateOf } from './TraceValues.mjs'

// The error a scripted function rejects with (`throw` outcomes).
export class ScriptError extends Error {}

export class ScenarioSession {
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
      decodeStep(this, s, { observers, handles })
      if (s.as !== undefined) {
        if (handles.has(s.as)) fail(`steps[${i}].as`, `handle "${s.as}" is already used`)
        handles.set(s.as, s.op)
      }
    })
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
        const perform = decodeStep(this, s, null)
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
