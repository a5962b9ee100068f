/// What a streamed query's refetch does with the data of the previous fetch (TanStack's
/// `refetchMode` option of `streamedQuery`).
public enum StreamedQueryRefetchMode: String, Sendable {
  /// Clear the query first (back to its initial state, pending without data, still fetching),
  /// then write each chunk as it arrives. The default.
  case reset
  /// Keep the data and write each chunk onto it.
  case append
  /// Keep the data until the stream ends, then write the whole new value once.
  case replace
}
