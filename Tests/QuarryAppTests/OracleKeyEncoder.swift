import QuarryApp

// The key encoding as it was before the eleventh pass (typed12), kept verbatim (names prefixed
// `Oracle`) as the reference the faster path is checked against: `JSONValueEncoder` with a
// `Node` per value and the runtime's casts for leaves, and the type identifier written by
// `String(reflecting:)` on every call. Do not change it.

/// The former `JSONValueEncoder.encode`.
enum OracleJSONValueEncoder {
  static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
    let encoder = OracleTreeEncoder(codingPath: [])
    try value.encode(to: encoder)
    return encoder.storage.value
  }
}

/// The former `variablesKeyParts`.
func oracleVariablesKeyParts<V: Encodable>(_ variables: V) -> [JSONValue] {
  if V.self == QueryVoid.self { return [] }
  do {
    return [try OracleJSONValueEncoder.encode(variables)]
  } catch {
    return [.string(String(reflecting: variables))]
  }
}

/// The former `QueryCacheKey<F>.queryKey`.
func oracleQueryKey<F: QueryFunc>(_ type: F.Type, _ variables: F.Variables) -> QueryKey {
  QueryKey([.string(String(reflecting: F.self))] + oracleVariablesKeyParts(variables))
}

/// The former `InfiniteQueryCacheKey<F>.queryKey`.
func oracleInfiniteQueryKey<F: InfiniteQueryFunc>(_ type: F.Type, _ variables: F.Variables) -> QueryKey {
  QueryKey([.string(String(reflecting: F.self))] + ["infinite"] + oracleVariablesKeyParts(variables))
}

/// A node of the value being built; containers write into it by reference.
private final class OracleNode {
  enum Kind {
    case unset
    case single(JSONValue)
    case array([OracleNode])
    case object([String: OracleNode])
  }
  var kind: Kind = .unset

  var value: JSONValue {
    switch kind {
    case .unset: return .object([:])
    case .single(let v): return v
    case .array(let nodes): return .array(nodes.map(\.value))
    case .object(let members): return .object(members.mapValues(\.value))
    }
  }
}

private struct OracleTreeEncoder: Encoder {
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  let storage: OracleNode

  init(codingPath: [any CodingKey], storage: OracleNode = OracleNode()) {
    self.codingPath = codingPath
    self.storage = storage
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = storage.kind {} else { storage.kind = .object([:]) }
    return KeyedEncodingContainer(OracleKeyedContainer<Key>(node: storage, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = storage.kind {} else { storage.kind = .array([]) }
    return OracleUnkeyedContainer(node: storage, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    OracleSingleContainer(node: storage, codingPath: codingPath)
  }
}

/// Encodes a leaf or a nested value into `node`.
private func oracleEncodeValue<T: Encodable>(_ value: T, into node: OracleNode, codingPath: [any CodingKey]) throws {
  switch value {
  case let v as String: node.kind = .single(.string(v))
  case let v as Bool: node.kind = .single(.bool(v))
  case let v as Double: node.kind = .single(try oracleNumber(v, codingPath))
  case let v as Float: node.kind = .single(try oracleNumber(Double(v), codingPath))
  case let v as Int: node.kind = .single(.number(Double(v)))
  case let v as JSONValue: node.kind = .single(v)
  default: try value.encode(to: OracleTreeEncoder(codingPath: codingPath, storage: node))
  }
}

private func oracleNumber(_ value: Double, _ codingPath: [any CodingKey]) throws -> JSONValue {
  value.isFinite ? .number(value) : .null
}

private struct OracleIndexKey: CodingKey {
  var stringValue: String { "\(intValue!)" }
  var intValue: Int?
  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.intValue = intValue }
}

private struct OracleKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: OracleNode
  let codingPath: [any CodingKey]

  private func child(_ key: Key) -> OracleNode {
    let child = OracleNode()
    if case .object(var members) = node.kind {
      members[key.stringValue] = child
      node.kind = .object(members)
    }
    return child
  }

  mutating func encodeNil(forKey key: Key) throws { child(key).kind = .single(.null) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try oracleEncodeValue(value, into: child(key), codingPath: codingPath + [key])
  }
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
    OracleTreeEncoder(codingPath: codingPath + [key], storage: child(key)).container(keyedBy: keyType)
  }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    OracleTreeEncoder(codingPath: codingPath + [key], storage: child(key)).unkeyedContainer()
  }
  mutating func superEncoder() -> any Encoder { OracleTreeEncoder(codingPath: codingPath, storage: node) }
  mutating func superEncoder(forKey key: Key) -> any Encoder { OracleTreeEncoder(codingPath: codingPath + [key], storage: child(key)) }
}

private struct OracleUnkeyedContainer: UnkeyedEncodingContainer {
  let node: OracleNode
  let codingPath: [any CodingKey]
  var count: Int {
    if case .array(let nodes) = node.kind { return nodes.count }
    return 0
  }

  private func next() -> OracleNode {
    let child = OracleNode()
    if case .array(var nodes) = node.kind {
      nodes.append(child)
      node.kind = .array(nodes)
    }
    return child
  }

  mutating func encodeNil() throws { next().kind = .single(.null) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    let index = count
    try oracleEncodeValue(value, into: next(), codingPath: codingPath + [OracleIndexKey(index)])
  }
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    OracleTreeEncoder(codingPath: codingPath, storage: next()).container(keyedBy: keyType)
  }
  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    OracleTreeEncoder(codingPath: codingPath, storage: next()).unkeyedContainer()
  }
  mutating func superEncoder() -> any Encoder { OracleTreeEncoder(codingPath: codingPath, storage: next()) }
}

private struct OracleSingleContainer: SingleValueEncodingContainer {
  let node: OracleNode
  let codingPath: [any CodingKey]
  mutating func encodeNil() throws { node.kind = .single(.null) }
  mutating func encode<T: Encodable>(_ value: T) throws { try oracleEncodeValue(value, into: node, codingPath: codingPath) }
}
