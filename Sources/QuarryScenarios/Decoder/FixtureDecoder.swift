import Quarry
import Foundation
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Decodes fixture files into `Scenario`s, strictly: anything the README does not allow is a
/// `FixtureError` naming the file, the JSON path and what was expected. It never traps.
///
/// ```swift
/// let scenario = try FixtureDecoder.decode(contentsOf: "Specs/dedup/dedup-001.json")
/// ```
public enum FixtureDecoder {
  /// Reads and decodes the fixture at `path` (the ID must equal the file name).
  public static func decode(contentsOf path: String) throws(FixtureError) -> Scenario {
    guard let bytes = readFile(path) else {
      throw FixtureError(file: path, path: JSONPath.root, expected: "a readable file")
    }
    return try decode(bytes: bytes, file: path)
  }

  /// The bytes of the file at `path`, or `nil` when it cannot be read. A regular file is read
  /// with `open` and `read` straight into the array (`FileManager.contents` and the copy out of
  /// its `Data` cost about 10,000 instructions a fixture); anything else is FileManager's answer.
  static func readFile(_ path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return FileManager.default.contents(atPath: path).map { [UInt8]($0) } }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else {
      return FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }
    let size = Int(status.st_size)
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      count = 0
      while count < size {
        let n = read(descriptor, buffer.baseAddress! + count, size - count)
        guard n > 0 else { break }
        count += n
      }
    }
    // A file that changed size while read: FileManager's answer.
    guard bytes.count == size else { return FileManager.default.contents(atPath: path).map { [UInt8]($0) } }
    return bytes
  }

  /// Decodes fixture text; `file` names it in messages and gives the expected ID (its name without `.json`).
  public static func decode(text: String, file: String) throws(FixtureError) -> Scenario {
    try decode(bytes: Array(text.utf8), file: file)
  }

  /// Decodes fixture text given as UTF-8 bytes.
  public static func decode(bytes: [UInt8], file: String) throws(FixtureError) -> Scenario {
    let value: JSONValue
    do {
      value = try JSONParser.parse(bytes: bytes)
    } catch {
      throw FixtureError(file: file, path: "\(error.line):\(error.column)", expected: "valid JSON: \(error.message)")
    }
    return try decode(value, file: file)
  }

  /// Decodes an already parsed fixture.
  public static func decode(_ value: JSONValue, file: String) throws(FixtureError) -> Scenario {
    var validator = FixtureValidator(file: file)
    return try validator.scenario(from: value)
  }

  /// The ID a fixture file must carry: its file name without the `.json` extension.
  public static func expectedID(forFile file: String) -> String {
    // The text after the last "/" (a byte that is never part of another character in UTF-8).
    let utf8 = file.utf8
    let start = utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
    var name = String(file[start...])
    if name.hasSuffix(".json") { name.removeLast(5) }
    return name
  }

  /// Whether `id` has the form `<area>-NNN`: lowercase letters, a hyphen, three digits.
  public static func isValidID(_ id: String) -> Bool {
    let scalars = Array(id.unicodeScalars)
    guard scalars.count >= 5, scalars[scalars.count - 4] == "-" else { return false }
    let area = scalars[..<(scalars.count - 4)]
    let digits = scalars[(scalars.count - 3)...]
    return area.allSatisfy { ("a"..."z").contains($0) } && digits.allSatisfy { ("0"..."9").contains($0) }
  }

  /// The area of an ID: the part before its final `-NNN`.
  public static func area(ofID id: String) -> String {
    guard let dash = id.lastIndex(of: "-") else { return id }
    return String(id[..<dash])
  }

  /// The longest title a fixture may have, in characters.
  public static let maximumTitleLength = 80
}
