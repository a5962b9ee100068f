#!/usr/bin/env bash
# Runs quarry-bench and Conformance/tanstack/bench.mjs alternately, three times each, and prints
# the median ops/s per workload on each side and the ratio (Quarry / TanStack).
#
#   TANSTACK_QUERY_CORE=/tmp/tq/query-core.mjs bash Scripts/bench.sh [--only PREFIX,...] [--rounds N]
# RUNS=3 by default. The TanStack module must be the modern (es2022, native #private) build.
# The specs workload replays the persistence scenarios too: set TANSTACK_QUERY_PERSIST as for run.mjs.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${TANSTACK_QUERY_CORE:?set TANSTACK_QUERY_CORE to a build of @tanstack/query-core 5.102.0}"
runs=${RUNS:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

swift build -c release --product quarry-bench >/dev/null
for i in $(seq 1 "$runs"); do
  echo "run $i/$runs: quarry-bench" >&2
  .build/release/quarry-bench "$@" >"$out/swift.$i"
  echo "run $i/$runs: bench.mjs" >&2
  node Conformance/tanstack/bench.mjs "$@" >"$out/node.$i"
done

echo "machine: $(nproc) cores, $(uname -sr), $(swift --version 2>/dev/null | head -1), node $(node --version), load $(cut -d' ' -f1-3 /proc/loadavg)"
awk -F'\t' -v runs="$runs" '
  function median(list,    n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return a[int((n + 1) / 2)]
  }
  FNR == 1 { side = (FILENAME ~ /swift/) ? "swift" : "node" }
  {
    if (!($1 in seen)) { seen[$1] = 1; order[++count] = $1; size[$1] = $2 }
    ops[side, $1] = ops[side, $1] " " $4
    ms[side, $1] = ms[side, $1] " " $3
  }
  # Nanoseconds per operation of a Quarry workload (its median ops/s), or 0 if it did not run.
  function ns(name,    q) {
    if (!(("swift", name) in ops)) return 0
    q = median(ops["swift", name])
    return q > 0 ? 1e9 / q : 0
  }
  # One growth line: the cost per operation at 10k and at 1M, their ratio, and the floor beside it.
  function growth(name, floor,    small, large) {
    small = ns("scale." name ".10000"); large = ns("scale." name ".1000000")
    if (small == 0 || large == 0) return
    printf "%-26s %12.0f %12.0f %8.2fx   %s\n", name, small, large, large / small, floor
  }
  END {
    printf "%-26s %9s %14s %14s %8s\n", "workload", "n", "Quarry ops/s", "TanStack ops/s", "ratio"
    for (i = 1; i <= count; i++) {
      name = order[i]
      q = (("swift", name) in ops) ? median(ops["swift", name]) : ""
      t = (("node", name) in ops) ? median(ops["node", name]) : ""
      ratio = (q != "" && t != "" && t > 0) ? sprintf("%.2fx", q / t) : "-"
      printf "%-26s %9s %14s %14s %8s\n", name, size[name], (q == "" ? "-" : q), (t == "" ? "-" : t), ratio
    }
    # Issue 14: the cost per operation at 1M queries within 2x of the cost at 10k. Beside each,
    # what this run measured of the machine at that size (Benchmarks/README.md, "Results, nineteenth pass").
    if (ns("scale.getQueryData.hit.10000") == 0 || ns("scale.getQueryData.hit.1000000") == 0) exit
    miss = ns("scale.floor.chase.1000000") - ns("scale.floor.chase.10000")
    table = ns("scale.floor.table.1000000") / ns("scale.floor.table.10000")
    # The new keys page faults at 1M (scale.pagefaults: the faults, and the kernel time in ms,
    # of the round). A 10k round lasts a few ms, under the kernel accounting tick, so its system
    # time means nothing and is not used.
    if (("swift", "scale.pagefaults.1000000") in ops) {
      faults = median(ops["swift", "scale.pagefaults.1000000"]) + 0
      kernel = median(ms["swift", "scale.pagefaults.1000000"]) * 1e6 / 1000000
    }
    printf "\ngrowth: Quarry, ns per operation at 10k and at 1M queries (issue 14: 2x or less)\n"
    printf "%-26s %12s %12s %9s   %s\n", "workload", "10k", "1M", "growth", "measured in the same runs"
    growth("setQueryData.new", (kernel > 0) ? \
      sprintf("at 1M the kernel took %.0f ns of it (page faults, %.1f us each)", kernel, faults > 0 ? 1e6 / faults : 0) : "")
    hit10 = ns("scale.getQueryData.hit.10000")
    growth("getQueryData.hit", \
      sprintf("one dependent miss more (%.0f ns): %.2fx; a bare Dictionary: %.2fx", miss, (hit10 + miss) / hit10, table))
    existing10 = ns("scale.setQueryData.existing.10000")
    growth("setQueryData.existing", \
      sprintf("one dependent miss more: %.2fx; a bare Dictionary: %.2fx", (existing10 + miss) / existing10, table))
    growth("clear", "")
  }' "$out"/swift.* "$out"/node.*
