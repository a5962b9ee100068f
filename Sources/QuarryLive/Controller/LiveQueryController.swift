import Foundation

/// Keeps a query over a ``LiveStore`` current: fetches it, fetches again after each commit that
/// may change it, and tells observers and ``updates(withCurrentValue:)`` streams what changed.
/// Quarry's `NSFetchedResultsController`, over any store.
///
/// ```swift
/// struct Note: Identifiable, Equatable, Sendable { var id: Int; var text: String }
/// struct NotesByText: LiveDescriptor {
///   var ascending: Bool
///   func fetch(_ snapshot: InMemoryStore<Note>.Snapshot) -> [Note] {
///     snapshot.records.sorted { ascending ? $0.text < $1.text : $0.text > $1.text }
///   }
/// }
/// let store = InMemoryStore<Note>(records: [Note(id: 1, text: "b"), Note(id: 2, text: "a")])
/// let controller = LiveQueryController(store: store, descriptor: NotesByText(ascending: true))
/// let subscription = controller.observe { change in
///   print(change.diff ?? .reload)  // rows(removed: [], inserted: [0, 1], moved: [], updated: []), then moves
/// }
/// _ = await controller.settled()
/// controller.setDescriptor(NotesByText(ascending: false))  // a new fetch only because it changed
/// _ = await controller.settled()
/// subscription.cancel()
/// ```
///
/// **Threading.** Every method may be called from any thread or actor. Fetches run in tasks,
/// never under the controller's lock; results are applied under it; observers are called after
/// it is released, one at a time in the order the changes were applied, on the thread that
/// applied them (hop to the main actor yourself, or iterate ``updates(withCurrentValue:)`` there).
/// Fetch errors become ``Loadable/failed(_:previous:)`` and never end observation: the next
/// commit fetches again.
public final class LiveQueryController<Descriptor: LiveDescriptor>: @unchecked Sendable {
  /// A fetched record.
  public typealias Record = Descriptor.Record
  /// What a read of the store runs.
  typealias Fetch = @Sendable (Descriptor.Reader) throws -> [Record]

  // Safe: every stored `var` below is only touched while `lock` is held. User code (observers,
  // the descriptor's fetch, the store) is never called under it.
  let lock = NSLock()
  var machine = LiveFetchMachine()
  var currentDescriptor: Descriptor
  var currentState: Loadable<[Record], any Error> = .notStarted
  var currentResults: [Record] = []
  var currentSections: [LiveSection] = []
  var commitSubscription: LiveSubscription?
  var settleWaiters: [CheckedContinuation<Void, Never>] = []
  var observers: [Int: Observer] = [:]
  var streams: [Int: AsyncStream<Result<[Record], any Error>>.Continuation] = [:]
  var nextToken = 0
  var fetchCount = 0

  let deliveries = DeliveryQueue()
  let read: @Sendable (@escaping Fetch) async throws -> [Record]
  let observeCommits: @Sendable (@escaping @Sendable (StoreCommit) -> Void) -> LiveSubscription
  /// The largest number of removed, inserted and moved rows reported one by one (``LiveDiff``).
  public let reloadThreshold: Int
  let sectionKey: (@Sendable (Record) -> String)?

  /// A controller for `descriptor` over `store`; it starts on ``start()`` or on the first
  /// ``observe(willChange:didChange:)`` or ``updates(withCurrentValue:)``.
  ///
  /// - Parameters:
  ///   - reloadThreshold: above this many removed, inserted and moved rows, a change is ``LiveDiff/reload``.
  ///   - sectionKey: groups contiguous results into ``sections`` (sort by it first).
  public init<Store: LiveStore>(
    store: Store, descriptor: Descriptor, reloadThreshold: Int = LiveDiff.defaultReloadThreshold,
    sectionKey: (@Sendable (Record) -> String)? = nil
  ) where Store.Reader == Descriptor.Reader {
    self.currentDescriptor = descriptor
    self.reloadThreshold = reloadThreshold
    self.sectionKey = sectionKey
    self.read = { fetch in try await store.read(fetch) }
    self.observeCommits = { onCommit in store.observeCommits(onCommit) }
  }

  deinit {
    commitSubscription?.cancel()
    for stream in streams.values { stream.finish() }
    for waiter in settleWaiters { waiter.resume() }
  }

  /// The descriptor the results are for.
  public var descriptor: Descriptor { lock.withLock { currentDescriptor } }

  /// The state: not started, loading (with the previous results), loaded, or failed (with them).
  public var state: Loadable<[Record], any Error> { lock.withLock { currentState } }

  /// The last results that loaded (empty before the first load); kept through loading and failures.
  public var results: [Record] { lock.withLock { currentResults } }

  /// The sections of ``results`` by the section key (empty without one).
  public var sections: [LiveSection] { lock.withLock { currentSections } }

  /// How many fetches have started so far (one per change, however many observers and streams).
  public var fetchesStarted: Int { lock.withLock { fetchCount } }

  /// Whether the controller is paused.
  public var isPaused: Bool { lock.withLock { machine.isPaused } }
}

extension LiveQueryController {
  /// One observer's callbacks.
  struct Observer: Sendable {
    var willChange: (@Sendable () -> Void)?
    var didChange: @Sendable (LiveChange<Record>) -> Void
  }
}
