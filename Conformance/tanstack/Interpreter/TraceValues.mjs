// What the trace writes: canonical JSON (the byte-for-byte form both runners write), `show` for
// messages, deep equality as the trace writes values, and the fields written for query states,
// observer results and mutation states.
// Swift twin: Interpreter/TraceValues.swift (canonical JSON: `JSONValue.canonicalJSON`).

// Canonical JSON: keys sorted (JS default sort), JSON.stringify escaping,
// undefined members omitted, Errors written as their message.
export function canon(v) {
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

export const show = (v) => (v === undefined ? 'undefined' : canon(v))

// Equal as the trace writes them.
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
