import Quarry
/// Replays a scenario against the Quarry engine on a virtual clock.
public enum Interpreter {
  /// Replays `scenario` and returns its trace and failed checks.
  public static func run(_ scenario: Scenario) -> ScenarioRun {
    ScenarioSession(scenario).run()
  }
}
