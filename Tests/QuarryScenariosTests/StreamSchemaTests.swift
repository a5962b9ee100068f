import Quarry
import Testing
@testable import QuarryScenarios

/// `Specs/scenario.schema.json` names exactly the stream vocabulary the decoder accepts.
@Suite struct StreamSchemaTests {
  @Test func schemaMatchesTheStreamVocabulary() throws {
    let schema = try SchemaTests.load("scenario.schema.json")
    let defs = try #require(schema["$defs"])
    #expect(SchemaTests.propertyNames(defs["stream"]) == FixtureVocabulary.streamMembers.sorted())
    #expect(SchemaTests.propertyNames(defs["streamOutcome"]) == FixtureVocabulary.streamOutcomeMembers.sorted())
    #expect(SchemaTests.propertyNames(defs["chunk"]) == FixtureVocabulary.chunkMembers.sorted())
    let modes = defs["stream"]?["properties"]?["refetchMode"]?["enum"]
    #expect(modes == .array(FixtureVocabulary.refetchModes.map { .string($0) }))
    let reducers = defs["stream"]?["properties"]?["reducer"]?["properties"]?["$fn"]?["enum"]
    #expect(reducers == .array(FixtureVocabulary.streamReducers.map { .string($0) }))
  }
}
