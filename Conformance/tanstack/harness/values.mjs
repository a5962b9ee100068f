// Fixture values and trace values: plain data with `$undefined`, the recipe and `$undefined`
// markers, and what the trace writes for query states, observer results and mutation states.
// Swift twin: Interpreter/TraceValues.swift, Decoder/FixtureValidator+Values.swift.

import { fail, isObj } from './fixture.mjs'
import { show } from './trace.mjs'

// The error a scripted function rejects with (`throw` outcomes).
export class ScriptError extends Error {}

// Plain data: `{"$undefined":true}` anywhere stands for undefined; recipes are not allowed.
export function decodeData(v, jpath) {
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

export function isUndefinedMarker(v) {
  return isObj(v) && Object.keys(v).length === 1 && v.$undefined === true
}

export function isRecipe(v) {
  return isObj(v) && '$fn' in v
}

export function deepEqual(a, b) {
  return show(a) === show(b)
}

export function stateOf(state) {
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
export const STATE_FIELDS = Object.keys(stateOf({}))

export function mutationStateOf(state) {
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
export const MUTATION_STATE_FIELDS = Object.keys(mutationStateOf({}))
export const MUTATION_RESULT_FIELDS = [...MUTATION_STATE_FIELDS, 'isIdle', 'isPending', 'isSuccess', 'isError']
export function mutationResultOf(r) {
  const out = mutationStateOf(r)
  for (const k of ['isIdle', 'isPending', 'isSuccess', 'isError']) out[k] = r[k]
  return out
}

export const RESULT_FIELDS = [
  'status', 'fetchStatus', 'data', 'error', 'dataUpdatedAt', 'errorUpdatedAt', 'errorUpdateCount',
  'failureCount', 'failureReason', 'isPending', 'isSuccess', 'isError', 'isLoading', 'isFetching',
  'isRefetching', 'isLoadingError', 'isRefetchError', 'isFetched', 'isFetchedAfterMount', 'isPaused',
  'isPlaceholderData', 'isStale', 'isEnabled',
]
export const INFINITE_RESULT_FIELDS = [
  'hasNextPage', 'hasPreviousPage', 'isFetchingNextPage', 'isFetchingPreviousPage',
  'isFetchNextPageError', 'isFetchPreviousPageError',
]
export function resultOf(r) {
  if (Array.isArray(r)) return r.map(resultOf)
  const out = {}
  for (const k of RESULT_FIELDS) out[k] = r[k]
  if ('hasNextPage' in r) for (const k of INFINITE_RESULT_FIELDS) out[k] = r[k]
  out.error ??= null
  out.failureReason ??= null
  return out
}
