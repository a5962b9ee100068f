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
  }' "$out"/swift.* "$out"/node.*
