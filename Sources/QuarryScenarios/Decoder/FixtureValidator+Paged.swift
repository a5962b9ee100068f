import Quarry
/// The arguments of queries-observer operations.
extension FixtureValidator {
  /// The combine recipes of a queries observer's `options.combine`.
  static let combineRecipes = ["pluckAll", "const", "length", "countCalls"]

  /// Checks `queries` (an array of query options) or a queries observer's `options`.
  func checkPagedArgument(_ value: JSONValue, _ kind: OperationSpec.Argument.Kind, _ path: FixturePath) throws(FixtureError) {
    if case .queryOptionsList = kind {
      guard case .array(let items) = value else { throw fail(path, "expected an array of query options, found \(found(value))") }
      for (index, item) in items.enumerated() {
        try checkQueryOptions(item, path.element(index), requireKey: true)
      }
      return
    }
    let options = try object(value, path, "an object of queries-observer options")
    try onlyMembers(options, ["combine"], path, "queries-observer option")
    if let combine = options["combine"] {
      try check(combine, .oneOf([.recipes(FixtureValidator.combineRecipes), .undefined]), path.member("combine"))
    }
  }
}
