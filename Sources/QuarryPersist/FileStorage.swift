import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``PersistStorage`` of one file per key in a directory, written atomically: the value goes to
/// a temporary file in the same directory, which is `fsync`ed and then renamed over the old file
/// (and the directory is `fsync`ed), so after a crash or `SIGKILL` the file holds the old value
/// or the new one, never a mix.
///
/// Each file starts with a header: the magic bytes `QRYPERST`, the format version (1), the
/// payload's length and its CRC-32. A file that is damaged, truncated or of another format
/// version is removed and reported as ``PersistStorageError/corrupt(_:)``, never a crash.
/// One process should write a directory at a time; temporary files a crash left behind are
/// removed when a storage is created.
public final class FileStorage: PersistStorage, @unchecked Sendable {
  // Safe: `counter` is only touched while `lock` is held; the rest is constant.
  /// The directory.
  public let directory: URL
  /// The format version this storage writes and reads.
  public static let formatVersion: UInt32 = 1
  static let magic: [UInt8] = Array("QRYPERST".utf8)
  static let headerSize = 8 + 4 + 8 + 4
  private static let suffix = ".quarry"
  private static let temporaryMarker = ".tmp-"
  private let lock = NSLock()
  private var counter = 0

  /// Opens (and creates) the directory.
  public init(directory: URL) throws {
    self.directory = directory
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.contains(Self.temporaryMarker) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
      }
    } catch {
      throw PersistStorageError.io("cannot open \(directory.path): \(error)")
    }
  }

  /// The file that holds `key`.
  public func fileURL(for key: String) -> URL {
    directory.appendingPathComponent(Self.fileName(for: key))
  }

  static func fileName(for key: String) -> String {
    var name = ""
    for byte in key.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
        name.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        name += String(format: "%%%02X", byte)
      }
    }
    return name + suffix
  }

  static func key(forFileName name: String) -> String? {
    guard name.hasSuffix(suffix), !name.contains(temporaryMarker) else { return nil }
    var bytes: [UInt8] = []
    var chars = Array(name.dropLast(suffix.count).utf8)[...]
    while let c = chars.popFirst() {
      if c == UInt8(ascii: "%"), chars.count >= 2, let b = UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16) {
        bytes.append(b)
        chars = chars.dropFirst(2)
      } else {
        bytes.append(c)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The value under `key`; a damaged or old-format file is removed and reported.
  public func getItem(_ key: String) throws -> Data? {
    let url = fileURL(for: key)
    guard let contents = FileManager.default.contents(atPath: url.path) else { return nil }
    do {
      return try Self.decode(contents)
    } catch {
      try? FileManager.default.removeItem(at: url)
      throw PersistStorageError.corrupt("\(url.lastPathComponent): \(error)")
    }
  }

  /// Writes `value` atomically (temporary file, `fsync`, rename, `fsync` of the directory).
  public func setItem(_ key: String, _ value: Data) throws {
    let target = fileURL(for: key)
    let temporary = lock.withLock {
      counter += 1
      return directory.appendingPathComponent(".\(target.lastPathComponent)\(Self.temporaryMarker)\(getpid())-\(counter)")
    }
    let bytes = Self.encode(value)
    let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
    guard fd >= 0 else { throw PersistStorageError.io("cannot create \(temporary.path): errno \(errno)") }
    var written = 0
    let ok: Bool = bytes.withUnsafeBytes { buffer in
      while written < buffer.count {
        let n = write(fd, buffer.baseAddress! + written, buffer.count - written)
        if n <= 0 { return false }
        written += n
      }
      return fsync(fd) == 0
    }
    let writeErrno = errno
    close(fd)
    guard ok else {
      unlink(temporary.path)
      throw writeErrno == ENOSPC ? PersistStorageError.full("no space left writing \(target.path)") : PersistStorageError.io("cannot write \(temporary.path): errno \(writeErrno)")
    }
    guard rename(temporary.path, target.path) == 0 else {
      let e = errno
      unlink(temporary.path)
      throw PersistStorageError.io("cannot rename to \(target.path): errno \(e)")
    }
    syncDirectory()
  }

  private func syncDirectory() {
    let fd = open(directory.path, O_RDONLY)
    if fd >= 0 {
      _ = fsync(fd)
      close(fd)
    }
  }

  /// Removes the file of `key`.
  public func removeItem(_ key: String) throws {
    let path = fileURL(for: key).path
    if unlink(path) != 0 && errno != ENOENT {
      throw PersistStorageError.io("cannot remove \(path): errno \(errno)")
    }
    syncDirectory()
  }

  /// Every readable key and value; damaged files are removed and skipped.
  public func entries() throws -> [(key: String, value: Data)] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.sorted().compactMap { name in
      guard let key = Self.key(forFileName: name), let value = try? getItem(key) else { return nil }
      return (key, value)
    }
  }

  /// The file's bytes: header (magic, version, length, CRC-32) and payload.
  static func encode(_ payload: Data, version: UInt32 = formatVersion) -> Data {
    var out = Data(magic)
    append(&out, version)
    append(&out, UInt64(payload.count))
    append(&out, crc32(payload))
    out.append(payload)
    return out
  }

  static func decode(_ file: Data) throws -> Data {
    let bytes = [UInt8](file)
    guard bytes.count >= headerSize, Array(bytes[0..<8]) == magic else { throw FileFormatError.notAQuarryFile }
    let version = read(bytes, at: 8, as: UInt32.self)
    guard version == formatVersion else { throw FileFormatError.version(version) }
    let length = read(bytes, at: 12, as: UInt64.self)
    guard UInt64(bytes.count - headerSize) == length else { throw FileFormatError.truncated }
    let payload = Data(bytes[headerSize...])
    guard crc32(payload) == read(bytes, at: 20, as: UInt32.self) else { throw FileFormatError.checksum }
    return payload
  }

  private static func append<T: FixedWidthInteger>(_ data: inout Data, _ value: T) {
    withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
  }

  private static func read<T: FixedWidthInteger>(_ bytes: [UInt8], at offset: Int, as: T.Type) -> T {
    var value: T = 0
    for i in 0..<MemoryLayout<T>.size { value = value << 8 | T(bytes[offset + i]) }
    return value
  }

  private static let crcTable: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  /// CRC-32 (the zlib polynomial).
  static func crc32(_ data: Data) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in data { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }
}

/// Why a stored file cannot be read.
enum FileFormatError: Error, CustomStringConvertible {
  case notAQuarryFile, version(UInt32), truncated, checksum
  var description: String {
    switch self {
    case .notAQuarryFile: return "not a Quarry storage file"
    case .version(let v): return "format version \(v), this build reads \(FileStorage.formatVersion)"
    case .truncated: return "truncated"
    case .checksum: return "checksum mismatch"
    }
  }
}
