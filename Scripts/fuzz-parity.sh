#!/usr/bin/env bash
# Differential fuzzing: generates random fixtures (`scenario-runner generate`), checks the Swift
# engine alone (lint, no crash, no hang, byte-identical replays) and, when TANSTACK_QUERY_CORE
# names a query-core module, records TanStack's traces and compares; every difference gets a
# minimised fixture (steps, then option members, removed greedily while it still differs).
# Usage: Scripts/fuzz-parity.sh --seed S [--count N] [--seeds K] [--out DIR] [--timeout SEC] [--minimise M]
#   --seeds K runs seeds S..S+K-1 (N is at most 999 per seed: 2,000 fixtures are --seeds 4 --count 500);
#   --timeout is per scenario (default 20 s); --minimise M minimises the first M differences of
#   each kind (default 3); findings go to DIR (default: a new temp dir), one line each in
#   DIR/findings.txt, minimised fixtures in DIR/minimised/. Exits 1 when anything was found.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)

seed="" count=20 seeds=1 out="" limit=20 per_kind=3
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seed) seed="$2"; shift 2 ;;
    --count) count="$2"; shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --timeout) limit="$2"; shift 2 ;;
    --minimise) per_kind="$2"; shift 2 ;;
    *) echo "usage: Scripts/fuzz-parity.sh --seed S [--count N] [--seeds K] [--out DIR] [--timeout SEC] [--minimise M]" >&2; exit 2 ;;
  esac
done
[[ -n "$seed" ]] || { echo "fuzz-parity: --seed S is required" >&2; exit 2; }
if [[ "$count" -gt 999 ]]; then
  echo "fuzz-parity: --count is at most 999 per seed (fixture IDs have three digits); for $count fixtures use --seeds K --count N with K*N = $count (2000: --seeds 4 --count 500)" >&2
  exit 2
fi
[[ -n "$out" ]] || out=$(mktemp -d "${TMPDIR:-/tmp}/quarry-fuzz.XXXXXX")
mkdir -p "$out/minimised"
findings="$out/findings.txt"
: > "$findings"

swift build --product scenario-runner >&2
runner="$(swift build --show-bin-path)/scenario-runner"
harness="$root/Conformance/tanstack/run.mjs"
node_ok=""
if [[ -n "${TANSTACK_QUERY_CORE:-}" ]]; then node_ok=1; else echo "fuzz-parity: TANSTACK_QUERY_CORE unset: Swift-only checks" >&2; fi

# Status of every non-passing ID in a --json report, as "id status" lines.
not_passing() { python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["results"]:
    if r["status"] != "pass": print(r["id"], r["status"])' "$1"; }

finding() { echo "$*" | tee -a "$findings"; }

for ((s = seed; s < seed + seeds; s++)); do
  work="$out/seed-$s"
  rm -rf "$work"; mkdir -p "$work"
  "$runner" generate --seed "$s" --count "$count" --out "$work/specs" > /dev/null
  if ! "$runner" lint "$work/specs" > "$work/lint.txt"; then
    finding "seed $s: generated fixtures do not lint: $(head -3 "$work/lint.txt" | tr '\n' ' ')"
    continue
  fi

  # Swift alone: each scenario within the time limit, twice with identical traces.
  code=0
  timeout "$((limit * count))" "$runner" "$work/specs" --repeat 2 --json "$work/swift.json" > "$work/swift.txt" 2>&1 || code=$?
  if [[ $code -ge 124 || ! -f "$work/swift.json" ]]; then
    for f in "$work"/specs/gen/*.json; do
      id=$(basename "$f" .json) c=0
      timeout "$limit" "$runner" "$work/specs" --filter "$id" --repeat 2 > /dev/null 2>&1 || c=$?
      if [[ $c -eq 124 ]]; then finding "seed $s $id: Swift hangs (over ${limit}s)"; cp "$f" "$out/minimised/hang-$s-$id.json"
      elif [[ $c -gt 124 ]]; then finding "seed $s $id: Swift crashes (exit $c)"; cp "$f" "$out/minimised/crash-$s-$id.json"; fi
    done
  else
    while read -r id status; do
      finding "seed $s $id: Swift alone $status: $(grep -m1 "$id" "$work/swift.txt" | cut -c1-300)"
      cp "$work/specs/gen/$id.json" "$out/minimised/swift-$s-$id.json"
    done < <(not_passing "$work/swift.json")
  fi

  [[ -n "$node_ok" ]] || continue
  node "$harness" "$work/specs" --record "$work/tanstack" --json "$work/node.json" > "$work/node.txt" 2>&1 || true
  while read -r id status; do
    finding "seed $s $id: TanStack $status: $(grep -m1 "$id" "$work/node.txt" | cut -c1-300)"
  done < <(not_passing "$work/node.json")
  "$runner" "$work/specs" --compare "$work/tanstack" --json "$work/compare.json" > "$work/compare.txt" 2>&1 || true
  while read -r id status; do
    [[ -f "$work/tanstack/$id.jsonl" ]] || continue
    first=$(grep -A3 "^FAIL $id " "$work/compare.txt" | sed 1d | cut -c1-300 | tr -s ' \n' ' ')
    # The kind of difference: the first differing events' ev/type/action on each side. Only the
    # first $per_kind of a kind are minimised (minimising costs a replay per candidate).
    kind=$(grep -A3 "^FAIL $id " "$work/compare.txt" | python3 -c 'import json,sys
parts = []
for line in sys.stdin:
    line = line.strip()
    for side in ("tanstack:", "swift:"):
        if line.startswith(side):
            try: e = json.loads(line[len(side):])
            except Exception: e = {"ev": "?"}
            parts.append(side + "/".join(str(e.get(k, "")) for k in ("ev", "type", "action")))
print(" ".join(parts) or "other")')
    seen=$(grep -cF -- "[$kind]" "$findings" || true)
    if [[ $seen -lt $per_kind ]]; then
      minimised="$out/minimised/$s-$id.json"
      python3 "$root/Scripts/fuzz-minimise.py" "$runner" "$harness" "$work/specs/gen/$id.json" "$minimised" "$work/min-$id" \
        || cp "$work/specs/gen/$id.json" "$minimised"
    else
      minimised="$work/specs/gen/$id.json (not minimised: kind seen $seen times)"
    fi
    finding "seed $s $id: differs from TanStack [$kind]: $first; fixture: $minimised"
  done < <(not_passing "$work/compare.json")
done

echo "fuzz-parity: seeds $seed..$((seed + seeds - 1)), $count fixtures each; $(wc -l < "$findings") findings in $findings"
[[ ! -s "$findings" ]]
