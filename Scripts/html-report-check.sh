#!/usr/bin/env bash
# Checks the `--html` report in a real browser. Writes the report of the full specification and
# of the generated corpus, each with --compare, and of a scratch specification holding a trace
# that differs, a failed check, a malformed fixture and a title that tries to inject a script;
# loads every page in headless Chromium (Debian's `chromium`, installed if missing) with every
# scenario's timeline drawn (`#all`), and fails on any console message or uncaught exception of
# the page, when its script did not finish (`data-ready`), caught errors (`data-errors`), drew
# fewer timelines than it has scenarios (`data-rendered` against `data-scenarios`), or ran the
# injected script; and checks that the area and status filters (set from the query string) work.
# Usage: Scripts/html-report-check.sh            check the reports of Specs/ and Conformance/generated
#        Scripts/html-report-check.sh PAGE ...   check these pages instead
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$PATH:/opt/swift/usr/bin"

if ! command -v chromium >/dev/null 2>&1; then
  echo "== installing Debian's chromium"
  as_root=()
  if [[ $(id -u) -ne 0 ]]; then as_root=(sudo); fi
  "${as_root[@]}" apt-get update
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y chromium
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

pages=("$@")
if [[ ${#pages[@]} -eq 0 ]]; then
  swift build --product scenario-runner
  # A failing run still writes its page (the report shows the failures); check-parity.sh judges the run.
  echo "== report of Specs/"
  swift run --skip-build scenario-runner Specs/ --compare Conformance/tanstack/traces \
    --deviations Conformance/tanstack/deviations.json --html "$out/specs.html" > "$out/specs.txt" || true
  tail -n 1 "$out/specs.txt"
  pages+=("$out/specs.html")
  if [[ -d Conformance/generated/specs ]]; then
    echo "== report of Conformance/generated"
    swift run --skip-build scenario-runner Conformance/generated/specs --compare Conformance/generated/traces \
      --html "$out/generated.html" > "$out/generated.txt" || true
    tail -n 1 "$out/generated.txt"
    pages+=("$out/generated.html")
  fi
  # The suites above pass, so a third page exercises the rest: a trace that differs (one line of
  # TanStack's removed), a failed check, a malformed fixture, and a title that tries to run a script.
  echo "== report of a scratch specification with a difference, a failed check and an error"
  scratch="$out/scratch"
  mkdir -p "$scratch/specs/dedup" "$scratch/specs/broken" "$scratch/traces"
  cp Specs/dedup/dedup-00[1-3].json "$scratch/specs/dedup/"
  cp Conformance/tanstack/traces/dedup-00[1-3].jsonl "$scratch/traces/"
  cp "$scratch/traces/dedup-001.jsonl" "$scratch/traces/broken-001.jsonl"
  sed -i '3d' "$scratch/traces/dedup-001.jsonl"
  sed -e 's/"dedup-001"/"broken-001"/' -e 's/"todos": 1 }/"todos": 2 }/' \
    -e 's#"title": "[^"]*"#"title": "</script><script>document.body.dataset.injected = 1</script> \\"q\\" '"'"'s'"'"'"#' \
    Specs/dedup/dedup-001.json > "$scratch/specs/broken/broken-001.json"
  printf '{"format": 1, "id": "broken-002"}\n' > "$scratch/specs/broken/broken-002.json"
  swift run --skip-build scenario-runner "$scratch/specs" --compare "$scratch/traces" \
    --html "$out/scratch.html" > "$out/scratch.txt" || true
  tail -n 1 "$out/scratch.txt"
  for row in 'broken-001" data-area="broken" data-status="fail' 'broken-002" data-area="broken" data-status="error' \
    'dedup-001" data-area="dedup" data-status="differs' 'dedup-002" data-area="dedup" data-status="pass'; do
    grep -qF "<tr data-id=\"$row\">" "$out/scratch.html" || { echo "FAIL: no summary row $row"; exit 1; }
  done
  pages+=("$out/scratch.html")
  # The filters, set from the query string: two of the five rows are passing dedup scenarios.
  timeout 300 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --dump-dom "file://$(realpath "$out/scratch.html")?area=dedup&status=pass" > "$out/filtered.dom" 2> /dev/null || true
  if grep -qF '<span id="filter-count">2 of 5 shown</span>' "$out/filtered.dom"; then
    echo "  the area and status filters show 2 of 5 rows"
  else
    echo "FAIL: the area and status filters did not show the 2 passing dedup rows of 5"
    exit 1
  fi
fi

status=0
for page in "${pages[@]}"; do
  echo "== $page in headless $(chromium --version 2>/dev/null | head -n 1)"
  if [[ ! -s "$page" ]]; then
    echo "FAIL: no page at $page"
    status=1
    continue
  fi
  url="file://$(realpath "$page")#all"
  dom="$out/page.dom"
  log="$out/page.log"
  code=0
  timeout 300 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --enable-logging=stderr --v=1 --dump-dom "$url" > "$dom" 2> "$log" || code=$?
  if [[ $code -ne 0 ]]; then
    echo "FAIL: chromium exited with $code"
    tail -n 20 "$log"
    status=1
    continue
  fi
  # Every console message of the page (console.error, an uncaught exception, an unhandled
  # rejection) is a line `...:CONSOLE...] "message", source: file://...`; the page writes none.
  console=$(grep -E ':CONSOLE[:(]' "$log" | grep -F 'source: file://' || true)
  if [[ -n "$console" ]]; then
    echo "FAIL: the page wrote to the console:"
    printf '%s\n' "$console" | sed 's/^/  /'
    status=1
  fi
  body=$(grep -o '<body[^>]*>' "$dom" | head -n 1 || true)
  attribute() { printf '%s' "$body" | sed -n "s/.* $1=\"\\([^\"]*\\)\".*/\\1/p"; }
  scenarios=$(attribute data-scenarios)
  rendered=$(attribute data-rendered)
  errors=$(attribute data-errors)
  ready=$(attribute data-ready)
  echo "  body: scenarios=${scenarios:-?} rendered=${rendered:-?} errors=${errors:-?} ready=${ready:-?}"
  if [[ "$ready" != "1" ]]; then
    echo "FAIL: the page's script did not finish (no data-ready on <body>)"
    status=1
  fi
  if [[ "$errors" != "0" ]]; then
    echo "FAIL: the page caught ${errors:-unknown} errors (data-errors)"
    status=1
  fi
  if [[ -z "$scenarios" || "$scenarios" -eq 0 || "$rendered" != "$scenarios" ]]; then
    echo "FAIL: the script drew ${rendered:-no} timelines of ${scenarios:-unknown} scenarios"
    status=1
  fi
  if grep -q 'data-injected' "$dom"; then
    echo "FAIL: text from a fixture ran as a script"
    status=1
  fi
  svgs=$(grep -o '<div class="timeline">' "$dom" | wc -l || true)
  echo "  timeline elements in the DOM: $svgs"
done

if [[ $status -eq 0 ]]; then echo "html report: OK"; else echo "html report: FAILED"; fi
exit $status
