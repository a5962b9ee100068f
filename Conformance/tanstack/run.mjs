#!/usr/bin/env node
// Replays Quarry's scenario fixtures (Specs/<area>/<id>.json) against real
// @tanstack/query-core 5.102.0 on a virtual clock and writes/compares traces.
// The fixture, trace and report formats are defined in Specs/README.md.
//
// Usage: node Conformance/tanstack/run.mjs Specs/ [--filter PATTERN] [--json FILE]
//          [--trace-dir DIR] [--record DIR] [--compare DIR]
//
// Node built-ins only. query-core is loaded from $TANSTACK_QUERY_CORE (a module path)
// or else `@tanstack/query-core` resolved from this directory's node_modules.
// The harness is one module per Swift twin, in the folders of Sources/QuarryScenarios
// (CommandLine/, Runner/, Model/, Decoder/, Interpreter/), plus Scheduling/VirtualClock.mjs and
// TanStack/Environment.mjs (the table in README.md, "Layout").

import { main } from './Runner/Runner.mjs'

await main()
