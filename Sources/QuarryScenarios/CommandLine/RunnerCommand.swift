import Quarry
/// A parsed `scenario-runner` command line.
public enum RunnerCommand: Sendable, Equatable {
  /// `scenario-runner [run] DIR [options]`.
  case run(RunnerOptions)
  /// `scenario-runner lint DIR`.
  case lint(directory: String)
  /// `scenario-runner generate --seed S --count N --out DIR`.
  case generate(GenerateOptions)
  /// `scenario-runner --help`.
  case help

  /// The usage text.
  public static let usage = """
    usage: scenario-runner [run] DIR [options]
           scenario-runner lint DIR
           scenario-runner generate --seed S [--count N] --out DIR

    run options:
      --compare DIR            compare each trace with DIR/<id>.jsonl (TanStack's golden traces)
      --deviations FILE        IDs whose trace may differ from the golden one (deviations.json)
      --expected-failures FILE known Swift failures (default: DIR/expected-failures.json)
      --repeat N               replay each scenario N times; traces must be identical
      --filter PATTERN         only IDs matching PATTERN (an ID or a glob with * and ?); repeatable
      --trace-dir DIR          write each trace to DIR/<id>.jsonl
      --json FILE              write the JSON report to FILE
      --html FILE              write a self-contained HTML timeline report to FILE
                               (with --compare: Swift and TanStack side by side)
      --jobs N                 replay N fixtures at once (default: the processor count;
                               1: one after another); the report's order is the same

    generate writes N (default 100, at most 999) random valid fixtures of seed S to
    DIR/gen/gen-NNN.json and DIR/gen.md (for differential fuzzing, Scripts/fuzz-parity.sh)
    """

  /// Parses the arguments after the program name.
  public static func parse(_ arguments: [String]) throws(RunnerError) -> RunnerCommand {
    var rest = arguments[...]
    if rest.contains(where: { $0 == "--help" || $0 == "-h" }) { return .help }
    if rest.first == "generate" { return .generate(try GenerateOptions.parse(rest.dropFirst())) }
    var subcommand = "run"
    if let first = rest.first, first == "run" || first == "lint" {
      subcommand = first
      rest = rest.dropFirst()
    }
    var directory: String?
    var options = RunnerOptions(directory: "")
    while let argument = rest.popFirst() {
      if argument.hasPrefix("--") {
        guard subcommand == "run" else { throw RunnerError("lint takes no options: \(argument)") }
        let (name, inlineValue) = split(argument)
        func value() throws(RunnerError) -> String {
          if let inlineValue { return inlineValue }
          guard let next = rest.popFirst() else { throw RunnerError("\(name) needs a value") }
          return next
        }
        switch name {
        case "--compare": options.compareDirectory = try value()
        case "--deviations": options.deviationsFile = try value()
        case "--expected-failures": options.expectedFailuresFile = try value()
        case "--repeat":
          let text = try value()
          guard let count = Int(text), count >= 1 else { throw RunnerError("--repeat needs a whole number ≥ 1, found \(text)") }
          options.repeatCount = count
        case "--filter": options.filters.append(try value())
        case "--trace-dir": options.traceDirectory = try value()
        case "--json": options.jsonReportFile = try value()
        case "--html": options.htmlReportFile = try value()
        case "--jobs":
          let text = try value()
          guard let jobs = Int(text), jobs >= 1 else { throw RunnerError("--jobs needs a whole number ≥ 1, found \(text)") }
          options.jobs = jobs
        default: throw RunnerError("unknown option \(name)")
        }
      } else if argument.hasPrefix("-") && argument != "-" {
        throw RunnerError("unknown option \(argument)")
      } else {
        guard directory == nil else { throw RunnerError("unexpected argument \(argument): only one DIR") }
        directory = argument
      }
    }
    guard let directory else { throw RunnerError("missing DIR (the specification directory, e.g. Specs/)") }
    if subcommand == "lint" { return .lint(directory: directory) }
    options.directory = directory
    return .run(options)
  }

  private static func split(_ argument: String) -> (String, String?) {
    guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }
}
