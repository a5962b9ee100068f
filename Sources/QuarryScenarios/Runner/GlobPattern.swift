import Quarry
/// A shell-style pattern over scenario IDs: `*` matches any run of characters, `?` any one.
public struct GlobPattern: Sendable, Equatable {
  /// The pattern text.
  public var pattern: String

  /// Creates a pattern; text without `*` or `?` matches only itself.
  public init(_ pattern: String) { self.pattern = pattern }

  /// Whether `text` matches the whole pattern.
  public func matches(_ text: String) -> Bool {
    let p = Array(pattern)
    let t = Array(text)
    var pi = 0
    var ti = 0
    var star: Int?
    var starText = 0
    while ti < t.count {
      if pi < p.count, p[pi] == "?" || (p[pi] != "*" && p[pi] == t[ti]) {
        pi += 1
        ti += 1
      } else if pi < p.count, p[pi] == "*" {
        star = pi
        starText = ti
        pi += 1
      } else if let s = star {
        pi = s + 1
        starText += 1
        ti = starText
      } else {
        return false
      }
    }
    while pi < p.count, p[pi] == "*" { pi += 1 }
    return pi == p.count
  }
}
