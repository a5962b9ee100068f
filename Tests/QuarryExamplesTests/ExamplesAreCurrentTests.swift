import Foundation
import Testing

/// Every README and doc-comment example is compiled by this target (Examples.generated.swift);
/// this test fails when that file no longer matches the documentation.
@Suite struct ExamplesAreCurrent {
  @Test func theGeneratedExamplesMatchTheDocumentation() throws {
    let examples = try ExampleExtractor.examples()
    #expect(examples.count >= 10, "expected the README and doc comments to hold examples")
    let expected = ExampleExtractor.render(examples)
    let url = ExampleExtractor.generatedFile
    if ProcessInfo.processInfo.environment["QUARRY_UPDATE_EXAMPLES"] == "1" {
      try expected.write(to: url, atomically: true, encoding: .utf8)
    }
    let actual = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    #expect(actual == expected, "Examples.generated.swift is stale: run bash Scripts/update-examples.sh")
  }

  @Test func fencesInDocCommentsAreFound() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-examples-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("A.swift")
    try """
      /// Text.
      ///
      /// ```swift
      /// let x = 1
      ///
      /// print(x)
      /// ```
      func a() {}
      // ```swift
      // not a doc comment
      // ```
      """.write(to: file, atomically: true, encoding: .utf8)
    let found = try ExampleExtractor.fenced(in: file, relative: "A.swift", prefix: "///")
    #expect(found == [.init(file: "A.swift", line: 3, code: ["let x = 1", "", "print(x)"], isAppleOnly: false)])
  }
}
