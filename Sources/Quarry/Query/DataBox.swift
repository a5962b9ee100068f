/// Query data with an identity, standing in for JavaScript's object identity.
///
/// Structural sharing (TanStack's `replaceEqualDeep`) keeps the previous box when the new value
/// is equal, so "did the data change" is an identity check, as in TanStack.
final class DataBox: Sendable {
  let value: any Sendable
  init(_ value: any Sendable) { self.value = value }
}

/// Whether two values are equal: `Equatable` values by `==`, class instances by identity.
func valuesEqual(_ a: any Sendable, _ b: any Sendable) -> Bool {
  func open<T: Equatable>(_ lhs: T) -> Bool {
    guard let rhs = b as? T else { return false }
    return lhs == rhs
  }
  if let a = a as? any Equatable { return open(a) }
  if type(of: a) is AnyClass, type(of: b) is AnyClass { return (a as AnyObject) === (b as AnyObject) }
  return false
}

/// Whether a value is a primitive, equal by value in JavaScript even without structural sharing.
func isPrimitive(_ value: any Sendable) -> Bool {
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
func replaceData(_ previous: DataBox?, _ new: any Sendable, structuralSharing: Bool?) -> DataBox {
  if let previous {
    if structuralSharing != false {
      if replaceEqualDeepKeepsPrevious(previous.value, new) { return previous }
    } else if isPrimitive(new), valuesEqual(previous.value, new) {
      return previous
    }
  }
  return DataBox(new)
}

/// Whether a value is a JSON array or object (an object with identity in JavaScript).
func isContainer(_ value: any Sendable) -> Bool {
  switch value as? JSONValue {
  case .array?, .object?: return true
  default: return false
  }
}
