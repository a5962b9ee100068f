import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls `onChange` (on its own queue) when a database's files change: the database, its `-wal`
/// and `-shm` files. inotify on the database's folder on Linux; dispatch file-system sources on
/// the database and its `-wal` file on Apple platforms.
final class FileWatcher: @unchecked Sendable {
  // Safe: `sources` is set in init and only cancelled after; DispatchSource is thread-safe.
  private var sources: [any DispatchSourceProtocol] = []
  private let queue = DispatchQueue(label: "QuarryLive.FileWatcher")

  init(databasePath: String, onChange: @escaping @Sendable () -> Void) throws {
    let url = URL(fileURLWithPath: databasePath)
    #if canImport(Glibc) || canImport(Musl)
    let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard fd >= 0 else { throw SQLiteError(code: errno, message: "inotify_init1 failed") }
    let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)
    guard inotify_add_watch(fd, url.deletingLastPathComponent().path, mask) >= 0 else {
      close(fd)
      throw SQLiteError(code: errno, message: "inotify_add_watch failed for \(url.deletingLastPathComponent().path)")
    }
    let prefix = Array(url.lastPathComponent.utf8)
    let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
    source.setEventHandler {
      if Self.drainEvents(fd, namePrefix: prefix) { onChange() }
    }
    source.setCancelHandler { close(fd) }
    source.resume()
    sources = [source]
    #elseif canImport(Darwin)
    for path in [databasePath, databasePath + "-wal"] {
      let fd = open(path, O_EVTONLY)
      guard fd >= 0 else { continue }
      let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: fd, eventMask: [.write, .extend], queue: queue)
      source.setEventHandler(handler: onChange)
      source.setCancelHandler { close(fd) }
      source.resume()
      sources.append(source)
    }
    #endif
  }

  /// Stops watching.
  func cancel() {
    for source in sources { source.cancel() }
  }

  #if canImport(Glibc) || canImport(Musl)
  /// Reads every pending inotify event; whether one names a file starting with `namePrefix`.
  private static func drainEvents(_ fd: Int32, namePrefix: [UInt8]) -> Bool {
    var matched = false
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      guard count > 0 else { return matched }
      // struct inotify_event { int wd; uint32_t mask; uint32_t cookie; uint32_t len; char name[len]; }
      var offset = 0
      while offset + 16 <= count {
        let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) }
        let name = buffer[(offset + 16)..<min(offset + 16 + length, count)]
        if name.starts(with: namePrefix) { matched = true }
        offset += 16 + length
      }
    }
  }
  #endif
}
