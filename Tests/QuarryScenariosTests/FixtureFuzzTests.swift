import Quarry
import Testing
@testable import QuarryScenarios

// `SplitMix64` (QuarryScenarios' generator PRNG) makes fuzz failures reproduce.

/// Mutations of valid fixtures: the decoder must return a scenario or a fixture error, never trap.
@Suite struct FixtureFuzzTests {
  static let replacements: [JSONValue] = [
    .null, true, false, 0, -1, 1.5, 1e300, "", "forever", "Infinity", "$skipToken", "todos", [], [:],
    ["$fn": "const", "value": 1], ["$undefined": true], ["$fn": "nope"], [1, "a"], ["queryKey": ["todos"]],
  ]

  /// Every path into a value: a list of object keys and array indices.
  enum Step: Hashable { case key(String), index(Int) }

  static func paths(_ value: JSONValue, prefix: [Step] = []) -> [[Step]] {
    var result = [prefix]
    switch value {
    case .object(let members):
      for key in members.keys.sorted() { result += paths(members[key]!, prefix: prefix + [.key(key)]) }
    case .array(let items):
      for (index, item) in items.enumerated() { result += paths(item, prefix: prefix + [.index(index)]) }
    default: break
    }
    return result
  }

  /// Applies `change` at `path` (`nil` removes the member or element).
  static func modify(_ value: JSONValue, at path: ArraySlice<Step>, _ change: (JSONValue) -> JSONValue?) -> JSONValue? {
    guard let first = path.first else { return change(value) }
    switch (first, value) {
    case (.key(let key), .object(var members)):
      guard let member = members[key] else { return value }
      members[key] = modify(member, at: path.dropFirst(), change)
      return .object(members)
    case (.index(let index), .array(var items)):
      guard index < items.count else { return value }
      if let replaced = modify(items[index], at: path.dropFirst(), change) {
        items[index] = replaced
      } else {
        items.remove(at: index)
      }
      return .array(items)
    default:
      return value
    }
  }

  /// One random mutation of a fixture's text.
  static func mutate(_ text: String, _ value: JSONValue, using random: inout SplitMix64) -> String {
    let allPaths = paths(value)
    let path = allPaths[Int(random.next() % UInt64(allPaths.count))]
    switch random.next() % 6 {
    case 0:  // delete a member or element
      return (modify(value, at: path[...]) { _ in nil } ?? .null).canonicalJSON
    case 1, 2:  // swap a value's type
      let replacement = replacements[Int(random.next() % UInt64(replacements.count))]
      return (modify(value, at: path[...]) { _ in replacement } ?? .null).canonicalJSON
    case 3:  // truncate the text
      let bytes = Array(text.utf8)
      return String(decoding: bytes.prefix(Int(random.next() % UInt64(bytes.count))), as: UTF8.self)
    case 4:  // add an unknown member
      return (modify(value, at: path[...]) { old in
        guard case .object(var members) = old else { return old }
        members["zz\(random.next() % 10)"] = 1
        return .object(members)
      } ?? .null).canonicalJSON
    default:  // flip one byte
      var bytes = Array(text.utf8)
      let index = Int(random.next() % UInt64(bytes.count))
      bytes[index] = UInt8(truncatingIfNeeded: random.next())
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  @Test func decoderNeverTrapsOnMutations() throws {
    var random = SplitMix64(seed: 20_240_501)
    var decoded = 0
    var rejected = 0
    for (file, text) in SampleFixtures.all {
      let original = try JSONParser.parse(text)
      for _ in 0..<2_000 {
        var mutated = Self.mutate(text, original, using: &random)
        if random.next() % 4 == 0, let again = try? JSONParser.parse(mutated) {
          mutated = Self.mutate(mutated, again, using: &random)
        }
        do {
          let scenario = try FixtureDecoder.decode(text: mutated, file: file)
          #expect(scenario.file == file)
          decoded += 1
        } catch {
          #expect(error.file == file)
          #expect(!error.path.isEmpty && !error.expected.isEmpty)
          rejected += 1
        }
      }
    }
    #expect(decoded + rejected == 4_000)
    #expect(rejected > 1_000)
    #expect(decoded > 10)
  }

  @Test func hostileTextsAreRejectedNotTrapped() {
    let texts = [
      "", " ", "\u{0}", "{", "}", "[[[[", String(repeating: "{\"a\":", count: 5_000), "\"\\ud800\"",
      "{\"format\":1e400}", "{\"format\":-0}", "{\"format\":1,\"id\":\"a-001\",\"title\":\"\u{301}\"}",
      "{\"format\":1,\"id\":\"dedup-001\",\"title\":\"t\",\"steps\":[{\"at\":1e300,\"clear\":{}}]}",
      "{\"format\":1,\"id\":\"dedup-001\",\"title\":\"t\",\"steps\":[{\"at\":9007199254740993,\"clear\":{}}]}",
    ]
    for text in texts {
      #expect(throws: FixtureError.self) { try FixtureDecoder.decode(text: text, file: "dedup-001.json") }
    }
  }
}
