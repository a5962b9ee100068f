// The command line: `node Conformance/tanstack/run.mjs Specs/ [--filter PATTERN] [--json FILE]
// [--trace-dir DIR] [--record DIR] [--compare DIR]`.
// Swift twin: CommandLine/RunnerCommand.swift, Runner/RunnerOptions.swift.

export function usage(message) {
  if (message) process.stderr.write(`run.mjs: ${message}\n`)
  process.stderr.write(
    'usage: node Conformance/tanstack/run.mjs Specs/ [--filter PATTERN] [--json FILE] ' +
      '[--trace-dir DIR] [--record DIR] [--compare DIR]\n',
  )
  process.exit(1)
}

export function parseArgs(argv) {
  const opts = { specs: undefined, filters: [], json: undefined, traceDirs: [], compare: undefined }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`)
      return argv[++i]
    }
    if (a === '--filter') opts.filters.push(value())
    else if (a === '--json') opts.json = value()
    else if (a === '--trace-dir' || a === '--record') opts.traceDirs.push(value())
    else if (a === '--compare') opts.compare = value()
    else if (a === '-h' || a === '--help') usage()
    else if (a.startsWith('--')) usage(`unknown option ${a}`)
    else if (opts.specs === undefined) opts.specs = a
    else usage(`unexpected argument ${a}`)
  }
  if (opts.specs === undefined) usage('missing the Specs directory')
  return opts
}
