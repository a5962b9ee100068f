import Quarry

/// A small deterministic random number generator (SplitMix64): the same seed gives the same
/// numbers on every platform, so `scenario-runner generate` writes the same fixtures for a seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator from a seed.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A whole number in `range` (platform-independent, unlike `Int.random(in:using:)`).
  public mutating func int(_ range: ClosedRange<Int>) -> Int {
    let width = UInt64(range.upperBound - range.lowerBound + 1)
    return range.lowerBound + Int(next() % width)
  }

  /// `true` with the given probability in percent.
  public mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

  /// One element of a non-empty array.
  public mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
}
