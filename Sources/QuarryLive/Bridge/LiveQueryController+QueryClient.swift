import Quarry

extension LiveQueryController {
  /// The results once no fetch is under way: the loaded records, or the last fetch's error thrown.
  /// Starts the controller.
  public func load() async throws -> [Record] {
    start()
    switch await settled() {
    case .loaded(let records): return records
    case .failed(let error, _): throw error
    case .notStarted, .loading(_): return results  // paused or stopped before the first load
    }
  }

  /// Writes each loaded result into `client`'s cache as `queryKey`'s data (`setQueryData`), so
  /// every `QueryObserver` of `queryKey` shows the local table like any query, and a mutation that
  /// writes through to the store reaches all of them. Starts the controller; stops on `cancel()`.
  ///
  /// One cache for server and local state, through the public `QueryClient` API only: a fetch
  /// error is not written (the query keeps its last data; read ``state`` for the error).
  ///
  /// ```swift
  /// struct Note: Identifiable, Equatable, Sendable { var id: Int; var text: String }
  /// struct AllNotes: LiveDescriptor {
  ///   func fetch(_ snapshot: InMemoryStore<Note>.Snapshot) -> [Note] { snapshot.records }
  /// }
  /// let store = InMemoryStore<Note>()
  /// let notes = LiveQueryController(store: store, descriptor: AllNotes())
  /// let mirroring = notes.mirror(into: client, queryKey: ["notes"])
  /// let observer = QueryObserver(client: client, options: notes.queryOptions(["notes"]))
  /// let unsubscribe = observer.subscribe { result in print(result.data as? [Note] ?? []) }
  /// try store.write { try $0.insert(Note(id: 1, text: "milk")) }  // the observer prints [Note(id: 1, …)]
  /// unsubscribe()
  /// mirroring.cancel()
  /// ```
  public func mirror(into client: QueryClient, queryKey: QueryKey) -> LiveSubscription {
    observe { change in
      guard case .loaded(let records) = change.state else { return }
      client.setQueryData(queryKey, value: records)
    }
  }

  /// Options for `queryKey` whose query function is ``load()`` and whose data never goes stale by
  /// time (`staleTime: .static`): with ``mirror(into:queryKey:)`` the cache is kept current by the
  /// store's commits, not by refetching.
  public func queryOptions(_ queryKey: QueryKey) -> QueryOptions {
    var options = QueryOptions(queryKey: queryKey)
    options.queryFn = .fn { [self] _ in try await self.load() }
    options.staleTime = .value(.static)
    return options
  }

  /// Options for `queryKey` whose query function streams this live query (TanStack's
  /// `streamedQuery` with `refetchMode: .replace`): every result the store commits replaces the
  /// query's data, and the query keeps `fetchStatus == .fetching` while the stream is open (a
  /// live source never ends). The last observer leaving cancels the stream, which ends this
  /// call's ``updates(withCurrentValue:)``; a failed load fails the fetch.
  ///
  /// Use it to show a local table through the engine's observers with no second copy of the
  /// subscription; ``mirror(into:queryKey:)`` instead keeps the query idle and current.
  public func streamedQueryOptions(_ queryKey: QueryKey) -> QueryOptions {
    var options = QueryOptions(queryKey: queryKey)
    options.queryFn = .streamedQuery(
      refetchMode: .replace, initialValue: [Record](), reducer: { _, records in records }
    ) { [self] _ in
      start()
      return LiveResults(base: updates(withCurrentValue: true))
    }
    return options
  }
}

/// A live query's results as a throwing sequence: a failed load ends it with that error.
struct LiveResults<Record: Sendable>: AsyncSequence, Sendable {
  let base: AsyncStream<Result<[Record], any Error>>

  struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncStream<Result<[Record], any Error>>.Iterator
    mutating func next() async throws -> [Record]? {
      guard let result = await base.next() else { return nil }
      return try result.get()
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator()) }
}
