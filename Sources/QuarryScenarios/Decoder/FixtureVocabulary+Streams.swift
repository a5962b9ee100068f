import Quarry
/// The names of scripted streams (`streams` in a fixture, `Specs/README.md`).
extension FixtureVocabulary {
  /// The members of one stream.
  public static let streamMembers = ["refetchMode", "reducer", "initialValue", "outcomes"]
  /// The members of one stream outcome.
  public static let streamOutcomeMembers = ["chunks", "readSignal", "times"]
  /// The members of one chunk.
  public static let chunkMembers = ["after", "value", "throw"]
  /// `streamedQuery`'s refetch modes.
  public static let refetchModes = ["reset", "append", "replace"]
  /// The reducer recipes: `sum` and `concat` are JavaScript's `acc + chunk` on numbers and
  /// strings, `latest` is `(acc, chunk) => chunk`.
  public static let streamReducers = ["sum", "concat", "latest"]
}
