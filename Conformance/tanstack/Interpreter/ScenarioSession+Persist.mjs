// Persistence (Specs/README.md "Persistence"): the scenario's storage, TanStack's persisters
// (`persistQueryClient` over an async-storage persister, and the per-query `persister` option),
// and the steps `setStorage`, `persistClient`, `unpersist`.
// Swift twin: Interpreter/ScenarioSession+Persist.swift.

import { expectObject, fail, isInt } from '../Model/FixtureError.mjs'
import { decodeDehydrateOptions } from './ScenarioSession+Hydration.mjs'
import { harness } from '../TanStack/Environment.mjs'

// The scenario's storage: one map shared by every client (it outlives a `newClient`), with
// TanStack's storage-full rule (keys and values count, in characters). Writes are traced.
export function scenarioStorage(run) {
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
export function decodePersisterOption(v, p, run) {
  expectObject(v, p, ['refetchOnRestore', 'maxAge', 'buster'], 'per-query persister options (an object)')
  if ('refetchOnRestore' in v && typeof v.refetchOnRestore !== 'boolean' && v.refetchOnRestore !== 'always') fail(`${p}.refetchOnRestore`, 'expected a boolean or "always"')
  if ('maxAge' in v && !(typeof v.maxAge === 'number' && v.maxAge >= 0)) fail(`${p}.maxAge`, 'expected a number ≥ 0')
  if ('buster' in v && typeof v.buster !== 'string') fail(`${p}.buster`, 'expected a string')
  return (queryFn, context, query) => {
    if (!harness.persist) throw new Error('the persister packages are not loaded: npm install in Conformance/tanstack, or set TANSTACK_QUERY_PERSIST')
    return harness.persist.experimental_createQueryPersister({ storage: scenarioStorage(run), ...v }).persisterFn(queryFn, context, query)
  }
}

export function decodePersistStep(run, s) {
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
    if (!harness.persist) throw new Error('the persister packages are not loaded: npm install in Conformance/tanstack, or set TANSTACK_QUERY_PERSIST')
    const persister = harness.persist.createAsyncStoragePersister({
      storage: scenarioStorage(run),
      ...('throttleTime' in a && { throttleTime: a.throttleTime }),
      ...('retry' in a && { retry: harness.persist.removeOldestQuery }),
    })
    const [unsubscribe, restored] = harness.persist.persistQueryClient({
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
