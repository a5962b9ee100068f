#!/usr/bin/env bash
# The persister's crash test (issue 13): for each backend (file, sqlite), COUNT times (default 100):
# start `quarry-crash-writer write`, which saves snapshots in a loop through StoragePersister and
# prints "committed N" after each complete write; kill it with SIGKILL at a random moment; then
# `quarry-crash-writer check` restores into a new client and requires a complete snapshot of
# generation N or N + 1 (old or new, never a mix) whose paused mutation resumes.
#   bash Scripts/crash-test.sh [COUNT]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
COUNT="${1:-100}"
swift build --product quarry-crash-writer >/dev/null
BIN="$(swift build --show-bin-path)/quarry-crash-writer"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
status=0
for backend in file sqlite; do
  passed=0
  newer=0
  partial=0
  store="$WORK/$backend-store"
  [ "$backend" = sqlite ] && store="$WORK/$backend-store.sqlite"
  for i in $(seq 1 "$COUNT"); do
    out="$WORK/out"
    "$BIN" write "$backend" "$store" > "$out" &
    pid=$!
    # Wait for a first complete write (up to 60 s: a loaded CI machine can be slow to start the
    # writer), then kill at a random moment (0-39 ms later).
    for _ in $(seq 1 6000); do grep -q committed "$out" 2>/dev/null && break; sleep 0.01; done
    sleep "0.0$(printf '%02d' $((RANDOM % 40)))"
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    committed="$( (grep committed "$out" || true) | tail -n 1 | awk '{print $2}')"
    # A kill in the middle of a file write leaves its temporary file (removed when the storage opens).
    if [ "$backend" = file ] && ls -A "$store" 2>/dev/null | grep -q '\.tmp-'; then partial=$((partial + 1)); fi
    if [ -z "$committed" ]; then
      echo "$backend run $i: the writer never committed" >&2
      continue
    fi
    if result="$("$BIN" check "$backend" "$store" "$committed" 2>&1)"; then
      passed=$((passed + 1))
      case "$result" in *"ok generation $((committed + 1)) "*) newer=$((newer + 1)) ;; esac
    else
      echo "$backend run $i: $result" >&2
    fi
  done
  detail="$newer killed after a write, before reporting it"
  [ "$backend" = file ] && detail="$detail; $partial in the middle of a write"
  echo "$backend: $passed/$COUNT kills restored a complete snapshot whose paused mutation resumed ($detail)"
  [ "$passed" -eq "$COUNT" ] || status=1
done
exit $status
