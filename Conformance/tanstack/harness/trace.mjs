// Writing traces: canonical JSON (the byte-for-byte form both runners write), the one-line
// error text of a report, and the first difference between two traces.
// Swift twin: Runner/TraceText.swift, Interpreter/TraceValues.swift (`show`).

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

// One line for the report; the stack goes to stderr.
export function errorText(e) {
  if (e?.stack) process.stderr.write(`${e.stack}\n`)
  return String(e instanceof Error ? `${e.name}: ${e.message}` : e).split('\n')[0]
}

// The first differing line of a recorded trace and a replayed one (`--compare`).
export function firstDifference(expectedLines, actualLines) {
  const n = Math.max(expectedLines.length, actualLines.length)
  for (let i = 0; i < n; i++) {
    if (expectedLines[i] !== actualLines[i]) {
      return `trace line ${i + 1}: expected ${expectedLines[i] ?? '(end of trace)'}, got ${actualLines[i] ?? '(end of trace)'}`
    }
  }
  return undefined
}
