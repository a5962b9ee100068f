// The operation table (what each step operation's `as` records, and which module decodes it)
// and the shape of a step: one operation member, `at`, `as`.
// Swift twin: Decoder/OperationSpec.swift (+Paged, +Hydration), Decoder/FixtureValidator+Steps.swift.
// A new operation: a row here, then its case in the module its `place` names
// (steps, paged, mutations, hydration, persist, checks), as in the Swift runner.

import { fail, expectObject, isInt } from './fixture.mjs'

// Operation table: `record` is what `as` records ("settle", "return" or null); `place` is the
// module whose decoder turns the step into a thunk (steps.mjs dispatches on it).
export const OPS = {
  fetchQuery: { record: 'settle', place: 'steps' },
  prefetchQuery: { record: 'settle', place: 'steps' },
  ensureQueryData: { record: 'settle', place: 'steps' },
  getQueryData: { record: 'return', place: 'steps' },
  getQueryState: { record: 'return', place: 'steps' },
  setQueryData: { record: 'return', place: 'steps' },
  getQueriesData: { record: 'return', place: 'steps' },
  setQueriesData: { record: 'return', place: 'steps' },
  invalidateQueries: { record: 'settle', place: 'steps' },
  refetchQueries: { record: 'settle', place: 'steps' },
  cancelQueries: { record: 'settle', place: 'steps' },
  resetQueries: { record: 'settle', place: 'steps' },
  removeQueries: { record: null, place: 'steps' },
  isFetching: { record: 'return', place: 'steps' },
  setQueryDefaults: { record: null, place: 'steps' },
  clear: { record: null, place: 'steps' },
  find: { record: 'return', place: 'steps' },
  findAll: { record: 'return', place: 'steps' },
  observe: { record: 'return', place: 'steps' },
  createObserver: { record: null, place: 'steps' },
  subscribe: { record: null, place: 'steps' },
  unsubscribe: { record: null, place: 'steps' },
  setOptions: { record: null, place: 'steps' },
  refetch: { record: 'settle', place: 'steps' },
  getCurrentResult: { record: 'return', place: 'steps' },
  getOptimisticResult: { record: 'return', place: 'steps' },
  setFocused: { record: null, place: 'steps' },
  setOnline: { record: null, place: 'steps' },
  mutate: { record: 'settle', place: 'mutations' },
  observeMutation: { record: 'return', place: 'mutations' },
  createMutationObserver: { record: null, place: 'mutations' },
  reset: { record: null, place: 'mutations' },
  resumePausedMutations: { record: 'settle', place: 'mutations' },
  isMutating: { record: 'return', place: 'mutations' },
  findMutation: { record: 'return', place: 'mutations' },
  findAllMutations: { record: 'return', place: 'mutations' },
  setMutationDefaults: { record: null, place: 'mutations' },
  expect: { record: null, place: 'checks' },
  tick: { record: null, place: 'steps' },
  subscribeCache: { record: null, place: 'steps' },
  fetchInfiniteQuery: { record: 'settle', place: 'paged' },
  prefetchInfiniteQuery: { record: 'settle', place: 'paged' },
  ensureInfiniteQueryData: { record: 'settle', place: 'paged' },
  observeInfinite: { record: 'return', place: 'paged' },
  createInfiniteObserver: { record: null, place: 'paged' },
  fetchNextPage: { record: 'settle', place: 'paged' },
  fetchPreviousPage: { record: 'settle', place: 'paged' },
  observeQueries: { record: 'return', place: 'paged' },
  createQueriesObserver: { record: null, place: 'paged' },
  setQueries: { record: null, place: 'paged' },
  getQueriesOptimisticResult: { record: 'return', place: 'paged' },
  dehydrate: { record: 'return', place: 'hydration' },
  hydrate: { record: null, place: 'hydration' },
  newClient: { record: null, place: 'hydration' },
  setStorage: { record: null, place: 'persist' },
  persistClient: { record: 'settle', place: 'persist' },
  unpersist: { record: null, place: 'persist' },
}

// Splits a step into {op, args, at, as}, checking the shape; `prevAt` enforces ordering.
export function stepShape(step, i, prevAt) {
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
