#!/usr/bin/env bash
# Parity gate: the specification lints, every fixture has a TanStack trace and every trace a
# fixture, and the Swift traces equal TanStack's byte for byte (except listed deviations).
# Usage: Scripts/check-parity.sh   (SCRATCH_PATH=dir uses `swift --scratch-path dir`)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

specs="Specs"
traces="Conformance/tanstack/traces"
deviations="Conformance/tanstack/deviations.json"
swift_flags=()
if [[ -n "${SCRATCH_PATH:-}" ]]; then swift_flags=(--scratch-path "$SCRATCH_PATH"); fi

status=0

echo "== build"
swift build "${swift_flags[@]}" --product scenario-runner

echo "== lint $specs"
swift run "${swift_flags[@]}" --skip-build scenario-runner lint "$specs" || status=1

echo "== fixtures and traces"
fixture_ids=$(find "$specs" -mindepth 2 -maxdepth 2 -name '*.json' -exec basename {} .json \; | LC_ALL=C sort)
if [[ -d "$traces" ]]; then
  trace_ids=$(find "$traces" -maxdepth 1 -name '*.jsonl' -exec basename {} .jsonl \; | LC_ALL=C sort)
else
  echo "missing directory $traces"
  trace_ids=""
  status=1
fi
missing=$(LC_ALL=C comm -23 <(printf '%s\n' $fixture_ids) <(printf '%s\n' $trace_ids) | sed '/^$/d')
orphans=$(LC_ALL=C comm -13 <(printf '%s\n' $fixture_ids) <(printf '%s\n' $trace_ids) | sed '/^$/d')
if [[ -n "$missing" ]]; then
  echo "fixtures without a TanStack trace in $traces (run: node Conformance/tanstack/run.mjs $specs):"
  printf '  %s\n' $missing
  status=1
fi
if [[ -n "$orphans" ]]; then
  echo "traces in $traces without a fixture:"
  printf '  %s\n' $orphans
  status=1
fi
[[ -z "$missing" && -z "$orphans" ]] && echo "every fixture has a trace and every trace a fixture"

echo "== compare with $traces"
run_flags=(--compare "$traces")
if [[ -f "$deviations" ]]; then run_flags+=(--deviations "$deviations"); fi
swift run "${swift_flags[@]}" --skip-build scenario-runner "$specs" "${run_flags[@]}" || status=1

# The generated corpus (Conformance/generated/README.md): fixtures and TanStack traces, no node.
generated="Conformance/generated"
if [[ -d "$generated/specs" ]]; then
  echo "== generated corpus $generated"
  swift run "${swift_flags[@]}" --skip-build scenario-runner lint "$generated/specs" || status=1
  gen_fixtures=$(find "$generated/specs" -mindepth 2 -maxdepth 2 -name '*.json' | wc -l)
  gen_traces=$(find "$generated/traces" -maxdepth 1 -name '*.jsonl' | wc -l)
  if [[ $gen_fixtures -ne $gen_traces ]]; then
    echo "$generated: $gen_fixtures fixtures but $gen_traces traces"
    status=1
  fi
  gen_code=0
  gen_out=$(swift run "${swift_flags[@]}" --skip-build scenario-runner "$generated/specs" --compare "$generated/traces" --repeat 2 2>&1) || gen_code=$?
  printf '%s\n' "$gen_out" | grep -v '^PASS ' || true
  [[ $gen_code -eq 0 ]] || status=1
fi

if [[ $status -eq 0 ]]; then echo "parity: OK"; else echo "parity: FAILED"; fi
exit $status
