import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Folders for the files tests write (databases, persisted caches), all under one folder per test
/// process that is removed when the process exits, so test runs leave nothing behind in the
/// temporary directory. A process that crashed leaves its folder; the next process removes it.
public enum ScratchFolder {
  /// The name every process's folder starts with: `quarry-scratch-<pid>-<uuid>`.
  static let prefix = "quarry-scratch-"

  /// This process's folder, made on first use (with the removal at exit registered then).
  static let root: URL = {
    let temporary = FileManager.default.temporaryDirectory
    removeFoldersOfEndedProcesses(in: temporary)
    let pid = ProcessInfo.processInfo.processIdentifier
    let url = temporary.appendingPathComponent("\(prefix)\(pid)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: ScratchFolder.root) }
    return url
  }()

  /// A new, empty folder for one test, named after `name` (for a reader of a failure's paths).
  public static func make(_ name: String) -> URL {
    let url = root.appendingPathComponent("\(name)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Removes the folders of processes that no longer run (a crashed or killed test process,
  /// which ran no exit handler).
  static func removeFoldersOfEndedProcesses(in temporary: URL) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
    for name in names where name.hasPrefix(prefix) {
      guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), !isRunning(pid) else { continue }
      try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
    }
  }

  /// Whether a process with this id runs (`kill(pid, 0)` fails with `ESRCH` when none does).
  static func isRunning(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno != ESRCH
  }
}
