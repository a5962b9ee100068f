// Observer listeners: subscribing one (the observer's default listener '' or a named one, which
// may unsubscribe itself), writing `result` events, and dropping one.
// Swift twin: Interpreter/ScenarioSession+Steps.swift (`subscribe`, `dropListener`).

import { mutationResultOf, resultOf } from './values.mjs'

// Subscribes a listener ('' is the observer's default one); with `unsubscribeAfter`, the listener
// unsubscribes itself on that call (once `subscribe` has returned its function).
export function subscribeObserver(session, name, entry, listener = '', unsubscribeAfter = undefined) {
  let calls = 0
  let installed = false
  let requested = false
  const unsubscribe = entry.observer.subscribe((result) => {
    calls++
    const written = (session.mutationObservers.has(name) ? mutationResultOf : resultOf)(result)
    if (listener === '') {
      entry.notifications++
      entry.received.push(written)
    }
    const ev = { ev: 'result', observer: name, result: written }
    if (entry.queries && session.lastCombined.has(name)) ev.combined = session.lastCombined.get(name)
    if (listener !== '') ev.listener = listener
    session.emit(ev)
    if (calls === unsubscribeAfter) {
      if (installed) dropListener(entry, listener)
      else requested = true
    }
  })
  entry.subs.set(listener, unsubscribe)
  installed = true
  if (requested) dropListener(entry, listener)
}

export function dropListener(entry, listener) {
  const unsubscribe = entry.subs.get(listener)
  if (!unsubscribe) return
  entry.subs.delete(listener)
  unsubscribe()
}
