extension Array where Element: AnyObject {
  /// Calls `body` with each element, in order, without retaining it around the call (a `for in`
  /// retains and releases each: about 40 instructions per element on the engine's hot walks).
  /// The array holds every element for the walk: it is borrowed for the whole call, and the
  /// caller cannot change it meanwhile (a walk that may change the caller's own array, as an
  /// observer update may change its query's observers, walks a copy).
  @inline(__always)
  func forEachUnretained(_ body: (Element) throws -> Void) rethrows {
    for index in indices {
      try Unmanaged.passUnretained(self[index])._withUnsafeGuaranteedRef(body)
    }
    withExtendedLifetime(self) {}
  }
}
