#!/usr/bin/env bash
# Type-checks QuarryLive's Apple-only files (behind `#if canImport(SwiftData)` / `canImport(SwiftUI)`)
# on Linux, against stub modules with Apple's names (Scripts/AppleStubs). Catches Swift 6
# concurrency, generics and typing mistakes; the names themselves are checked on Apple platforms.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
swift build --target QuarryLive >/dev/null
modules="$(swift build --show-bin-path)/Modules"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for stub in SwiftData SwiftUI; do
  swiftc -emit-module -parse-as-library -swift-version 6 -module-name "$stub" \
    -o "$work/$stub.swiftmodule" "Scripts/AppleStubs/$stub.swift"
done
for file in Sources/QuarryLive/SwiftData/*.swift Sources/QuarryLive/SwiftUI/*.swift; do
  checked="$work/$(basename "$file")"
  { echo "@testable import QuarryLive"; cat "$file"; } > "$checked"
  swiftc -typecheck -swift-version 6 -I "$work" -I "$modules" -I Sources/CSQLite -module-name LiveAppleCheck "$checked"
  echo "typechecked $file"
done
