import Quarry
import Foundation
import Testing
@testable import QuarryScenarios

/// `Specs/scenario.schema.json` names exactly what the decoder accepts.
@Suite struct SchemaTests {
  static func load(_ name: String) throws -> JSONValue {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    let data = try Data(contentsOf: url.appendingPathComponent("Specs").appendingPathComponent(name))
    return try JSONParser.parse(bytes: [UInt8](data))
  }

  static func propertyNames(_ value: JSONValue?) -> [String] {
    (value?["properties"]?.objectValue?.keys).map { $0.sorted() } ?? []
  }

  @Test func schemaMatchesTheDecoderVocabulary() throws {
    let schema = try Self.load("scenario.schema.json")
    let defs = try #require(schema["$defs"])
    #expect(schema["$schema"] == "https://json-schema.org/draft/2020-12/schema")
    #expect(Self.propertyNames(schema) == FixtureVocabulary.topLevelMembers.sorted())
    #expect(Self.propertyNames(defs["queryOptions"]) == FixtureVocabulary.queryOptions.sorted())
    #expect(Self.propertyNames(defs["filters"]) == FixtureVocabulary.filterMembers.sorted())
    #expect(Self.propertyNames(defs["actionOptions"]) == FixtureVocabulary.actionOptions.sorted())
    #expect(Self.propertyNames(defs["outcome"]) == FixtureVocabulary.outcomeMembers.sorted())
    #expect(Self.propertyNames(defs["checks"]) == FixtureVocabulary.checks.sorted())
    #expect(Self.propertyNames(defs["queryCheck"]) == (["queryKey", "exists"] + FixtureVocabulary.queryStateFields).sorted())
    #expect(Self.propertyNames(defs["step"]) == (["at", "as"] + FixtureVocabulary.operations).sorted())
    let recipes = defs.objectValue?.keys.filter { $0.hasPrefix("recipe_") }.map { String($0.dropFirst(7)) }.sorted()
    #expect(recipes == FixtureVocabulary.recipeParameters.keys.sorted())
    for (name, parameters) in FixtureVocabulary.recipeParameters {
      #expect(Self.propertyNames(defs["recipe_" + name]) == (["$fn"] + parameters).sorted(), "\(name)")
    }
    let resultFields = defs["checks"]?["properties"]?["result"]?["additionalProperties"]
    #expect(Self.propertyNames(resultFields) == Set(FixtureVocabulary.resultFields + FixtureVocabulary.mutationResultFields).sorted())
    #expect(Self.propertyNames(defs["mutationOptions"]) == FixtureVocabulary.mutationOptions.sorted())
    #expect(Self.propertyNames(defs["mutationFilters"]) == FixtureVocabulary.mutationFilterMembers.sorted())
    #expect(Self.propertyNames(defs["mutationCheck"]) == (["mutationId", "exists"] + FixtureVocabulary.mutationStateFields).sorted())
    #expect(Self.propertyNames(defs["callback"]) == FixtureVocabulary.callbackMembers.sorted())
  }

  @Test func expectedFailuresFileIsWellFormed() throws {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    _ = try ExpectedFailures.load(url.appendingPathComponent("Specs/expected-failures.json").path)
  }
}
