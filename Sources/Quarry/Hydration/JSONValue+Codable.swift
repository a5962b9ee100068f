import Foundation

/// `JSONValue` reads and writes itself as plain JSON: `undefined` is written as `null` in an
/// array and left out of an object, as `JSON.stringify` does.
///
/// `Codable` recurses once per level (in `JSONEncoder` and `JSONDecoder` too), so a value is
/// read or written at most ``codableDepthLimit`` levels deep: a deeper one throws an
/// `EncodingError`/`DecodingError` saying so, instead of overflowing the stack. (`JSONDecoder`
/// itself refuses input nested deeper than 512 levels.) Snapshots, persisted queries and
/// persisted keys go through `Codable`, so the same limit applies to them.
extension JSONValue: Codable {
  /// How many arrays and objects deep `Codable` reads or writes a `JSONValue` (counting the
  /// containers around it in the document): 512, as `JSONDecoder` reads.
  public static let codableDepthLimit = 512

  /// Reads any JSON value.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    guard decoder.codingPath.count < Self.codableDepthLimit else {
      throw DecodingError.dataCorrupted(.init(
        codingPath: [], debugDescription: "JSON nested deeper than \(Self.codableDepthLimit) levels cannot be read as a JSONValue"))
    }
    if container.decodeNil() {
      self = .null
    } else if let b = try? container.decode(Bool.self) {
      self = .bool(b)
    } else if let n = try? container.decode(Double.self) {
      self = .number(n)
    } else if let s = try? container.decode(String.self) {
      self = .string(s)
    } else if let a = try? container.decode([JSONValue].self) {
      self = .array(a)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  /// Writes the value as JSON.
  public func encode(to encoder: any Encoder) throws {
    if case .array = self, encoder.codingPath.count >= Self.codableDepthLimit { throw tooDeep() }
    if case .object = self, encoder.codingPath.count >= Self.codableDepthLimit { throw tooDeep() }
    var container = encoder.singleValueContainer()
    switch self {
    case .null, .undefined: try container.encodeNil()
    case .bool(let b): try container.encode(b)
    case .number(let n): try container.encode(n)
    case .string(let s): try container.encode(s)
    case .array(let a): try container.encode(a)
    case .object(let o): try container.encode(o.filter { !$0.value.isUndefined })
    }
  }

  private func tooDeep() -> EncodingError {
    // Not `self` as the value: printing it would recurse as deeply.
    EncodingError.invalidValue(JSONValue.null, .init(
      codingPath: [], debugDescription: "a JSONValue nested deeper than \(Self.codableDepthLimit) levels cannot be written with Codable"))
  }
}

extension JSONValue {
  /// A cached value as JSON: a `JSONValue` as it is, `InfiniteData` as `{"pages", "pageParams"}`,
  /// any other `Encodable` through `JSONEncoder`. Throws ``HydrationError/notEncodable(type:)``.
  public init(encoding value: any Sendable) throws {
    let value = unboxed(value)
    if let json = value as? JSONValue {
      self = json
    } else if let infinite = value as? InfiniteData {
      self = .object([
        "pages": .array(try infinite.pages.map { try JSONValue(encoding: $0) }),
        "pageParams": .array(infinite.pageParams.map { $0 ?? .null }),
      ])
    } else if let encodable = value as? any Encodable {
      let data = try JSONEncoder().encode(EncodableBox(value: encodable))
      self = try JSONDecoder().decode(JSONValue.self, from: data)
    } else {
      throw HydrationError.notEncodable(type: String(describing: type(of: value)))
    }
  }

  /// An error as `JSON.stringify` writes it: its own JSON when `Encodable`, else `{}`.
  static func encoding(error: any Error) -> JSONValue {
    if let dehydrated = error as? DehydratedError { return dehydrated.json }
    if let encodable = error as? any Encodable, let json = try? JSONValue(encoding: EncodableBox(value: encodable)) {
      return json
    }
    return .object([:])
  }
}

/// Encodes an existential `Encodable` (which cannot be passed to `encode` directly).
private struct EncodableBox: Encodable, @unchecked Sendable {
  // Safe: created, encoded and dropped on one thread, inside one call.
  let value: any Encodable
  func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

/// `value` decoded into `T` when it is JSON (restored or hydrated data) and `T` is `Decodable`.
func decodedFromJSON<T>(_ value: any Sendable, as type: T.Type) -> T? {
  guard let json = value as? JSONValue, let decodable = T.self as? any Decodable.Type,
    let data = try? JSONEncoder().encode(json)
  else { return nil }
  return (try? JSONDecoder().decode(decodable, from: data)) as? T
}
