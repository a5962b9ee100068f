import Quarry

/// Writes random, valid fixtures from the core query vocabulary for differential fuzzing
/// (`scenario-runner generate`): keys sharing prefixes, scripted functions mixing delays, throws
/// and signals, observers mounting and unmounting, `setOptions`, focus and online flips, client
/// operations with filters, and mutations. Fixture `n` of a seed is the same whatever the count.
public struct ScenarioGenerator: Sendable {
  /// The seed of the run.
  public var seed: UInt64

  /// Creates a generator for a seed.
  public init(seed: UInt64) { self.seed = seed }

  /// The ID of fixture `index` (1-based): `gen-NNN`.
  public static func id(_ index: Int) -> String {
    let digits = String(index)
    return "gen-" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
  }

  /// The text of fixture `index` (1-based), ending in a newline.
  public func fixture(_ index: Int) -> String {
    var random = SplitMix64(seed: seed &* 0x1000_0001 &+ UInt64(index))
    var builder = ScenarioBuilder(random: random)
    builder.build()
    random = builder.random
    var text = "{\n  \"format\": 1,\n  \"id\": \"\(Self.id(index))\",\n"
    text += "  \"title\": \"generated: seed \(seed), fixture \(index)\",\n"
    text += "  \"client\": \(builder.client.canonicalJSON),\n"
    text += "  \"functions\": \(JSONValue.object(builder.functions).canonicalJSON),\n"
    text += "  \"steps\": [\n"
    text += builder.steps.map { "    " + $0.canonicalJSON }.joined(separator: ",\n")
    text += "\n  ]\n}\n"
    return text
  }

  /// `gen.md`: the prose file citing every generated fixture, so the directory lints.
  public func citations(count: Int) -> String {
    var text = "# Generated scenarios (seed \(seed))\n\nWritten by `scenario-runner generate`; "
    text += "they check nothing but the trace.\n\n"
    text += (1...count).map { "[\(Self.id($0))]" }.joined(separator: " ") + "\n"
    return text
  }
}
