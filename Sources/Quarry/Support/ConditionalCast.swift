/// `value as? T`, without the Swift runtime's general cast when `value`'s dynamic type is `T`
/// itself, as it nearly always is: data is read back as the type it was written as.
///
/// The general cast (`swift_dynamicCast`) looks through existentials, `Optional`s, class
/// hierarchies and bridging, about 250 instructions to read an `Int` out of `any Sendable`;
/// comparing the value's type with `T` and copying it costs a few dozen (a few, for a value
/// held in the existential's own buffer: ``inlineValue(_:as:)``). Every other case (a subclass
/// of `T`, an existential or `Optional` `T`, bridging) falls back to `as? T`, so the answer is
/// always `as? T`'s. Inlinable, so that a caller that knows `T` compares with it directly.
@inlinable
package func conditionalCast<T>(_ value: any Sendable, to type: T.Type) -> T? {
  inlineValue(value, as: T.self) ?? castOutOfBuffer(value, to: T.self)
}

/// ``conditionalCast(_:to:)`` once ``inlineValue(_:as:)`` has answered `nil` (a caller that
/// read the existential's buffer in place, ``DataBox/castValue(to:)``, does not read it again).
@inlinable
package func castOutOfBuffer<T>(_ value: any Sendable, to type: T.Type) -> T? {
  func exactly<V: Sendable>(_ value: V) -> T? {
    guard V.self == T.self else { return nil }
    // `V` is `T`: the value is read as its own type.
    return withUnsafePointer(to: value) { UnsafeRawPointer($0).assumingMemoryBound(to: T.self).pointee }
  }
  if let same = exactly(value) { return same }
  return value as? T
}

/// `value` read as `T` when its dynamic type is exactly `T` and it lies in the existential's
/// inline buffer (a value of at most three words that the runtime stores there: `Int`, `String`,
/// a class reference, a small struct); `nil` otherwise, including for a `T` value stored out of
/// line (the caller's general path reads it then).
///
/// Opening the existential to compare its type (the generic `exactly` in
/// ``conditionalCast(_:to:)``) calls a function generic over the opened type and copies the
/// value through its value witnesses, about 90-120 instructions per cast. Here the
/// existential's words are read where they lie, by the Swift ABI's layout of `Any` (as
/// `castMaySeeThrough` reads a metadata's kind and `DataBox` its storage): three words of
/// buffer, then the type's metadata. Metadata are unique per type, so equal pointers are the
/// same type. A value is in the buffer exactly when its value witness table's flags lack
/// `IsNonInline` (0x20000; the table is the word before the metadata, its flags after its
/// eight functions, size and stride); then the buffer holds the value itself, copied out as
/// `T` (retaining what `T` holds, as any copy does). `ConditionalCastTests` checks it against
/// `as? T` for inline and out-of-line values of many kinds.
@inlinable @inline(__always)
package func inlineValue<T>(_ value: any Sendable, as _: T.Type) -> T? {
  withUnsafePointer(to: value) { inlineValue(at: UnsafeRawPointer($0), as: T.self) }
}

/// ``inlineValue(_:as:)`` of the `any Sendable` existential at `container` (a variable's or a
/// stored property's address: ``DataBox/inlineValue(as:)`` reads its storage where it lies,
/// without copying the existential out first).
@inlinable @inline(__always)
package func inlineValue<T>(at container: UnsafeRawPointer, as _: T.Type) -> T? {
  let word = MemoryLayout<UnsafeRawPointer>.size
  let metadata = container.load(fromByteOffset: 3 * word, as: UnsafeRawPointer.self)
  guard metadata == unsafeBitCast(T.self as Any.Type, to: UnsafeRawPointer.self) else { return nil }
  let witnesses = metadata.load(fromByteOffset: -word, as: UnsafeRawPointer.self)
  let flags = witnesses.load(fromByteOffset: 10 * word, as: UInt32.self)
  guard flags & 0x20000 == 0 else { return nil }
  return container.load(as: T.self)
}
