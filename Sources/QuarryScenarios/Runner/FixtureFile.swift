import Quarry
import Foundation

/// A fixture found on disk: `<directory>/<area>/<id>.json`.
public struct FixtureFile: Sendable, Equatable, CustomStringConvertible {
  /// The ID the file name gives (the name without `.json`).
  public var id: String
  /// The area folder it lives in.
  public var area: String
  /// The file's path.
  public var path: String

  /// Creates a fixture file reference.
  public init(id: String, area: String, path: String) {
    self.id = id
    self.area = area
    self.path = path
  }

  /// The path.
  public var description: String { path }

  /// Every `<area>/<id>.json` under `directory`, sorted by ID (then path); top-level files are ignored.
  public static func discover(in directory: String) throws(RunnerError) -> [FixtureFile] {
    let manager = FileManager.default
    var isDirectory: ObjCBool = false
    guard manager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw RunnerError("not a directory: \(directory)")
    }
    let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    guard let areas = try? manager.contentsOfDirectory(atPath: base) else {
      throw RunnerError("cannot read directory: \(directory)")
    }
    var files: [FixtureFile] = []
    for area in areas where !area.hasPrefix(".") {
      let areaPath = base + "/" + area
      guard manager.fileExists(atPath: areaPath, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
      guard let names = try? manager.contentsOfDirectory(atPath: areaPath) else {
        throw RunnerError("cannot read directory: \(areaPath)")
      }
      for name in names where name.hasSuffix(".json") && !name.hasPrefix(".") {
        files.append(FixtureFile(id: String(name.dropLast(5)), area: area, path: areaPath + "/" + name))
      }
    }
    return files.sorted { ($0.id, $0.path) < ($1.id, $1.path) }
  }
}
