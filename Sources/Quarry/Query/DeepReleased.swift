/// A stored value that Quarry releases without recursion however deeply it nests.
///
/// Swift releases nested arrays and dictionaries recursively, so dropping the last copy of a
/// `JSONValue` nested 100,000 levels deep overflows the stack. Every value Quarry keeps outside
/// keys and query data (`meta`, `initialPageParam`, a mutation's variables, data and context, a
/// fetch's `meta`, a dehydrated error's JSON, ...) is declared `@DeepReleased`: a value nested at
/// most `JSONValue.recursionLimit` levels (every real value) is kept inline; a deeper `JSONValue`,
/// `[JSONValue]`, `[any Sendable]` or ``InfiniteData`` is kept in a ``DataBox``, whose `deinit`
/// dismantles it level by level (the same code that releases query data). Reading the property
/// gives the value back unchanged. Use it for deep values of your own too:
///
/// ```swift
/// struct Draft: Sendable {
///   @DeepReleased var document: JSONValue = .null  // released without recursion at any depth
/// }
/// ```
@propertyWrapper
public struct DeepReleased<Value: Sendable>: Sendable {
  private enum Storage: Sendable {
    case inline(Value)
    case boxed(DataBox)
  }

  private var storage: Storage

  /// Keeps `wrappedValue`, in a ``DataBox`` when it is nested too deeply for Swift's release.
  @inline(__always)
  public init(wrappedValue: Value) {
    if let deep = deepPayload(wrappedValue) {
      storage = .boxed(DataBox(deep))
    } else {
      storage = .inline(wrappedValue)
    }
  }

  /// The value.
  public var wrappedValue: Value {
    @inline(__always) get {
      switch storage {
      case .inline(let value): return value
      case .boxed(let box): return box.value as! Value
      }
    }
    @inline(__always) set { self = DeepReleased(wrappedValue: newValue) }
  }
}

extension DeepReleased: Equatable where Value: Equatable {
  /// Whether the values are equal.
  public static func == (lhs: DeepReleased, rhs: DeepReleased) -> Bool { lhs.wrappedValue == rhs.wrappedValue }
}

/// The part of `value` to keep in a ``DataBox``, when Swift's own release of it could recurse
/// deeper than `JSONValue.recursionLimit`; `nil` otherwise. Sees through one `Optional` of the
/// stored types (`JSONValue?`, `(any Sendable)?`).
@inline(__always)
private func deepPayload<Value>(_ value: Value) -> (any Sendable)? {
  // Never `? nil : json`: that `nil` would be the literal `JSONValue.null`; `return nil` is
  // the `Optional`'s.
  if Value.self == Optional<JSONValue>.self {
    guard let json = unsafeBitCast(value, to: Optional<JSONValue>.self), !json.isNested(within: JSONValue.recursionLimit) else { return nil }
    return json
  }
  if Value.self == JSONValue.self {
    let json = unsafeBitCast(value, to: JSONValue.self)
    guard !json.isNested(within: JSONValue.recursionLimit) else { return nil }
    return json
  }
  if Value.self == Optional<any Sendable>.self {
    guard let any = unsafeBitCast(value, to: Optional<any Sendable>.self), needsDeepRelease(any) else { return nil }
    return any
  }
  if Value.self == (any Sendable).self {
    let any = unsafeBitCast(value, to: (any Sendable).self)
    guard needsDeepRelease(any) else { return nil }
    return any
  }
  return nil
}

/// Whether Swift's release of `value` could recurse deeper than `JSONValue.recursionLimit`
/// levels: a deep `JSONValue`, `[JSONValue]`, `[any Sendable]` or ``InfiniteData`` (the types
/// ``DataBox`` dismantles). Anything else costs a type check.
func needsDeepRelease(_ value: any Sendable) -> Bool {
  let type = type(of: value)
  let limit = JSONValue.recursionLimit
  if type == JSONValue.self { return !(value as! JSONValue).isNested(within: limit) }
  if type == [JSONValue].self { return !JSONValue.areNested(value as! [JSONValue], within: limit - 1) }
  if type == [any Sendable].self { return (value as! [any Sendable]).contains { needsDeepRelease($0) } }
  if type == InfiniteData.self {
    let data = value as! InfiniteData
    return data.pages.contains { needsDeepRelease($0) } || data.pageParams.contains { $0.map { !$0.isNested(within: limit) } ?? false }
  }
  return false
}
