#!/usr/bin/env bash
# Type-checks the Apple-only code (behind `#if canImport(SwiftData)` / `canImport(SwiftUI)`) on
# Linux, against stub modules with Apple's names (Scripts/AppleStubs): QuarryLive's SwiftData and
# SwiftUI files, the QuarrySwiftUI module, its doc-comment views (```swift apple fences) and the
# SwiftUI example sources (Examples/SwiftUI). Catches Swift 6 concurrency, generics and typing
# mistakes; the names themselves are checked on Apple platforms.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
swift build --target QuarryLive >/dev/null
swift build --target QuarryApp >/dev/null
swift build --target QuarryPersist >/dev/null
modules="$(swift build --show-bin-path)/Modules"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for stub in SwiftData SwiftUI Network; do
  swiftc -emit-module -parse-as-library -swift-version 6 -module-name "$stub" \
    -o "$work/$stub.swiftmodule" "Scripts/AppleStubs/$stub.swift"
done
for file in Sources/QuarryLive/SwiftData/*.swift Sources/QuarryLive/SwiftUI/*.swift; do
  checked="$work/$(basename "$file")"
  { echo "@testable import QuarryLive"; cat "$file"; } > "$checked"
  swiftc -typecheck -swift-version 6 -I "$work" -I "$modules" -I Sources/CSQLite -module-name LiveAppleCheck "$checked"
  echo "typechecked $file"
done

# QuarrySwiftUI as a module: with the stubs on the search path `canImport(SwiftUI)` holds, so
# its sources are compiled (on Linux `swift build` compiles them to nothing).
swiftc -emit-module -parse-as-library -swift-version 6 -warnings-as-errors -module-name QuarrySwiftUI \
  -I "$work" -I "$modules" -I Sources/CSQLite -o "$work/QuarrySwiftUI.swiftmodule" Sources/QuarrySwiftUI/*.swift
echo "typechecked Sources/QuarrySwiftUI ($(ls Sources/QuarrySwiftUI/*.swift | wc -l) files)"

# Each ```swift apple fence (QuarrySwiftUI's doc comments, README.md) is a complete view: one
# file each.
mkdir "$work/docs"
for file in Sources/QuarrySwiftUI/*.swift README.md; do
  awk -v out="$work/docs/$(basename "$file" .swift | sed 's/\.md$//')" '
    { line = $0; sub(/^[ \t]*\/\/\/ ?/, "", line) }
    /^[ \t]*(\/\/\/ *)?```swift apple *$/ { n++; name = out "-" n ".swift"; print "import SwiftUI\nimport QuarrySwiftUI\nimport QuarryPersist" > name; inside = 1; next }
    inside && /^[ \t]*(\/\/\/ *)?``` *$/ { inside = 0; close(name); next }
    inside { print line > name }
  ' "$file"
done
for example in "$work"/docs/*.swift; do
  swiftc -typecheck -parse-as-library -swift-version 6 -warnings-as-errors -I "$work" -I "$modules" -I Sources/CSQLite -module-name DocExample "$example"
  # Also as Tests/QuarryExamplesTests/Examples.generated.swift holds it on Apple platforms: inside
  # a main-actor function, under that file's imports.
  wrapped="${example%.swift}-generated.swift"
  { printf 'import Foundation\nimport QuarrySwiftUI\nimport SwiftUI\nimport QuarryLive\nimport QuarryPersist\n'
    echo "@MainActor @Sendable func example() async throws {"
    grep -v '^import ' "$example"
    echo "}"; } > "$wrapped"
  swiftc -typecheck -swift-version 6 -warnings-as-errors -I "$work" -I "$modules" -I Sources/CSQLite -module-name DocExample "$wrapped"
  echo "typechecked doc example $(basename "$example") (alone and as generated)"
done

# The SwiftUI example sources (SwiftQuery's README views), together as one module.
swiftc -typecheck -parse-as-library -swift-version 6 -warnings-as-errors -I "$work" -I "$modules" -I Sources/CSQLite -module-name SwiftUIExamples Examples/SwiftUI/*.swift
echo "typechecked Examples/SwiftUI ($(ls Examples/SwiftUI/*.swift | wc -l) files)"
