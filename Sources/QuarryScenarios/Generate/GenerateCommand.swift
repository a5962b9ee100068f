import Foundation
import Quarry

/// `scenario-runner generate`: writes the fixtures of a seed to `DIR/gen/` and `DIR/gen.md`.
public enum GenerateCommand {
  /// Writes `options.count` fixtures; returns the paths written.
  @discardableResult
  public static func run(_ options: GenerateOptions) throws(RunnerError) -> [String] {
    let generator = ScenarioGenerator(seed: options.seed)
    let base = options.output.hasSuffix("/") ? String(options.output.dropLast()) : options.output
    let folder = base + "/gen"
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      var written: [String] = []
      for index in 1...options.count {
        let path = folder + "/" + ScenarioGenerator.id(index) + ".json"
        try Data(generator.fixture(index).utf8).write(to: URL(fileURLWithPath: path))
        written.append(path)
      }
      try Data(generator.citations(count: options.count).utf8).write(to: URL(fileURLWithPath: base + "/gen.md"))
      return written
    } catch {
      throw RunnerError("cannot write to \(base): \(error)")
    }
  }
}
