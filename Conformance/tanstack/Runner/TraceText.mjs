// Report and trace text: the one-line error text of a report (its stack to stderr), and the
// first difference between two traces (`--compare`).
// Swift twin: Runner/TraceText.swift.

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
