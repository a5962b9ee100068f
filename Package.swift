// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Quarry",
  // Apple platforms: `Task.immediate` (query functions start inside the fetch, as a JavaScript call
  // does) needs the Swift 6.2 runtime. Linux has no minimum.
  platforms: [.macOS("26.0"), .iOS("26.0"), .tvOS("26.0"), .watchOS("26.0"), .visionOS("26.0")],
  products: [
    .library(name: "Quarry", targets: ["Quarry"]),
    .library(name: "QuarryApp", targets: ["QuarryApp"]),
    .library(name: "QuarrySwiftUI", targets: ["QuarrySwiftUI"]),
    .library(name: "QuarryScenarios", targets: ["QuarryScenarios"]),
    .library(name: "QuarryLive", targets: ["QuarryLive"]),
    .library(name: "QuarryPersist", targets: ["QuarryPersist"]),
    .executable(name: "scenario-runner", targets: ["scenario-runner"]),
  ],
  targets: [
    .target(name: "Quarry"),
    // The app layer: typed functions and keys, state enums, @Observable models.
    .target(name: "QuarryApp", dependencies: ["Quarry"]),
    // SwiftUI over the app layer: @Query, @QueryObserving, @Mutation, @InfiniteQuery, @Queries,
    // @IsFetching, @IsMutating, .queryClient(_:), and .persistQueryClient(_:options:) over
    // QuarryPersist (the restore gate itself is QuarryApp's, so QuarryApp needs no persistence).
    // Apple platforms only: on Linux only its SwiftUI-free helpers compile (tested by
    // QuarrySwiftUITests); Scripts/typecheck-apple-stubs.sh type-checks the rest against
    // Scripts/AppleStubs.
    .target(name: "QuarrySwiftUI", dependencies: ["QuarryApp", "QuarryPersist"]),
    .target(name: "QuarryScenarios", dependencies: ["Quarry", "QuarryPersist"]),
    .executableTarget(name: "scenario-runner", dependencies: ["QuarryScenarios"]),
    // `swift run -c release quarry-bench`: the hot paths side by side with Conformance/tanstack/bench.mjs.
    .executableTarget(name: "quarry-bench", dependencies: ["Quarry", "QuarryApp", "QuarryScenarios", "QuarryLive"]),
    // The system SQLite (Apple SDKs ship it; Debian: libsqlite3-dev) for QuarryLive's SQLiteStore.
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    // Live queries over a local store: controller, diff, updates stream, in-memory and SQLite stores.
    .target(name: "QuarryLive", dependencies: ["Quarry", "CSQLite"]),
    // The cache across relaunches: persisters, file and SQLite storages.
    .target(name: "QuarryPersist", dependencies: ["Quarry", "CSQLite"]),
    // Writes snapshots in a loop for Scripts/crash-test.sh (killed with SIGKILL, then checked).
    .executableTarget(name: "quarry-crash-writer", dependencies: ["QuarryPersist", "Quarry"]),
    .testTarget(name: "QuarryTests", dependencies: ["Quarry", "QuarryScenarios"]),
    // Test helpers shared by test targets (folders for the files tests write, removed at exit).
    .target(name: "QuarryTestSupport", path: "Tests/QuarryTestSupport"),
    .testTarget(name: "QuarryPersistTests", dependencies: ["QuarryPersist", "Quarry", "QuarryTestSupport"]),
    .testTarget(name: "QuarryScenariosTests", dependencies: ["QuarryScenarios", "Quarry"]),
    .testTarget(name: "QuarryAppTests", dependencies: ["QuarryApp", "QuarryScenarios"]),
    // The platform-neutral parts of QuarrySwiftUI (model holder, cache activity counts).
    .testTarget(name: "QuarrySwiftUITests", dependencies: ["QuarrySwiftUI"]),
    .testTarget(name: "QuarryLiveTests", dependencies: ["QuarryLive", "Quarry", "QuarryScenarios", "QuarryTestSupport"]),
    // Compiles every README and doc-comment example (Examples.generated.swift).
    .testTarget(name: "QuarryExamplesTests", dependencies: ["Quarry", "QuarryApp", "QuarryScenarios", "QuarryLive", "QuarryPersist", "QuarrySwiftUI"]),
  ],
  swiftLanguageModes: [.v6]
)
