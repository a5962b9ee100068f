// The checks of an `expect` step: decoded (and their names checked) once, then evaluated when the
// step runs; a failing check is a FAIL with the step and the first difference.
// Swift twin: Interpreter/ScenarioSession+Checks.swift, Decoder/FixtureValidator+Checks.swift.

import { expectObject, fail, isInt } from '../Model/FixtureError.mjs'
import { decodeData } from '../Decoder/FixtureValidator+Values.mjs'
import { OPS } from '../Decoder/OperationSpec.mjs'
import { canon, INFINITE_RESULT_FIELDS, MUTATION_RESULT_FIELDS, MUTATION_STATE_FIELDS, mutationResultOf, mutationStateOf, RESULT_FIELDS, resultOf, show, STATE_FIELDS, stateOf } from './TraceValues.mjs'

export function decodeExpect(session, a, p, names) {
  const lib = session.lib
  expectObject(a, p, ['calls', 'query', 'queries', 'result', 'notifications', 'settled', 'returned', 'cacheSize', 'sameData', 'aborted', 'received', 'mutation', 'mutations', 'mutationCount'])
  const checks = [] // each () => failure message or undefined
  const cmp = (what, expected, actual) =>
    show(expected) === show(actual) ? undefined : `${what}: expected ${show(expected)}, got ${show(actual)}`
  if ('calls' in a) {
    expectObject(a.calls, `${p}.calls`)
    for (const [fn, n] of Object.entries(a.calls)) {
      if (!session.scripts.has(fn) && !session.callbackSpecs.has(fn)) fail(`${p}.calls.${fn}`, `expected the name of a function in "functions" or a callback in "callbacks"`)
      if (!isInt(n) || n < 0) fail(`${p}.calls.${fn}`, 'expected a non-negative integer')
      checks.push(() => cmp(`calls.${fn}`, n, (session.scripts.get(fn) ?? session.callbackSpecs.get(fn)).calls))
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
      const query = session.client.getQueryCache().find({ queryKey: key, exact: true })
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
      const isMutation = session.mutationObservers.has(n)
      expectObject(fieldsObj, np, isMutation ? MUTATION_RESULT_FIELDS : [...RESULT_FIELDS, ...INFINITE_RESULT_FIELDS], 'result fields (an object)')
      const expected = Object.fromEntries(Object.keys(fieldsObj).map((k) => [k, decodeData(fieldsObj[k], `${np}.${k}`)]))
      checks.push(() => {
        const r = (isMutation ? mutationResultOf : resultOf)(session.observers.get(n).observer.getCurrentResult())
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
        const got = session.observers.get(n).received
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
      checks.push(() => cmp(`notifications.${n}`, count, session.observers.get(n).notifications))
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
        const hd = session.handles.get(h)
        if (!hd) return `settled.${h}: the step with session handle has not run`
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
        session.handles.has(h) ? cmp(`returned.${h}`, wantValue, session.handles.get(h).value) : `returned.${h}: the step with session handle has not run`,
      )
    }
  }
  if ('aborted' in a) {
    expectObject(a.aborted, `${p}.aborted`)
    for (const [fn, calls] of Object.entries(a.aborted)) {
      const fp = `${p}.aborted.${fn}`
      if (!session.scripts.has(fn)) fail(fp, 'expected the name of a function in "functions"')
      expectObject(calls, fp, null, 'an object mapping call numbers to true or false')
      for (const [call, want] of Object.entries(calls)) {
        if (!/^[1-9]\d*$/.test(call)) fail(`${fp}.${call}`, 'expected a call number (1, 2, ...) as the member name')
        if (typeof want !== 'boolean') fail(`${fp}.${call}`, 'expected a boolean')
        checks.push(() => {
          const signal = session.signals.get(`${fn}#${call}`)
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
          return { label: `observer ${r.observer}'s data`, get: () => session.observers.get(r.observer).observer.getCurrentResult().data }
        }
        if (!Array.isArray(r.query)) fail(`${rp}.query`, 'expected a query key (an array)')
        const key = decodeData(r.query, `${rp}.query`)
        return { label: `query ${lib.hashKey(key)}'s data`, get: () => session.client.getQueryCache().find({ queryKey: key, exact: true })?.state.data }
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
      const m = session.client.getMutationCache().getAll().find((x) => x.mutationId === q.mutationId)
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
    checks.push(() => cmp('mutationCount', a.mutationCount, session.client.getMutationCache().getAll().length))
  }
  if ('cacheSize' in a) {
    if (!isInt(a.cacheSize) || a.cacheSize < 0) fail(`${p}.cacheSize`, 'expected a non-negative integer')
    checks.push(() => cmp('cacheSize', a.cacheSize, session.client.getQueryCache().getAll().length))
  }
  return () => {
    for (const c of checks) {
      const m = c()
      if (m) session.failures.push(`step ${session.stepIndex} (t=${session.now}): ${m}`)
    }
    for (const entry of session.observers.values()) entry.received = []
  }
}
