/// `value as? T`, without the Swift runtime's general cast when `value`'s dynamic type is `T`
/// itself, as it nearly always is: data is read back as the type it was written as.
///
/// The general cast (`swift_dynamicCast`) looks through existentials, `Optional`s, class
/// hierarchies and bridging, about 250 instructions to read an `Int` out of `any Sendable`;
/// comparing the opened value's type with `T` and copying it costs a few dozen. Every other case
/// (a subclass of `T`, an existential or `Optional` `T`, bridging) falls back to `as? T`, so the
/// answer is always `as? T`'s. Inlinable, so that a caller that knows `T` compares with it directly.
@inlinable
package func conditionalCast<T>(_ value: any Sendable, to type: T.Type) -> T? {
  func exactly<V: Sendable>(_ value: V) -> T? {
    guard V.self == T.self else { return nil }
    // `V` is `T`: the value is read as its own type.
    return withUnsafePointer(to: value) { UnsafeRawPointer($0).assumingMemoryBound(to: T.self).pointee }
  }
  if let same = exactly(value) { return same }
  return value as? T
}
