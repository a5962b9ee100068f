/// An error with an identity: Quarry's stand-in for a JavaScript `Error` object.
///
/// Every failure TanStack records is a new `Error` object, so a second failure with the same
/// message still changes an observer's result. The engine boxes an error where it enters a
/// query's state (a `failed` or `error` action) or a result (a throwing `select`), and results
/// compare these boxes by identity.
final class ErrorBox: Sendable {
  let error: any Error
  init(_ error: any Error) { self.error = error }
}

/// Whether two results hold the same error object (JavaScript's `===`).
func sameError(_ a: ErrorBox?, _ b: ErrorBox?) -> Bool { a === b }
