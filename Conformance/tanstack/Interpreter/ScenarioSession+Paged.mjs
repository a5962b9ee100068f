// Infinite queries and queries observers: their fetches, observers and pages, and the options of
// a queries observer (`combine`).
// Swift twin: Interpreter/ScenarioSession+Paged.swift, Decoder/OperationSpec+Paged.swift,
// Decoder/FixtureValidator+Paged.swift.

import { expectObject, fail } from '../Model/FixtureError.mjs'
import { isRecipe, isUndefinedMarker } from '../Decoder/FixtureValidator+Values.mjs'
import { decodeCallOptions, decodeQueryOptions, decodeRecipe } from './OptionsDecoder.mjs'
import { addObserver } from './ScenarioSession+Steps.mjs'
import { canon, resultOf } from './TraceValues.mjs'

// A queries observer's options: `{combine}`; the combine recipe records its last output
// under the observer's name so the trace can show it.
export function decodeQueriesOptions(v, jpath, run, name) {
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

// The infinite-query and queries-observer operations.
export function decodePagedStep(session, s, ctx) {
  const { op, p, a, lib, client, obsName, isMutationObserver, keyArg } = ctx
  switch (op) {
    case 'fetchInfiniteQuery':
    case 'prefetchInfiniteQuery':
    case 'ensureInfiniteQueryData': {
      const ensure = op === 'ensureQueryData' || op === 'ensureInfiniteQueryData'
      const o = decodeQueryOptions(a, p, session, { requireKey: true, extra: ensure ? ['revalidateIfStale'] : [] })
      return () => client()[op](o)
    }
    case 'observeInfinite':
    case 'createInfiniteObserver': {
      expectObject(a, p, ['observer', 'options'])
      const n = obsName(a, { create: true })
      const o = decodeQueryOptions(a.options, `${p}.options`, session, { requireKey: true })
      return () => addObserver(session, n, new lib.InfiniteQueryObserver(client(), o), op === 'observeInfinite')
    }
    case 'fetchNextPage':
    case 'fetchPreviousPage': {
      expectObject(a, p, ['observer', 'options'])
      const n = obsName(a)
      const o = decodeCallOptions(a.options, `${p}.options`, ['cancelRefetch', 'throwOnError'])
      return () => {
        const observer = session.observers.get(n).observer
        if (!(observer instanceof lib.InfiniteQueryObserver)) fail(`${p}.observer`, `expected an infinite observer; "${n}" is not one`)
        return observer[op](o)
      }
    }
    case 'observeQueries':
    case 'createQueriesObserver': {
      expectObject(a, p, ['observer', 'queries', 'options'])
      const n = obsName(a, { create: true })
      const qs = decodeQueriesList(session, a.queries, `${p}.queries`)
      const o = decodeQueriesOptions(a.options, `${p}.options`, session, n)
      return () => addObserver(session, n, new lib.QueriesObserver(client(), qs, o), op === 'observeQueries', { queries: true })
    }
    case 'setQueries': {
      expectObject(a, p, ['observer', 'queries', 'options'])
      const n = obsName(a)
      const qs = decodeQueriesList(session, a.queries, `${p}.queries`)
      const o = decodeQueriesOptions(a.options, `${p}.options`, session, n)
      return () => queriesObserver(session, n, p).setQueries(qs, o)
    }
    case 'getQueriesOptimisticResult': {
      expectObject(a, p, ['observer', 'queries', 'options'])
      const n = obsName(a)
      const qs = decodeQueriesList(session, a.queries, `${p}.queries`)
      const o = decodeQueriesOptions(a.options, `${p}.options`, session, n)
      return () => {
        const [results, combineResult] = queriesObserver(session, n, p).getOptimisticResult(qs, o?.combine)
        const out = { results: resultOf(results) }
        if (o?.combine) out.combined = combineResult()
        return out
      }
    }
  }
  throw new Error(`unhandled operation ${op}`)
}

function decodeQueriesList(session, v, jpath) {
  if (!Array.isArray(v)) fail(jpath, 'expected an array of query options')
  return v.map((q, i) => decodeQueryOptions(q, `${jpath}[${i}]`, session, { requireKey: true }))
}

function queriesObserver(session, n, p) {
  const entry = session.observers.get(n)
  if (!entry.queries) fail(`${p}.observer`, `expected a queries observer; "${n}" is not one`)
  return entry.observer
}
