// `--filter`'s globs over scenario IDs.
// Swift twin: Runner/GlobPattern.swift.

// `--filter` (repeatable): an ID, or a glob over IDs with `*` and `?`; none means every ID.
export function filterMatcher(patterns) {
  if (patterns.length === 0) return () => true
  const rxs = patterns.map((pattern) => {
    let re = ''
    for (const c of pattern) {
      if (c === '*') re += '.*'
      else if (c === '?') re += '.'
      else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&')
    }
    return new RegExp(`^${re}$`)
  })
  return (id) => rxs.some((rx) => rx.test(id))
}
