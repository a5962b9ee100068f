import Quarry
/// Checking an object's members in name order, as far as messages can tell.
extension FixtureValidator {
  /// Runs `check` on each member as a walk in name order (`sortedNames`) would, without sorting
  /// when every member passes: the members are checked in the dictionary's order first, and only
  /// when one fails are they checked again in name order, so that the error thrown is the first
  /// name's, as before. `check` must only check: it changes nothing and its answer for a member
  /// does not depend on the members before it. (Sorting the names and looking each one up again
  /// cost about 1,000 instructions an object, for the errors of fixtures that have none.)
  func forEachMember(
    _ members: [String: JSONValue], _ check: (_ name: String, _ value: JSONValue) throws(FixtureError) -> Void
  ) throws(FixtureError) {
    do {
      for (name, value) in members { try check(name, value) }
    } catch {
      for name in FixtureValidator.sortedNames(members.keys) { try check(name, members[name]!) }
    }
  }
}
