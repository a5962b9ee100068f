#!/usr/bin/env bash
# Regenerates Tests/QuarryExamplesTests/Examples.generated.swift from README.md and the doc
# comments under Sources/. The file is emptied first, so a stale one that no longer compiles
# cannot stop the regeneration.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "// Emptied by Scripts/update-examples.sh; regenerating." > Tests/QuarryExamplesTests/Examples.generated.swift
QUARRY_UPDATE_EXAMPLES=1 swift test --filter ExamplesAreCurrent
