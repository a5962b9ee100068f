import Quarry

/// The arguments of `scenario-runner generate --seed S --count N --out DIR`.
public struct GenerateOptions: Sendable, Equatable {
  /// The seed: the same seed writes the same fixtures.
  public var seed: UInt64
  /// How many fixtures to write.
  public var count: Int
  /// The output directory; fixtures go to `DIR/gen/gen-NNN.json`, citations to `DIR/gen.md`.
  public var output: String

  /// Creates generate options.
  public init(seed: UInt64, count: Int, output: String) {
    self.seed = seed
    self.count = count
    self.output = output
  }

  /// Parses the arguments after `generate`.
  public static func parse(_ arguments: ArraySlice<String>) throws(RunnerError) -> GenerateOptions {
    var rest = arguments
    var seed: UInt64?
    var count = 100
    var output: String?
    while let argument = rest.popFirst() {
      guard let value = rest.popFirst() else { throw RunnerError("\(argument) needs a value") }
      switch argument {
      case "--seed":
        guard let number = UInt64(value) else { throw RunnerError("--seed needs a whole number ≥ 0, found \(value)") }
        seed = number
      case "--count":
        guard let number = Int(value), (1...999).contains(number) else {
          throw RunnerError("--count needs a whole number from 1 to 999, found \(value)")
        }
        count = number
      case "--out": output = value
      default: throw RunnerError("unknown generate option \(argument)")
      }
    }
    guard let seed else { throw RunnerError("generate needs --seed S") }
    guard let output else { throw RunnerError("generate needs --out DIR") }
    return GenerateOptions(seed: seed, count: count, output: output)
  }
}
