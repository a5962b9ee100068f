import Foundation
@testable import QuarryTestSupport
import Testing

/// The test processes' scratch folders: a folder of a process that ended is removed by the next
/// process; a running process's folder and other files are kept.
@Suite struct ScratchFolderTests {
  @Test func foldersOfEndedProcessesAreRemovedAndOthersKept() throws {
    let parent = ScratchFolder.make("sweep")
    let ended = try endedProcessID()
    let names = [
      "\(ScratchFolder.prefix)\(ended)-A",  // a process that ended
      "\(ScratchFolder.prefix)\(ProcessInfo.processInfo.processIdentifier)-B",  // this one
      "\(ScratchFolder.prefix)not-a-pid",  // not ours to judge
      "QuarryLiveTests-C",  // not a scratch folder
    ]
    for name in names {
      try FileManager.default.createDirectory(at: parent.appendingPathComponent(name), withIntermediateDirectories: true)
    }
    ScratchFolder.removeFoldersOfEndedProcesses(in: parent)
    let left = try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted()
    #expect(left == names.dropFirst().sorted())
  }

  @Test func eachFolderIsNewAndUnderThisProcesssRoot() {
    let a = ScratchFolder.make("a")
    let b = ScratchFolder.make("a")
    #expect(a != b)
    #expect(a.deletingLastPathComponent().path == ScratchFolder.root.path)
    #expect(ScratchFolder.root.lastPathComponent.hasPrefix("\(ScratchFolder.prefix)\(ProcessInfo.processInfo.processIdentifier)-"))
    #expect(FileManager.default.fileExists(atPath: a.path))
  }

  /// The id of a child process that has exited and been waited for.
  func endedProcessID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "exit 0"]
    try process.run()
    process.waitUntilExit()
    #expect(!ScratchFolder.isRunning(process.processIdentifier))
    return process.processIdentifier
  }
}
