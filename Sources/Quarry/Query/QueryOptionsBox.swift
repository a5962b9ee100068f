/// A `QueryOptions` value on the heap.
final class QueryOptionsBox: Sendable {
  let options: QueryOptions
  init(_ options: QueryOptions) { self.options = options }
}
