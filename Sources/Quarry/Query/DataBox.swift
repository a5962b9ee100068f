/// Query data with an identity: Quarry's stand-in for a JavaScript object reference.
///
/// The engine creates a box where TanStack creates an object (a query function's result, an
/// updater's result, a copy made by structural sharing) and passes the same box where TanStack
/// passes the same reference, so "did the data change" is an identity check as in TanStack.
/// Primitives (numbers, strings, booleans, null) compare by value, as `===` does.
///
/// Swift values have no identity of their own. Return a `DataBox` from a query function, an
/// updater, `initialData`, `placeholderData` or `select` to hand the engine one object that
/// several queries or results share:
///
/// ```swift
/// let shared = DataBox(["tags": ["a"]] as JSONValue)
/// client.setQueriesData(QueryFilters(queryKey: ["todos"])) { _ in shared }  // one object in every query
/// ```
///
/// A box holding a `JSONValue` (or ``InfiniteData`` with `JSONValue` pages) nested deeper than
/// 128 levels releases it level by level when the box goes, so Quarry's releases of data
/// never overflow the stack (see ``JSONValue/dismantle(_:)``).
public final class DataBox: @unchecked Sendable {
  // Safe: `storage` is written only by `init` and `deinit`, and by `replaceInPlace` when the
  // engine, under its lock, holds the only reference to the box (so no other thread or holder
  // can read it meanwhile); everything else reads it (so no access can overlap a write, and the
  // dynamic exclusivity check, measurable on the cache's hot paths, is left out).
  @exclusivity(unchecked) private var storage: any Sendable
  /// The data.
  public var value: any Sendable { storage }
  /// Whether `storage` is of a type `releaseDeepJSON` takes apart (`JSONValue`, `InfiniteData`,
  /// `[JSONValue]`, `[any Sendable]`: which may be deep): decided once, where the value's type is
  /// read anyway, so releasing other data asks no dynamic type again.
  private let mayBeDeep: Bool
  /// Which of `Int`, `String`, `Double` and `Bool` `storage` is, if any (``CommonPrimitive``'s
  /// codes; a plain byte: switching over an enum here made `sameData` retain and release both
  /// boxes on every path): a primitive that `sameData` compares by value, known from the type
  /// read here anyway (`isPrimitive` asks the runtime for the dynamic type, twice per
  /// comparison of two boxes). `CommonPrimitive.none` says nothing: other primitives are still
  /// found by `isPrimitive`. `replaceInPlace` stores only a value of the same type.
  let commonPrimitive: UInt8
  /// Whether `storage` is an `Int`, `String`, `Double` or `Bool` (``commonPrimitive``).
  var isCommonPrimitive: Bool { commonPrimitive != CommonPrimitive.none }
  /// Whether the engine made this box for new data (``replaceData(_:_:structuralSharing:)``)
  /// and has handed it to no user code, so that only queries' states and results can hold it
  /// and ``replaceInPlace(with:sharing:)`` may reuse it once none but the writer's state does.
  /// A box made by the caller, or given to a structural sharing function, might be watched
  /// through a weak reference and is never reused. `@exclusivity(unchecked)`: written once
  /// before the box is stored anywhere, or cleared, under the engine lock; read under it.
  @exclusivity(unchecked) private(set) var reusable = false
  /// Boxes `value`; a box is never boxed twice.
  public init(_ value: any Sendable) {
    let type = storedType(of: value)
    if type == DataBox.self || castMaySeeThrough(type), let box = value as? DataBox {
      storage = box.storage
      mayBeDeep = box.mayBeDeep
      commonPrimitive = box.commonPrimitive
    } else {
      storage = value
      mayBeDeep =
        type == JSONValue.self || type == InfiniteData.self || type == [JSONValue].self
        || type == [any Sendable].self
      commonPrimitive = CommonPrimitive.code(of: type)
    }
  }

  /// The codes of ``commonPrimitive``.
  enum CommonPrimitive {
    static let none: UInt8 = 0
    static let int: UInt8 = 1
    static let string: UInt8 = 2
    static let double: UInt8 = 3
    static let bool: UInt8 = 4

    /// The code of a value of dynamic type `type`.
    @inline(__always)
    static func code(of type: Any.Type) -> UInt8 {
      if type == Int.self { return int }
      if type == String.self { return string }
      if type == Double.self { return double }
      if type == Bool.self { return bool }
      return none
    }
  }

  /// `primitivesEqual(value, other.value) ?? false` for two boxes holding common primitives
  /// (``isCommonPrimitive``): two `Int`s or two `Double`s are read where they lie (opening the
  /// two existentials for the generic `primitivesEqual` cost about 40 instructions per
  /// comparison). Two types are unequal (`nil` there); one type compares with its `==`.
  @inline(__always)
  func commonPrimitiveEquals(_ other: DataBox) -> Bool {
    let kind = commonPrimitive
    guard kind == other.commonPrimitive else { return false }
    switch kind {
    case CommonPrimitive.int: return storedValue(as: Int.self) == other.storedValue(as: Int.self)
    case CommonPrimitive.double: return storedValue(as: Double.self) == other.storedValue(as: Double.self)
    default: return primitivesEqual(value, other.value) ?? false
    }
  }

  /// `storage` read as `T`, which must be the type it holds (`Int` or `Double`): such a value
  /// lies inline at the start of the existential's buffer, loaded from there. The address is
  /// the object's plus ``storageOffset``.
  @inline(__always)
  private func storedValue<T: BitwiseCopyable>(as _: T.Type) -> T {
    assert(storedType(of: storage) == T.self)
    return UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()).load(fromByteOffset: Self.storageOffset, as: T.self)
  }

  /// Where `storage` lies in a box, from the object's start: after the native object header
  /// (the metadata pointer and the reference counts), as the first stored member.
  /// `SameDataPrimitivesTests` checks it against ``measuredStorageOffset()``. A constant: a
  /// computed `static let` added a `swift_once` call, after which `sameData` retained and
  /// released both boxes.
  static let storageOffset = 2 * MemoryLayout<UnsafeRawPointer>.size

  /// The data as `T` (`conditionalCast(value, to: T.self)`): a `T` held in the existential's
  /// inline buffer is read in the box (``inlineValue(as:)``), without copying the existential
  /// out as ``value`` does. The typed reads and writes read their data through it.
  @inlinable @inline(__always)
  package func castValue<T>(to _: T.Type) -> T? {
    inlineValue(as: T.self) ?? castOutOfBuffer(value, to: T.self)
  }

  /// The data as `T` when it is exactly a `T` held in the existential's inline buffer
  /// (``inlineValue(at:as:)``), read in the box without copying the existential out as
  /// ``value`` does; `nil` otherwise (``castValue(to:)`` casts ``value`` then). The offset is ``storageOffset``'s, written out: an inlinable body
  /// reading the `static let` from another module would call its accessor.
  @inlinable @inline(__always)
  package func inlineValue<T>(as _: T.Type) -> T? {
    let start = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
    return Quarry.inlineValue(at: start + 2 * MemoryLayout<UnsafeRawPointer>.size, as: T.self)
  }

  /// The offset of `storage` from the object's start, measured on a box (tests).
  static func measuredStorageOffset() -> Int {
    let box = DataBox(0)
    let start = UnsafeRawPointer(Unmanaged.passUnretained(box).toOpaque())
    return withUnsafePointer(to: &box.storage) { UnsafeRawPointer($0) - start }
  }

  deinit {
    if mayBeDeep { releaseDeepJSON(&storage) }
  }

  /// `replaceData(self, value, sharing: sharing)` done in this box, for a ``reusable`` box that
  /// only the writing query's state holds (the caller checked `isKnownUniquelyReferenced` under
  /// the engine lock: no observer result, revert or initial state, caller or other thread holds
  /// it, so nobody can see it change). When this box and `value` hold the same common primitive
  /// type and `sharing` is not a function, `replaceData` gives this box when the two are equal
  /// and otherwise a new box holding `value` with this box's flags; the value is stored here
  /// instead (an allocation and a free less per write). Returns `false`, changing nothing, when
  /// that does not apply.
  func replaceInPlace(with value: any Sendable, sharing: StructuralSharingOption?) -> Bool {
    guard isCommonPrimitive && reusable else { return false }
    if case .function? = sharing { return false }
    guard storedType(of: value) == storedType(of: storage) else { return false }
    // Equal values keep the old one (`String ==` is canonical equivalence: the stored code
    // units stay, as when `replaceData` keeps the previous box).
    if !valuesEqual(storage, value) { storage = value }
    return true
  }

  /// Called before user code is given the box: it is never reused afterwards.
  func handOut() { if reusable { reusable = false } }

  /// A new box for new data, which `replaceInPlace` may reuse.
  static func fresh(_ value: any Sendable) -> DataBox {
    let box = DataBox(value)
    box.reusable = true
    return box
  }
}

/// Releases deep JSON in `value` without recursion (`JSONValue.release`): a `JSONValue`, a
/// `[JSONValue]` (streamed chunks), the elements of `[any Sendable]`, or the pages and page
/// parameters of `InfiniteData`. Anything else is left to Swift. Shared by every holder of deep
/// values (``DataBox`` and so `DeepReleased`).
private func releaseDeepJSON(_ value: inout any Sendable) {
  let type = storedType(of: value)
  if type == JSONValue.self {
    var taken: any Sendable = ()
    swap(&taken, &value)
    var json = taken as! JSONValue
    taken = ()
    JSONValue.release(&json)
    return
  }
  guard type == InfiniteData.self || type == [JSONValue].self || type == [any Sendable].self else { return }
  var pending: [any Sendable] = [()]
  swap(&pending[0], &value)
  while var next = pending.popLast() {
    let type = storedType(of: next)
    if type == JSONValue.self {
      var json = next as! JSONValue
      next = ()
      JSONValue.release(&json)
    } else if type == [JSONValue].self {
      var json = JSONValue.array(next as! [JSONValue])
      next = ()
      JSONValue.release(&json)
    } else if type == [any Sendable].self {
      var items = next as! [any Sendable]
      next = ()
      pending.append(contentsOf: items)
      items = []
    } else if type == InfiniteData.self {
      var data = next as! InfiniteData
      next = ()
      pending.append(contentsOf: data.pages)
      data.pages = []
      for param in data.pageParams { if let param { pending.append(param) } }
      data.pageParams = []
    }
  }
}

/// `value` as a box: the box itself when it is one, otherwise a new box (a new object).
func boxed(_ value: any Sendable) -> DataBox { asDataBox(value) ?? DataBox(value) }

/// `value` without its box.
func unboxed(_ value: any Sendable) -> any Sendable { asDataBox(value)?.value ?? value }

/// `value as? JSONValue`, without the runtime's general cast when it cannot be one.
@inline(__always)
func asJSONValue(_ value: any Sendable) -> JSONValue? {
  let type = storedType(of: value)
  if type == JSONValue.self { return .some(value as! JSONValue) }
  // Not `? … : nil`: that `nil` would be the literal `JSONValue.null`.
  return castMaySeeThrough(type) ? value as? JSONValue : Optional<JSONValue>.none
}

/// `value as? DataBox`, without the runtime's general cast when it cannot be one.
@inline(__always)
func asDataBox(_ value: any Sendable) -> DataBox? {
  let type = storedType(of: value)
  if type == DataBox.self { return (value as! DataBox) }
  return castMaySeeThrough(type) ? value as? DataBox : nil
}

/// The type `value` was stored as: its exact type for a struct, enum, tuple or function, a
/// class or one of its superclasses for an object. What the checks here compare with `==` is a
/// struct, an enum or the final class ``DataBox`` (no subclass, so an instance is stored as
/// `DataBox`), and anything stored as a class passes ``castMaySeeThrough(_:)`` to the runtime's
/// cast, so the answers are `type(of:)`'s. It reads the existential's type field;
/// `type(of:)` asks the runtime for the dynamic type (`swift_getDynamicType`, about 30
/// instructions, several per write).
@inline(__always)
func storedType(of value: any Sendable) -> any Any.Type {
  func open<T>(_: T) -> any Any.Type { T.self }
  return open(value)
}

/// Whether `as?` could find another type inside a value of `type`: anything but a plain struct
/// or enum (an `Optional`, `AnyHashable`, a class, a tuple…). The first word of a struct's or
/// enum's metadata is its kind (Swift's stable ABI: 0x200 struct, 0x201 enum, 0x202 `Optional`).
@inline(__always)
func castMaySeeThrough(_ type: any Any.Type) -> Bool {
  let kind = unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self).load(as: UInt.self)
  return !(kind == 0x200 || kind == 0x201) || type == AnyHashable.self
}

/// JavaScript's `===` on data: the same box, or equal primitives; `nil` is `undefined`.
package func sameDataObject(_ a: DataBox?, _ b: DataBox?) -> Bool { sameData(a, b) }

/// JavaScript's `===` on data (``sameDataObject(_:_:)``). Inlined: the same box, or two common
/// primitives read in place, need no call (called, each box was retained and released around
/// it: about 120 instructions per observer update whose data changed).
@inline(__always)
func sameData(_ a: DataBox?, _ b: DataBox?) -> Bool {
  guard let x = a, let y = b else { return a == nil && b == nil }
  if x === y { return true }
  // Two common primitives: `valuesEqual` would answer with `primitivesEqual` (`nil`, two
  // types, is unequal for these), asked here directly.
  if x.isCommonPrimitive && y.isCommonPrimitive { return x.commonPrimitiveEquals(y) }
  return samePrimitiveData(x, y)
}

/// ``sameData(_:_:)`` of two distinct boxes, not both of common primitives.
@inline(never)
private func samePrimitiveData(_ x: DataBox, _ y: DataBox) -> Bool {
  (x.isCommonPrimitive || isPrimitive(x.value)) && (y.isCommonPrimitive || isPrimitive(y.value))
    && valuesEqual(x.value, y.value)
}

/// Whether two values are equal: `Equatable` values by `==`, class instances by identity.
func valuesEqual(_ a: any Sendable, _ b: any Sendable) -> Bool {
  // The common primitives without the runtime's search for an `Equatable` conformance.
  if let equal = primitivesEqual(a, b) { return equal }
  func open<T: Equatable>(_ lhs: T) -> Bool {
    guard let rhs = b as? T else { return false }
    return lhs == rhs
  }
  if let a = a as? any Equatable { return open(a) }
  if type(of: a) is AnyClass, type(of: b) is AnyClass { return (a as AnyObject) === (b as AnyObject) }
  return false
}

/// `==` of two values of one of the common primitive types (`Int`, `String`, `Double`, `Bool`),
/// `nil` for any other pair. The existentials are opened into `T` and `U` (no runtime cast, which
/// cost about 130 instructions per `as!`); a value is reinterpreted only once its type is known
/// to be exactly the target type.
private func primitivesEqual<T, U>(_ a: T, _ b: U) -> Bool? {
  guard T.self == U.self else { return nil }
  if T.self == Int.self { return unsafeBitCast(a, to: Int.self) == unsafeBitCast(b, to: Int.self) }
  if T.self == String.self { return unsafeBitCast(a, to: String.self) == unsafeBitCast(b, to: String.self) }
  if T.self == Double.self { return unsafeBitCast(a, to: Double.self) == unsafeBitCast(b, to: Double.self) }
  if T.self == Bool.self { return unsafeBitCast(a, to: Bool.self) == unsafeBitCast(b, to: Bool.self) }
  return nil
}

/// Whether a value is a primitive, equal by value in JavaScript even without structural sharing.
func isPrimitive(_ value: any Sendable) -> Bool {
  // The common types by their exact type, before the runtime's casts.
  let type = storedType(of: value)
  if type == Int.self || type == String.self || type == Double.self || type == Bool.self { return true }
  if type == DataBox.self || !castMaySeeThrough(type) && type != JSONValue.self && type != Float.self && type != Int64.self {
    // A box, or a plain struct or enum that no cast below can match.
    return false
  }
  switch value {
  case let json as JSONValue:
    switch json {
    case .array, .object: return false
    default: return true
    }
  case is String, is Int, is Double, is Bool, is Float, is Int64: return true
  default: return false
  }
}

/// TanStack's `replaceData`: structural sharing between the previous and the new data.
///
/// `new` may be a ``DataBox`` carrying an identity of its own. With sharing, equal data keeps the
/// previous box, and two unequal JSON arrays (or objects) give a new object, as
/// `replaceEqualDeep`'s copy does; otherwise the new data itself is the result.
func replaceData(_ previous: DataBox?, _ new: any Sendable, structuralSharing: Bool?) -> DataBox {
  // A plain struct or enum other than `JSONValue` (an `Int`, a `String`, a model) is neither a
  // box nor JSON: the general path below comes to `valuesEqual` (with sharing; without, after
  // `isPrimitive`) and a fresh box, and this asks the same without copying the value out into
  // `value` and opening it again in `asDataBox` and `asJSONValue` (about 100 instructions per
  // settled fetch).
  let type = storedType(of: new)
  if !castMaySeeThrough(type) && type != JSONValue.self {
    if let previous {
      if structuralSharing != false {
        if valuesEqual(previous.value, new) { return previous }
      } else if isPrimitive(new), valuesEqual(previous.value, new) {
        return previous
      }
    }
    return DataBox.fresh(new)
  }
  let newBox = asDataBox(new)
  let value = newBox?.value ?? new
  if let previous {
    if previous === newBox { return previous }
    if structuralSharing != false {
      if replaceEqualDeepKeepsPrevious(previous.value, value) { return previous }
      if newBox != nil, sameContainerKind(previous.value, value) { return DataBox(value) }
    } else if isPrimitive(value), valuesEqual(previous.value, value) {
      return previous
    }
  }
  return newBox ?? DataBox.fresh(value)
}

/// Whether both values are JSON arrays, or both JSON objects (`replaceEqualDeep` copies then).
private func sameContainerKind(_ a: any Sendable, _ b: any Sendable) -> Bool {
  switch (asJSONValue(a), asJSONValue(b)) {
  case (.array?, .array?), (.object?, .object?): return true
  default: return false
  }
}

/// Whether a value is a JSON array or object (an object with identity in JavaScript).
func isContainer(_ value: any Sendable) -> Bool {
  switch asJSONValue(value) {
  case .array?, .object?: return true
  default: return false
  }
}
