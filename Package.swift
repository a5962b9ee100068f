// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Quarry",
  products: [
    .library(name: "Quarry", targets: ["Quarry"]),
    .library(name: "QuarryApp", targets: ["QuarryApp"]),
    .library(name: "QuarryScenarios", targets: ["QuarryScenarios"]),
    .executable(name: "scenario-runner", targets: ["scenario-runner"]),
  ],
  targets: [
    .target(name: "Quarry"),
    // The app layer: typed functions and keys, state enums, @Observable models.
    .target(name: "QuarryApp", dependencies: ["Quarry"]),
    .target(name: "QuarryScenarios", dependencies: ["Quarry"]),
    .executableTarget(name: "scenario-runner", dependencies: ["QuarryScenarios"]),
    .testTarget(name: "QuarryTests", dependencies: ["Quarry"]),
    .testTarget(name: "QuarryScenariosTests", dependencies: ["QuarryScenarios", "Quarry"]),
    .testTarget(name: "QuarryAppTests", dependencies: ["QuarryApp"]),
    // Compiles every README and doc-comment example (Examples.generated.swift).
    .testTarget(name: "QuarryExamplesTests", dependencies: ["Quarry", "QuarryScenarios"]),
  ],
  swiftLanguageModes: [.v6]
)
