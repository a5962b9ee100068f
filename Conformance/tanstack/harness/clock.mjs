// The virtual clock (sinon's rules, see Specs/README.md "Virtual time"), TanStack's timers and
// scheduler pointed at it, and advancing it step by step with real job drains in between.
// Swift twin: Interpreter/Interpreter.swift and the engine's VirtualScheduler.

import { errorText } from './trace.mjs'

export const TIMER_CAP = 100_000

export class VirtualClock {
  now = 0
  nextId = 1
  timers = new Map()
  inTimerPhase = false
  fired = 0

  add(callback, delay, repeat) {
    let d = Math.trunc(Number(delay))
    if (!(d > 0)) d = this.inTimerPhase ? 1 : 0
    if (repeat && d < 1) d = 1
    const id = this.nextId++
    this.timers.set(id, { id, due: this.now + d, callback, interval: repeat ? d : undefined })
    return id
  }
  clear(id) {
    if (id !== undefined && id !== null) this.timers.delete(Number(id))
  }
  next(limit) {
    let best
    for (const t of this.timers.values()) {
      if (t.due > limit) continue
      if (!best || t.due < best.due || (t.due === best.due && t.id < best.id)) best = t
    }
    return best
  }
}

export class TimerCapError extends Error {}

// The clock TanStack's timers run on: the current scenario's.
let currentClock = new VirtualClock()
export function useClock(clock) {
  currentClock = clock
}

const realSetImmediate = setImmediate
// One real macrotask boundary: node drains every microtask (promise jobs, nextTick) first.
export const drain = () => new Promise((resolve) => realSetImmediate(resolve))

// Fires due timers up to `until`, draining jobs after each; the drain before the loop is
// the post-step drain (not in the timer phase).
export async function advanceTo(run, until) {
  const clock = run.clock
  await drain()
  for (;;) {
    const timer = clock.next(until)
    if (!timer) break
    if (++clock.fired > TIMER_CAP) throw new TimerCapError(`more than ${TIMER_CAP} timers fired (an endless timer loop?)`)
    clock.now = timer.due
    if (timer.interval !== undefined) timer.due += timer.interval
    else clock.timers.delete(timer.id)
    clock.inTimerPhase = true
    try {
      timer.callback()
    } catch (e) {
      run.unexpected ??= `a timer callback threw at t=${clock.now}: ${errorText(e)}`
    }
    await drain()
    clock.inTimerPhase = false
  }
  if (until > clock.now) clock.now = until
}

// Once per process: TanStack's timeouts and notify scheduler run on the virtual clock.
export function installVirtualTimers(lib) {
  lib.timeoutManager.setTimeoutProvider({
    setTimeout: (cb, delay) => currentClock.add(cb, delay, false),
    clearTimeout: (id) => currentClock.clear(id),
    setInterval: (cb, delay) => currentClock.add(cb, delay, true),
    clearInterval: (id) => currentClock.clear(id),
  })
  lib.notifyManager.setScheduler((cb) => currentClock.add(cb, 0, false))
  lib.environmentManager.setIsServer(() => false)
}
