// bench.mjs: the workloads of `swift run -c release quarry-bench` on TanStack query-core,
// loaded from $TANSTACK_QUERY_CORE (a module path; use the modern es2022 build, see
// Benchmarks/README.md). Node built-ins only. One line per workload: name, n, ms, ops/s
// (tab-separated), the same names and shapes as Sources/quarry-bench.
//
//   TANSTACK_QUERY_CORE=/tmp/tq/query-core.mjs node Conformance/tanstack/bench.mjs [--only PREFIX,...] [--rounds N]
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
let only = []
let rounds = 3
let specs = 'Specs'
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--only') only = (args[++i] ?? '').split(',').filter(Boolean)
  else if (args[i] === '--rounds') rounds = Number(args[++i])
  else if (args[i] === '--specs') specs = args[++i]
  else {
    process.stderr.write('usage: bench.mjs [--only PREFIX,...] [--rounds N] [--specs DIR]\n')
    process.exit(2)
  }
}
const selected = (group) => only.length === 0 || only.some((p) => group.startsWith(p))

const modulePath = process.env.TANSTACK_QUERY_CORE
if (!modulePath) {
  process.stderr.write('bench.mjs: set TANSTACK_QUERY_CORE to a build of @tanstack/query-core\n')
  process.exit(2)
}
const lib = await import(pathToFileURL(path.resolve(modulePath)).href)
const { QueryClient, QueryObserver, hashKey, notifyManager, timeoutManager } = lib

// A virtual clock: timers in a Map (clearing is O(1)); `flush()` fires every timer due now, in
// creation order, as the Swift side's VirtualScheduler does. Listener notifications go through
// it (TanStack's notifyManager schedules them as 0 ms timeouts), as in run.mjs.
class Clock {
  now = 0
  nextId = 1
  timers = new Map()
  add(cb, delay) {
    const id = this.nextId++
    const d = Math.trunc(Number(delay))
    this.timers.set(id, { due: this.now + (d > 0 ? d : 0), cb })
    return id
  }
  clear(id) {
    if (id != null) this.timers.delete(Number(id))
  }
  // Fires timers due now; the 0 ms ones (notifications) were created after every older timer.
  flush() {
    for (;;) {
      let fired = false
      for (const [id, t] of this.timers) {
        if (t.due > this.now) continue
        this.timers.delete(id)
        t.cb()
        fired = true
      }
      if (!fired) return
    }
  }
}
let clock = new Clock()
timeoutManager.setTimeoutProvider({
  setTimeout: (cb, d) => clock.add(cb, d),
  clearTimeout: (id) => clock.clear(id),
  setInterval: (cb, d) => clock.add(cb, d),
  clearInterval: (id) => clock.clear(id),
})
notifyManager.setScheduler((cb) => clock.add(cb, 0))
lib.focusManager.setEventListener(() => undefined)
lib.onlineManager.setEventListener(() => undefined)

const nowMs = () => Number(process.hrtime.bigint()) / 1e6
const drain = () => new Promise((resolve) => setImmediate(resolve))
function line(name, n, ms) {
  process.stdout.write(`${name}\t${n}\t${ms.toFixed(3)}\t${(ms > 0 ? n / (ms / 1000) : 0).toFixed(0)}\n`)
}
function medianOf(list) {
  return [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]
}
function time(body) {
  const start = nowMs()
  body()
  return nowMs() - start
}
function newClient() {
  clock = new Clock()
  return new QueryClient()
}
const key = (i) => ['todos', i, { page: i % 10 }]
const check = (ok, message) => {
  if (!ok) throw new Error(`bench.mjs: ${message}`)
}

// (a) keyed reads and writes on 100k keys, a fresh client per round; the median round.
function cache() {
  const n = 100_000
  const keys = Array.from({ length: n }, (_, i) => key(i))
  const t = [[], [], [], []]
  for (let r = 0; r < rounds; r++) {
    const client = newClient()
    let sum = 0
    t[0].push(time(() => { for (let i = 0; i < n; i++) client.setQueryData(keys[i], i) }))
    t[1].push(time(() => { for (let i = 0; i < n; i++) sum += client.getQueryData(keys[i]) }))
    t[2].push(time(() => { for (let i = 0; i < n; i++) client.setQueryData(keys[i], i + 1) }))
    t[3].push(time(() => { for (let i = 0; i < n; i++) sum += client.getQueryData(key(i)) }))
    check(sum === (n * (n - 1)) / 2 + (n * (n + 1)) / 2, 'sum')
    client.clear()
  }
  const names = ['setQueryData.new', 'getQueryData.hit', 'setQueryData.existing', 'getQueryData.freshKey']
  names.forEach((name, i) => line(name, n, medianOf(t[i])))
}

// (b) hashKey of 1M prebuilt keys.
function hashKeys() {
  const n = 1_000_000
  const keys = Array.from({ length: n }, (_, i) => key(i))
  let total = 0
  const t = []
  for (let r = 0; r < rounds; r++) t.push(time(() => { for (const k of keys) total += hashKey(k).length }))
  check(total > 0, 'hashKey')
  line('hashKey', n, medianOf(t))
}

// (c) 10k observed queries; invalidateQueries(['todos']): the call, then until it resolved and
// every listener call was delivered.
async function invalidate() {
  const n = 10_000
  const t = [[], [], []]
  for (let r = 0; r < rounds; r++) {
    const client = newClient()
    let calls = 0
    const unsubscribes = []
    t[0].push(time(() => {
      for (let i = 0; i < n; i++) {
        const k = key(i)
        client.setQueryData(k, i)
        const observer = new QueryObserver(client, { queryKey: k, queryFn: () => Promise.resolve(i + 1), staleTime: Infinity })
        unsubscribes.push(observer.subscribe(() => { calls++ }))
      }
      clock.flush()
    }))
    check(calls === 0, `setup caused ${calls} listener calls`)
    let promise
    const start = nowMs()
    t[1].push(time(() => { promise = client.invalidateQueries({ queryKey: ['todos'] }) }))
    await promise
    clock.flush()
    await drain()
    clock.flush()
    t[2].push(nowMs() - start)
    check(calls === 3 * n, `${calls} listener calls`)
    check(client.getQueryData(key(7)) === 8, 'refetched data')
    for (const u of unsubscribes) u()
    client.clear()
  }
  line('invalidate.setup', n, medianOf(t[0]))
  line('invalidate.call', n, medianOf(t[1]))
  line('invalidate.settled', n, medianOf(t[2]))
}

// (d) 10k observers on 1k keys; one write per key fans out to 10 listeners each, unbatched and
// in one notifyManager.batch.
function observers() {
  const keyCount = 1_000
  const n = 10_000
  const t = [[], [], []]
  for (let r = 0; r < rounds; r++) {
    const client = newClient()
    const keys = Array.from({ length: keyCount }, (_, i) => key(i))
    for (const k of keys) client.setQueryData(k, 0)
    let calls = 0
    const unsubscribes = []
    t[0].push(time(() => {
      for (let i = 0; i < n; i++) {
        const observer = new QueryObserver(client, { queryKey: keys[i % keyCount], queryFn: () => 0, staleTime: Infinity })
        unsubscribes.push(observer.subscribe(() => { calls++ }))
      }
      clock.flush()
    }))
    check(calls === 0, 'subscribe')
    t[1].push(time(() => {
      for (const k of keys) client.setQueryData(k, 1)
      clock.flush()
    }))
    check(calls === n, `${calls} listener calls`)
    t[2].push(time(() => {
      notifyManager.batch(() => { for (const k of keys) client.setQueryData(k, 2) })
      clock.flush()
    }))
    check(calls === 2 * n, `${calls} listener calls`)
    for (const u of unsubscribes) u()
    client.clear()
  }
  line('observers.subscribe', n, medianOf(t[0]))
  line('observers.write', n, medianOf(t[1]))
  line('observers.writeBatched', n, medianOf(t[2]))
}

// (e) clear() of 100k queries.
function clear() {
  const n = 100_000
  const keys = Array.from({ length: n }, (_, i) => key(i))
  const t = []
  for (let r = 0; r < rounds; r++) {
    const client = newClient()
    for (let i = 0; i < n; i++) client.setQueryData(keys[i], i)
    t.push(time(() => client.clear()))
    check(client.getQueryCache().getAll().length === 0, 'clear')
  }
  line('clear', n, medianOf(t))
}

// The per-operation cost as the cache grows (Quarry's ScaleWorkloads): new keys written, read,
// rewritten and cleared in one client of 10k and of 1M queries. A first, unreported pass of 100k
// lets the JIT optimise the loops (Swift's code is compiled ahead), so the two sizes compare the
// same machine code, as they do on Quarry's side. A 10k pass takes about 1 ms, so each 10k
// workload is the median of 11 rounds (a fresh client each), as on Quarry's side; 1M one round.
function scale() {
  const passes = [{ n: 100_000, report: false, rounds: 1 }, { n: 10_000, report: true, rounds: 11 }, { n: 1_000_000, report: true, rounds: 1 }]
  for (const { n, report, rounds: passRounds } of passes) {
    const keys = Array.from({ length: n }, (_, i) => key(i))
    const t = [[], [], [], []]
    for (let r = 0; r < passRounds; r++) {
      const client = newClient()
      let sum = 0
      t[0].push(time(() => { for (let i = 0; i < n; i++) client.setQueryData(keys[i], i) }))
      t[1].push(time(() => { for (let i = 0; i < n; i++) sum += client.getQueryData(keys[i]) }))
      t[2].push(time(() => { for (let i = 0; i < n; i++) client.setQueryData(keys[i], i + 1) }))
      check(sum === (n * (n - 1)) / 2, 'scale sum')
      t[3].push(time(() => client.clear()))
    }
    if (!report) continue
    line(`scale.setQueryData.new.${n}`, n, medianOf(t[0]))
    line(`scale.getQueryData.hit.${n}`, n, medianOf(t[1]))
    line(`scale.setQueryData.existing.${n}`, n, medianOf(t[2]))
    line(`scale.clear.${n}`, n, medianOf(t[3]))
  }
}

// (g) the typed API's reads and writes (Quarry: through `QueryCacheKey<FetchTodo>`, whose key is
// built on every call): what an app writes here, a fresh ['FetchTodo', { id, page }] per call.
// 100k entries written first (not timed); a fresh client per round; the median round.
function typed() {
  const n = 100_000
  const t = [[], []]
  for (let r = 0; r < rounds; r++) {
    const client = newClient()
    for (let i = 0; i < n; i++) client.setQueryData(['FetchTodo', { id: i, page: i % 10 }], i)
    let sum = 0
    t[0].push(time(() => { for (let i = 0; i < n; i++) sum += client.getQueryData(['FetchTodo', { id: i, page: i % 10 }]) }))
    t[1].push(time(() => { for (let i = 0; i < n; i++) client.setQueryData(['FetchTodo', { id: i, page: i % 10 }], i + 1) }))
    for (let i = 0; i < n; i++) sum += client.getQueryData(['FetchTodo', { id: i, page: i % 10 }])
    check(sum === (n * (n - 1)) / 2 + (n * (n + 1)) / 2, 'typed sum')
    client.clear()
  }
  line('typed.hit', n, medianOf(t[0]))
  line('typed.write', n, medianOf(t[1]))
}

// (f) the whole spec suite on run.mjs, in a child node (its start-up included: about 40 ms).
function specSuite() {
  const start = nowMs()
  const result = spawnSync(process.execPath, [path.join(here, 'run.mjs'), specs], { encoding: 'utf8', env: process.env, maxBuffer: 64 << 20 })
  const ms = nowMs() - start
  const m = /(\d+) passed, (\d+) failed/.exec(result.stdout)
  check(m && m[2] === '0', `run.mjs: ${result.stdout.slice(-300)}${result.stderr.slice(-300)}`)
  line('specs.replay', Number(m[1]), ms)
}

if (selected('cache')) cache()
if (selected('hashKey')) hashKeys()
if (selected('invalidate')) await invalidate()
if (selected('observers')) observers()
if (selected('clear')) clear()
if (selected('specs')) specSuite()
if (selected('scale')) scale()
if (selected('typed')) typed()
