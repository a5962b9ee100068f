// The virtual clock (sinon's rules, see Specs/README.md "Virtual time"), and advancing it step by
// step with real job drains in between.
// TanStack's timers are pointed at it by TanStack/Environment.mjs.
// Swift twin: Sources/Quarry/Scheduling/VirtualScheduler.swift (the engine's virtual clock).

import { errorText } from '../Runner/TraceText.mjs'

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
