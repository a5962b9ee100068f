import Quarry
import Foundation

/// `scenario-runner lint`: fixtures decode, IDs are unique and match their files and areas, every
/// fixture is cited as `[id]` in `Specs/<area>.md`, every citation has a fixture, titles are short
/// and free of "should", and expected failures name real fixtures.
public enum Linter {
  /// What lint found.
  public struct Report: Sendable, Equatable {
    /// How many fixtures were checked.
    public var fixtures: Int
    /// One readable line per problem, sorted.
    public var problems: [String]

    /// Creates a report.
    public init(fixtures: Int, problems: [String]) {
      self.fixtures = fixtures
      self.problems = problems
    }

    /// `N fixtures, N problems`.
    public var closingLine: String {
      "\(fixtures) fixture\(fixtures == 1 ? "" : "s"), \(problems.count) problem\(problems.count == 1 ? "" : "s")"
    }

    /// 0 when there are no problems, otherwise 1.
    public var exitCode: Int32 { problems.isEmpty ? 0 : 1 }

    /// The problems then the closing line, with a trailing newline.
    public var text: String { (problems + [closingLine]).joined(separator: "\n") + "\n" }
  }

  /// Lints the specification directory.
  public static func lint(directory: String) throws(RunnerError) -> Report {
    let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    let fixtures = try FixtureFile.discover(in: base)
    var problems: [String] = []
    var byID: [String: [FixtureFile]] = [:]
    for fixture in fixtures {
      byID[fixture.id, default: []].append(fixture)
      do {
        let scenario = try FixtureDecoder.decode(contentsOf: fixture.path)
        if containsShould(scenario.title) {
          problems.append("\(fixture.path): title: no \"should\" in titles (say what happens)")
        }
      } catch {
        problems.append(error.description)
      }
      if FixtureDecoder.isValidID(fixture.id), FixtureDecoder.area(ofID: fixture.id) != fixture.area {
        problems.append("\(fixture.path): the ID's area \"\(FixtureDecoder.area(ofID: fixture.id))\" differs from its folder \"\(fixture.area)\"")
      }
    }
    for (id, files) in byID where files.count > 1 {
      problems.append("\(id): the ID is used by \(files.count) files: \(files.map(\.path).joined(separator: ", "))")
    }

    var citations: [String: Set<String>] = [:]
    let manager = FileManager.default
    let topLevel = (try? manager.contentsOfDirectory(atPath: base)) ?? []
    for name in topLevel where name.hasSuffix(".md") && name != "README.md" {
      let path = base + "/" + name
      guard let data = manager.contents(atPath: path) else { continue }
      let text = String(decoding: data, as: UTF8.self)
      for id in citedIDs(in: text) {
        citations[String(name.dropLast(3)), default: []].insert(id)
        if byID[id] == nil { problems.append("\(path): cites [\(id)], which has no fixture") }
      }
    }
    for fixture in fixtures where !(citations[fixture.area]?.contains(fixture.id) ?? false) {
      problems.append("\(fixture.path): not cited as [\(fixture.id)] in \(base)/\(fixture.area).md")
    }

    let expectedPath = base + "/expected-failures.json"
    if manager.fileExists(atPath: expectedPath) {
      do {
        let expected = try ExpectedFailures.load(expectedPath)
        for id in expected.reasons.keys where byID[id] == nil {
          problems.append("\(expectedPath): lists \(id), which has no fixture")
        }
      } catch {
        problems.append(error.description)
      }
    }
    return Report(fixtures: fixtures.count, problems: problems.sorted())
  }

  /// The IDs cited as `[area-NNN]` in a Markdown text, in order of appearance.
  public static func citedIDs(in text: String) -> [String] {
    var ids: [String] = []
    var rest = text[...]
    while let open = rest.firstIndex(of: "[") {
      let after = rest[rest.index(after: open)...]
      guard let close = after.firstIndex(where: { $0 == "]" || $0 == "[" || $0 == "\n" }) else { break }
      if after[close] == "]" {
        let candidate = String(after[..<close])
        if FixtureDecoder.isValidID(candidate) { ids.append(candidate) }
      }
      rest = after[close...]
      if after[close] == "]" { rest = after[after.index(after: close)...] }
    }
    return ids
  }

  /// Whether a title contains the word "should" (any case).
  public static func containsShould(_ title: String) -> Bool {
    title.lowercased().split(whereSeparator: { !$0.isLetter }).contains("should")
  }
}
