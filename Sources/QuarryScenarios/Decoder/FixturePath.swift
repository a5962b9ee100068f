import Quarry
/// Where a checked value stands in a fixture: the steps from a text (`$`, `steps[3]`) down to it,
/// written as `JSONPath` text (`steps[3].fetchQuery.queryKey`) only when a message reads it. The
/// validator makes a path for every member and element it checks and only an error reads one;
/// writing each one's text as it was made cost about 1,000 instructions a step (specs20).
struct FixturePath: Sendable, ExpressibleByStringLiteral {
  /// One step, holding the steps before it.
  private indirect enum Step: Sendable {
    case text(String)
    case member(Step, String)
    case element(Step, Int)
  }

  private let last: Step

  private init(_ last: Step) { self.last = last }

  /// A path given as its text.
  init(_ text: String) { last = .text(text) }

  init(stringLiteral text: String) { last = .text(text) }

  /// The whole fixture.
  static let root = FixturePath(JSONPath.root)

  /// Member `key` of the value at this path.
  func member(_ key: String) -> FixturePath { FixturePath(.member(last, key)) }

  /// Element `index` of the array at this path.
  func element(_ index: Int) -> FixturePath { FixturePath(.element(last, index)) }

  /// The path's text: its first text, then each step as `JSONPath.member` and `.element` write it.
  var text: String {
    var steps: [Step] = []
    var step = last
    var text: String
    while true {
      switch step {
      case .text(let start):
        text = start
      case .member(let before, _), .element(let before, _):
        steps.append(step)
        step = before
        continue
      }
      break
    }
    for step in steps.reversed() {
      switch step {
      case .member(_, let key): text = JSONPath.member(text, key)
      case .element(_, let index): text = JSONPath.element(text, index)
      case .text: break
      }
    }
    return text
  }
}
