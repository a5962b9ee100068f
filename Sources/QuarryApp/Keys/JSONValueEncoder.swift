import Quarry
import Synchronization

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
    // `Int`, `String`, `Bool`, `Double` and `Float` are what their `encode(to:)` would write.
    if let leaf = leafValue(value) { return leaf }
    let node = Node()
    try value.encode(to: TreeEncoder(codingPath: [], storage: node))
    return node.value
  }

  /// The typed key of `prefix` followed by `value`'s JSON form.
  @usableFromInline
  static func encodeKey<T: Encodable>(after prefix: [JSONValue], _ value: T) throws -> QueryKey {
    if let leaf = leafValue(value) { return QueryKey(keyParts(prefix, leaf)) }
    var node = Node.spare()
    try value.encode(to: TreeEncoder(codingPath: [], storage: node))
    let key = node.key(after: prefix)
    Node.keep(&node)
    return key
  }

  /// Gives back the object table of `key`, a key `encodeKey(after:_:)` built that the caller
  /// is done with: the spare root node's next object of the same shape is written into that
  /// table in place, instead of a copy of the shape's table (an allocation and a copy), and the
  /// table is not freed either. Only the table the spare node last handed out is taken back
  /// (it holds a reference to it until then, so a table built elsewhere is never taken for
  /// it); if anything else still references the table (the cache kept the key), writing into
  /// it copies it first, as writing into the shape's table does.
  @usableFromInline
  package static func recycle(_ key: consuming QueryKey) {
    var parts = key.parts
    _ = consume key
    guard parts.count == 2, case .object(let table) = parts.removeLast() else { return }
    _ = consume parts
    guard var node = Node.takeSpare() else { return }
    node.takeBack(table)
    Node.keep(&node)
  }
}

/// `prefix` followed by `part`. A one-part prefix (the type's name, unless `keyPrefix` is
/// declared) and the part make the key's array as one literal: appending to the shared prefix
/// copied it into a grown buffer.
@usableFromInline @inline(__always)
func keyParts(_ prefix: [JSONValue], _ part: JSONValue) -> [JSONValue] {
  prefix.count == 1 ? [prefix[0], part] : prefix + [part]
}

// How the encoder is made cheap (typed12; `KeyEncodingReferenceTests` checks it against the
// former encoder, kept in the tests, to the bit):
// - a leaf of the five JSON-like types is recognised by comparing its type with theirs (a pointer
//   comparison) and read in place, before the runtime's general casts (`as String`, `as Bool`, …),
//   which every leaf went through, in that order, and which still decide every other type;
// - the containers implement the `encode(_: Int, forKey:)`-style requirements themselves, so a
//   synthesized `encode(to:)` writes a field without the generic path and without the coding
//   path of the field (built only for a value that gets an encoder of its own);
// - an object or array keeps its leaves as `JSONValue`s and only its nested containers as nodes
//   (a node per value before), mutated in place (the dictionary was copied on every member).

/// `value` as a JSON leaf when its type is exactly one of the leaf types, else `nil`.
@inline(__always)
private func leafValue<T>(_ value: T) -> JSONValue? {
  if T.self == Int.self { return .number(Double(read(value, as: Int.self))) }
  if T.self == String.self { return .string(read(value, as: String.self)) }
  if T.self == Bool.self { return .bool(read(value, as: Bool.self)) }
  if T.self == Double.self { return number(read(value, as: Double.self)) }
  if T.self == Float.self { return number(Double(read(value, as: Float.self))) }
  return nil
}

/// `value` read as `U`, which the caller checked is its type.
@inline(__always)
private func read<T, U>(_ value: T, as type: U.Type) -> U {
  withUnsafePointer(to: value) { UnsafeRawPointer($0).assumingMemoryBound(to: U.self).pointee }
}

private func number(_ value: Double) -> JSONValue { value.isFinite ? .number(value) : .null }

/// A container's value, or a node that another container writes into.
private enum Slot {
  case leaf(JSONValue)
  case node(Node)
}

/// An empty member table with room for four members, copied by an object's first member: made
/// with `Dictionary(minimumCapacity:)` on each object, the table's type metadata was looked up
/// each time (the initializer is not inlinable), about 360 instructions.
private let emptyMembers = [String: JSONValue](minimumCapacity: 4)

/// A value being built; containers write into it by reference.
private final class Node {
  enum Kind {
    case unset
    case single(JSONValue)
    /// Leaves in `values`; a nested container's node in `nodes` at its index (`values` holds
    /// `null` there until the end).
    case array(values: [JSONValue], nodes: [(Int, Node)])
    /// A member is in `values` or in `nodes`, never both.
    case object(values: [String: JSONValue], nodes: [String: Node])
    /// An object whose members so far are leaves written under the first `count` names of
    /// `shape`, in its order: `values` is a copy of the shape's table, those members set.
    case shaped(ObjectShape, values: [String: JSONValue], count: Int)
    /// An object whose members so far are leaves, their names kept in order to learn the shape
    /// of the `CodingKey` type `type` (its first object).
    case learning(TypeID, names: [String], values: [String: JSONValue])
  }
  var kind: Kind = .unset

  var value: JSONValue {
    switch kind {
    case .unset: return .object([:])
    case .single(let v): return v
    case .array(var values, let nodes):
      for (index, node) in nodes { values[index] = node.value }
      return .array(values)
    case .object(var values, let nodes):
      for (name, node) in nodes { values[name] = node.value }
      return .object(values)
    case .shaped(let shape, let values, let count):
      if count == shape.names.count { return .object(values) }
      // Fewer members than the shape's: this type's objects differ.
      objectShapes.varies(shape.type)
      lastShape = nil
      return .object(shape.members(values, count))
    case .learning(let type, let names, let values):
      objectShapes.learned(type, names: names, values: values)
      return .object(values)
    }
  }

  /// For an object of its type's shape: the sum of its members' hash states (each from the
  /// shape's hasher after the member's name), whether every member so far was a scalar (else
  /// the sum is not known), and whether every member folded as JSON text writes it.
  var memberSum: UInt64 = 0
  var membersAreScalars = true
  var membersFaithful = true

  /// A root node: the spare one if there is one (each key allocated and freed its own).
  static func spare() -> Node { takeSpare() ?? Node() }

  /// The spare root node, if there is one, taken out of its place.
  @inline(__always)
  static func takeSpare() -> Node? {
    guard let spare = UnsafeRawPointer(bitPattern: spareNode.exchange(0, ordering: .acquiring)) else { return nil }
    return Unmanaged<Node>.fromOpaque(spare).takeRetainedValue()
  }

  /// The object table of the last key this node built of a learned shape, and that shape: held
  /// until the key is given back (``JSONValueEncoder/recycle(_:)``), so that only that table,
  /// recognised by its identity, is taken back.
  private var issued: (table: [String: JSONValue], shape: ObjectShape)?
  /// A table given back, of `shape`'s layout (a copy of its table, every member set in place):
  /// the node's next object of that shape is written into it.
  private var returned: (table: [String: JSONValue], shape: ObjectShape)?

  /// Takes `table` back if it is the one this node last handed out (``issued``).
  func takeBack(_ table: [String: JSONValue]) {
    guard let issued, MemoryLayout<[String: JSONValue]>.size == MemoryLayout<UInt>.size,
      unsafeBitCast(issued.table, to: UInt.self) == unsafeBitCast(table, to: UInt.self)
    else { return }
    let shape = issued.shape
    self.issued = nil  // the table's reference from here goes, so that it may be unique
    returned = (table, shape)
  }

  /// Keeps `node`, a root whose key is built, as the spare one if nothing else references it
  /// (a container or encoder the value's `encode(to:)` kept would write into the next key).
  static func keep(_ node: inout Node) {
    node.kind = .unset
    guard isKnownUniquelyReferenced(&node) else { return }
    let spare = Unmanaged.passRetained(node).toOpaque()
    if !spareNode.compareExchange(expected: 0, desired: UInt(bitPattern: spare), ordering: .releasing).exchanged {
      Unmanaged<Node>.fromOpaque(spare).release()
    }
  }

  /// The shape this node's last object of a learned shape had: a reused root node starts its
  /// next object of the same type from it without the shapes' table (kept while its objects
  /// keep to it; a shape marked as varying meanwhile is only slower, never wrong).
  var lastShape: ObjectShape?

  /// Makes this an object keyed by `type` (it was not an object).
  func startObject(_ type: Any.Type) {
    if let shape = lastShape, shape.type == TypeID(type) {
      if let returned, returned.shape === shape {
        // The table of this shape's last key, given back: written in place if nothing else
        // references it (else copied at the first member, as the shape's own table is).
        self.returned = nil
        kind = .shaped(shape, values: returned.table, count: 0)
      } else {
        kind = .shaped(shape, values: shape.table, count: 0)
      }
    } else {
      kind = objectShapes.startObject(type)
      if case .shaped(let shape, _, _) = kind { lastShape = shape }
    }
    memberSum = 0
    membersAreScalars = true
    membersFaithful = true
  }

  /// The typed key of `prefix` followed by ``value``: for an object of its type's shape whose
  /// members are all scalars, with their hash states' sum, so that the key's hash does not
  /// walk the object again.
  func key(after prefix: [JSONValue]) -> QueryKey {
    if case .shaped(let shape, let values, let count) = kind, count == shape.names.count, membersAreScalars {
      issued = (values, shape)
      return QueryKey(parts: keyParts(prefix, .object(values)), objectMemberSum: memberSum, faithful: membersFaithful)
    }
    issued = nil
    return QueryKey(keyParts(prefix, value))
  }

  var isObject: Bool {
    switch kind {
    case .object, .shaped, .learning: return true
    default: return false
    }
  }
  var isArray: Bool { if case .array = kind { return true } else { return false } }

  /// Sets member `name` (if this is an object, as a detached node's writes are lost otherwise).
  /// A name equal to one already there keeps that one's spelling, as a `Dictionary` does.
  func set(_ name: String, _ slot: Slot) {
    // `if case` rather than a `switch`: the switch's subject kept a second reference to the
    // table, so every write copied it.
    if case .shaped(let shape, var values, let count) = kind {
      kind = .unset  // the table is unique while it changes
      if case .leaf(let value) = slot, count < shape.names.count, name.hasSameCodeUnitsAs(shape.names[count]) {
        values.values[shape.indices[count]] = value
        if membersAreScalars {
          var faithful = true
          if let state = shape.memberHashers[count].state(with: value, faithful: &faithful) {
            memberSum = memberSum &+ state
            if !faithful { membersFaithful = false }
          } else {
            membersAreScalars = false
          }
        }
        kind = .shaped(shape, values: values, count: count + 1)
        return
      }
      // This object leaves the shape (another name, or a nested value): the members so far,
      // as the general path holds them, and the type's objects differ.
      objectShapes.varies(shape.type)
      lastShape = nil
      kind = .object(values: shape.members(values, count), nodes: [:])
    } else if case .learning(let type, var names, var values) = kind {
      kind = .unset
      if case .leaf(let value) = slot {
        names.append(name)
        Node.setLeaf(&values, name, value)
        kind = .learning(type, names: names, values: values)
        return
      }
      // A nested value: objects of this type are not flat.
      objectShapes.varies(type)
      kind = .object(values: values, nodes: [:])
    }
    guard case .object(var values, var nodes) = kind else { return }
    kind = .unset  // the dictionaries are unique while they change
    switch slot {
    case .leaf(let value):
      if !nodes.isEmpty, let index = nodes.index(forKey: name) {
        let spelling = nodes[index].key
        nodes.remove(at: index)
        values[spelling] = value
      } else {
        Node.setLeaf(&values, name, value)
      }
    case .node(let node):
      if !values.isEmpty, let index = values.index(forKey: name) {
        let spelling = values[index].key
        values.remove(at: index)
        nodes[spelling] = node
      } else {
        nodes[name] = node
      }
    }
    kind = .object(values: values, nodes: nodes)
  }

  /// Sets a leaf member of an object none of whose nested values has `name`.
  @inline(__always)
  static func setLeaf(_ values: inout [String: JSONValue], _ name: String, _ value: JSONValue) {
    // Room for four members at once: the second member made the table grow.
    if values.isEmpty { values = emptyMembers }
    values[name] = value
  }

  /// Appends an element (if this is an array).
  func append(_ slot: Slot) {
    guard case .array(var values, var nodes) = kind else { return }
    kind = .unset
    switch slot {
    case .leaf(let value): values.append(value)
    case .node(let node):
      nodes.append((values.count, node))
      values.append(.null)
    }
    kind = .array(values: values, nodes: nodes)
  }

  var count: Int {
    if case .array(let values, _) = kind { return values.count }
    return 0
  }
}

// Object shapes (typed13): a synthesized `encode(to:)` writes the same member names in the same
// order every time, and inserting each into a new member table hashed its name (SipHash) each
// time, about 600 instructions a member. The first object of a `CodingKey` type learns the
// names it was written with; later objects of that type copy the learned table and set each
// value at its known place, comparing each name with the shape's by code units. An object that
// writes anything else (another name, a name again, fewer names, a nested value) goes on as
// before from the members it has, and its type is marked as varying for good: the members an
// object ends with are always what the general path would have written, in the same order.

/// The member names objects of one `CodingKey` type are written with, in order (distinct as a
/// `Dictionary` tells names apart), and a member table holding them, each member's place in it
/// known.
private final class ObjectShape: Sendable {
  let type: TypeID
  let names: [String]
  /// The names, each with `null`: a table of the same layout as a general object's.
  let table: [String: JSONValue]
  /// `names[i]`'s place in `table` (and in every copy of it).
  let indices: [Dictionary<String, JSONValue>.Index]
  /// `names[i]`'s member hasher (the structural hash's state after the name).
  let memberHashers: [ObjectMemberHasher]

  init(type: TypeID, names: [String], values: [String: JSONValue]) {
    var table = values
    for index in table.indices { table.values[index] = .null }  // in place: the same layout
    self.type = type
    self.names = names
    self.table = table
    indices = names.map { table.index(forKey: $0)! }
    memberHashers = names.map { ObjectMemberHasher(name: $0) }
  }

  /// The object of the first `count` members of `values` (a copy of `table`), as the general
  /// path builds it.
  func members(_ values: [String: JSONValue], _ count: Int) -> [String: JSONValue] {
    var members: [String: JSONValue] = [:]
    for i in 0..<count { Node.setLeaf(&members, names[i], values[indices[i]].value) }
    return members
  }
}

/// What is known of a `CodingKey` type's objects.
private enum ShapeEntry {
  case shape(ObjectShape)
  case varies
}

/// The address of the spare root node (`Node.spare()`, `Node.keep(_:)`), retained while here;
/// 0 for none.
private let spareNode = Atomic<UInt>(0)

/// The learned shapes, by `CodingKey` type; one entry per type ever used for an object.
private let objectShapes = ObjectShapes()

private final class ObjectShapes: Sendable {
  /// Taken through `withLock(orderingFor: self)`, which tells the thread sanitizer the lock's
  /// ordering (on Linux a `Mutex` blocks in the kernel, where the sanitizer cannot see it).
  private let table = Mutex<[TypeID: ShapeEntry]>([:])

  /// How a new object keyed by `type` starts.
  func startObject(_ type: Any.Type) -> Node.Kind {
    let key = TypeID(type)
    switch table.withLock(orderingFor: self, { $0[key] }) {
    case .shape(let shape)?: return .shaped(shape, values: shape.table, count: 0)
    case .varies?: return .object(values: [:], nodes: [:])
    case nil: return .learning(key, names: [], values: [:])
    }
  }

  /// An object of `type` was written with `names`, in order, making `values`.
  func learned(_ type: TypeID, names: [String], values: [String: JSONValue]) {
    if names.isEmpty { return }
    // A name written twice (or two spelled apart but equal to a `Dictionary`) is not a shape;
    // nor are many members (a shape is kept for good: a large dictionary's would hold its
    // names, and a dictionary's keys come in no fixed order anyway).
    let isShape = values.count == names.count && names.count <= ObjectShapes.maxMembers
    let entry: ShapeEntry = isShape ? .shape(ObjectShape(type: type, names: names, values: values)) : .varies
    table.withLock(orderingFor: self) { table in
      if table[type] == nil { table[type] = entry }
    }
  }

  /// The most members a shape has.
  static let maxMembers = 32

  /// Objects of `type` differ: they take the general path from now on.
  func varies(_ type: TypeID) {
    table.withLock(orderingFor: self) { $0[type] = .varies }
  }
}

extension String {
  /// Whether the two strings have the same code units (the same bits at once).
  @inline(__always)
  fileprivate func hasSameCodeUnitsAs(_ other: String) -> Bool {
    if MemoryLayout<String>.size == 16,
      unsafeBitCast(self, to: (UInt64, UInt64).self) == unsafeBitCast(other, to: (UInt64, UInt64).self)
    {
      return true
    }
    return utf8.elementsEqual(other.utf8)
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
    if !storage.isObject { storage.startObject(Key.self) }
    return KeyedEncodingContainer(KeyedContainer<Key>(node: storage, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if !storage.isArray { storage.kind = .array(values: [], nodes: []) }
    return UnkeyedContainer(node: storage, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleContainer(node: storage, codingPath: codingPath)
  }
}

/// `value` as a leaf, or `nil` for a value that is encoded by its own `encode(to:)`.
private func leaf<T: Encodable>(_ value: T) -> JSONValue? {
  if let leaf = leafValue(value) { return leaf }
  if T.self == JSONValue.self { return read(value, as: JSONValue.self) }
  // What the runtime's casts find inside other types (an `Optional` holding a leaf, …).
  switch value {
  case let v as String: return .string(v)
  case let v as Bool: return .bool(v)
  case let v as Double: return number(v)
  case let v as Float: return number(Double(v))
  case let v as Int: return .number(Double(v))
  case let v as JSONValue: return v
  default: return nil
  }
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

  private func set(_ value: JSONValue, _ key: Key) { node.set(key.stringValue, .leaf(value)) }
  /// A new node at `key`, for a nested container or encoder.
  private func child(_ key: Key) -> Node {
    let child = Node()
    node.set(key.stringValue, .node(child))
    return child
  }

  mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { set(number(value), key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { set(number(Double(value)), key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { set(.number(Double(value)), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { set(.number(Double(value)), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { set(.number(Double(value)), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { set(.number(Double(value)), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { set(.number(Double(value)), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { set(.number(Double(value)), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.number(Double(value)), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.number(Double(value)), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.number(Double(value)), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { set(.number(Double(value)), key) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    if let leaf = leaf(value) { return set(leaf, key) }
    // The member is there before its value's encoder runs (a throw leaves it half written).
    try value.encode(to: TreeEncoder(codingPath: codingPath + [key], storage: child(key)))
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
  var count: Int { node.count }

  private func append(_ value: JSONValue) { node.append(.leaf(value)) }
  /// A new node at the end, for a nested container or encoder.
  private func next() -> Node {
    let child = Node()
    node.append(.node(child))
    return child
  }

  mutating func encodeNil() throws { append(.null) }
  mutating func encode(_ value: Bool) throws { append(.bool(value)) }
  mutating func encode(_ value: String) throws { append(.string(value)) }
  mutating func encode(_ value: Double) throws { append(number(value)) }
  mutating func encode(_ value: Float) throws { append(number(Double(value))) }
  mutating func encode(_ value: Int) throws { append(.number(Double(value))) }
  mutating func encode(_ value: Int8) throws { append(.number(Double(value))) }
  mutating func encode(_ value: Int16) throws { append(.number(Double(value))) }
  mutating func encode(_ value: Int32) throws { append(.number(Double(value))) }
  mutating func encode(_ value: Int64) throws { append(.number(Double(value))) }
  mutating func encode(_ value: UInt) throws { append(.number(Double(value))) }
  mutating func encode(_ value: UInt8) throws { append(.number(Double(value))) }
  mutating func encode(_ value: UInt16) throws { append(.number(Double(value))) }
  mutating func encode(_ value: UInt32) throws { append(.number(Double(value))) }
  mutating func encode(_ value: UInt64) throws { append(.number(Double(value))) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    if let leaf = leaf(value) { return append(leaf) }
    let index = count
    try value.encode(to: TreeEncoder(codingPath: codingPath + [IndexKey(index)], storage: next()))
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

  private func set(_ value: JSONValue) { node.kind = .single(value) }

  mutating func encodeNil() throws { set(.null) }
  mutating func encode(_ value: Bool) throws { set(.bool(value)) }
  mutating func encode(_ value: String) throws { set(.string(value)) }
  mutating func encode(_ value: Double) throws { set(number(value)) }
  mutating func encode(_ value: Float) throws { set(number(Double(value))) }
  mutating func encode(_ value: Int) throws { set(.number(Double(value))) }
  mutating func encode(_ value: Int8) throws { set(.number(Double(value))) }
  mutating func encode(_ value: Int16) throws { set(.number(Double(value))) }
  mutating func encode(_ value: Int32) throws { set(.number(Double(value))) }
  mutating func encode(_ value: Int64) throws { set(.number(Double(value))) }
  mutating func encode(_ value: UInt) throws { set(.number(Double(value))) }
  mutating func encode(_ value: UInt8) throws { set(.number(Double(value))) }
  mutating func encode(_ value: UInt16) throws { set(.number(Double(value))) }
  mutating func encode(_ value: UInt32) throws { set(.number(Double(value))) }
  mutating func encode(_ value: UInt64) throws { set(.number(Double(value))) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    if let leaf = leaf(value) { return set(leaf) }
    // Into this node itself: a container the value asks for joins one already there.
    try value.encode(to: TreeEncoder(codingPath: codingPath, storage: node))
  }
}
