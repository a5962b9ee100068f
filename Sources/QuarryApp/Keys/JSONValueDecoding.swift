import Foundation
import Quarry

/// Reads a ``JSONValue`` back as a `Decodable` value (the inverse of ``JSONValueEncoder``), for
/// page parameters that travel through the engine as JSON.
enum JSONValueDecoding {
  /// `value` decoded as `T`, or `nil` when it is absent, `null` or of another shape.
  static func decode<T: Decodable>(_ value: JSONValue?, as type: T.Type) -> T? {
    guard let value, value != .null, value != .undefined else { return nil }
    if let direct = value as? T { return direct }
    switch value {
    case .number(let n):
      if T.self == Int.self, let i = Int(exactly: n) { return i as? T }
      if T.self == Double.self { return n as? T }
    case .string(let s):
      if T.self == String.self { return s as? T }
    case .bool(let b):
      if T.self == Bool.self { return b as? T }
    default: break
    }
    guard let data = value.canonicalJSON.data(using: .utf8) else { return nil }
    return try? JSONDecoder().decode(T.self, from: data)
  }
}
