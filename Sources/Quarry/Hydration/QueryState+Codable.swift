/// A query's state reads and writes TanStack's JSON (`data` absent when undefined, errors as `{}`
/// unless `Encodable`); decoded data is `JSONValue`.
extension QueryState: Codable {
  /// Reads the state's JSON.
  public init(from decoder: any Decoder) throws {
    try self.init(json: JSONValue(from: decoder))
  }

  /// Writes the state's JSON; throws ``HydrationError/notEncodable(type:)`` for data that cannot be
  /// written.
  public func encode(to encoder: any Encoder) throws {
    try json().encode(to: encoder)
  }
}

/// A mutation's state reads and writes TanStack's JSON.
extension MutationState: Codable {
  /// Reads the state's JSON.
  public init(from decoder: any Decoder) throws {
    try self.init(json: JSONValue(from: decoder))
  }

  /// Writes the state's JSON.
  public func encode(to encoder: any Encoder) throws {
    try json().encode(to: encoder)
  }
}
