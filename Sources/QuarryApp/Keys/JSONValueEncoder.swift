import Quarry

/// Encodes an `Encodable` value as a ``JSONValue``: how typed variables become part of a
/// query key. Deterministic (object member order never matters in a key), no Foundation.
///
/// ```swift
/// struct Filter: Encodable { var page: Int; var done: Bool }
/// let value = try JSONValueEncoder.encode(Filter(page: 2, done: true))
/// print(value)  // object(["done": bool(true), "page": number(2.0)])
/// ```
public enum JSONValueEncoder {
  /// Encodes `value`. A non-finite number becomes `null`, as `JSON.stringify` (and so TanStack's
  /// `hashKey`) writes it; only a throwing `encode(to:)` of the value's own can throw.
  public static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
    let encoder = TreeEncoder(codingPath: [])
    try value.encode(to: encoder)
    return encoder.storage.value
  }
}

/// A node of the value being built; containers write into it by reference.
private final class Node {
  enum Kind {
    case unset
    case single(JSONValue)
    case array([Node])
    case object([String: Node])
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

private struct TreeEncoder: Encoder {
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  let storage: Node

  init(codingPath: [any CodingKey], storage: Node = Node()) {
    self.codingPath = codingPath
    self.storage = storage
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = storage.kind {} else { storage.kind = .object([:]) }
    return KeyedEncodingContainer(KeyedContainer<Key>(node: storage, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = storage.kind {} else { storage.kind = .array([]) }
    return UnkeyedContainer(node: storage, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleContainer(node: storage, codingPath: codingPath)
  }
}

/// Encodes a leaf or a nested value into `node`.
private func encodeValue<T: Encodable>(_ value: T, into node: Node, codingPath: [any CodingKey]) throws {
  switch value {
  case let v as String: node.kind = .single(.string(v))
  case let v as Bool: node.kind = .single(.bool(v))
  case let v as Double: node.kind = .single(try number(v, codingPath))
  case let v as Float: node.kind = .single(try number(Double(v), codingPath))
  case let v as Int: node.kind = .single(.number(Double(v)))
  case let v as JSONValue: node.kind = .single(v)
  default: try value.encode(to: TreeEncoder(codingPath: codingPath, storage: node))
  }
}

private func number(_ value: Double, _ codingPath: [any CodingKey]) throws -> JSONValue {
  value.isFinite ? .number(value) : .null
}

private struct IndexKey: CodingKey {
  var stringValue: String { "\(intValue!)" }
  var intValue: Int?
  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.intValue = intValue }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: Node
  let codingPath: [any CodingKey]

  private func child(_ key: Key) -> Node {
    let child = Node()
    if case .object(var members) = node.kind {
      members[key.stringValue] = child
      node.kind = .object(members)
    }
    return child
  }

  mutating func encodeNil(forKey key: Key) throws { child(key).kind = .single(.null) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try encodeValue(value, into: child(key), codingPath: codingPath + [key])
  }
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
    TreeEncoder(codingPath: codingPath + [key], storage: child(key)).container(keyedBy: keyType)
  }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    TreeEncoder(codingPath: codingPath + [key], storage: child(key)).unkeyedContainer()
  }
  mutating func superEncoder() -> any Encoder { TreeEncoder(codingPath: codingPath, storage: node) }
  mutating func superEncoder(forKey key: Key) -> any Encoder { TreeEncoder(codingPath: codingPath + [key], storage: child(key)) }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
  let node: Node
  let codingPath: [any CodingKey]
  var count: Int {
    if case .array(let nodes) = node.kind { return nodes.count }
    return 0
  }

  private func next() -> Node {
    let child = Node()
    if case .array(var nodes) = node.kind {
      nodes.append(child)
      node.kind = .array(nodes)
    }
    return child
  }

  mutating func encodeNil() throws { next().kind = .single(.null) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    let index = count
    try encodeValue(value, into: next(), codingPath: codingPath + [IndexKey(index)])
  }
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    TreeEncoder(codingPath: codingPath, storage: next()).container(keyedBy: keyType)
  }
  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    TreeEncoder(codingPath: codingPath, storage: next()).unkeyedContainer()
  }
  mutating func superEncoder() -> any Encoder { TreeEncoder(codingPath: codingPath, storage: next()) }
}

private struct SingleContainer: SingleValueEncodingContainer {
  let node: Node
  let codingPath: [any CodingKey]
  mutating func encodeNil() throws { node.kind = .single(.null) }
  mutating func encode<T: Encodable>(_ value: T) throws { try encodeValue(value, into: node, codingPath: codingPath) }
}
