// The scenario-runner command: replays or lints the specification (see Specs/README.md).
import Quarry
import Foundation
import QuarryScenarios

/// Writes a line to standard output, unbuffered so results appear as scenarios finish.
func emit(_ text: String) {
  FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// Writes a line to standard error.
func printError(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

let command: RunnerCommand
do {
  command = try RunnerCommand.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  printError("scenario-runner: \(error)")
  printError(RunnerCommand.usage)
  exit(1)
}

switch command {
case .help:
  emit(RunnerCommand.usage)
  exit(0)
case .generate(let options):
  do {
    let paths = try GenerateCommand.run(options)
    emit("wrote \(paths.count) fixtures to \(options.output)")
    exit(0)
  } catch {
    printError("scenario-runner: \(error)")
    exit(1)
  }
case .lint(let directory):
  do {
    let report = try Linter.lint(directory: directory)
    FileHandle.standardOutput.write(Data(report.text.utf8))
    exit(report.exitCode)
  } catch {
    printError("scenario-runner: \(error)")
    exit(1)
  }
case .run(let options):
  do {
    let report = try Runner(options: options).run { result in
      emit(result.lines.joined(separator: "\n"))
    }
    emit(report.closingLine)
    exit(report.exitCode)
  } catch {
    printError("scenario-runner: \(error)")
    exit(1)
  }
}
