import Foundation
import Synchronization

/// Tells a query function that its fetch was cancelled (the `AbortSignal` TanStack passes).
public final class AbortSignal: @unchecked Sendable {
  // Safe: the flag and handlers are inside `guarded` (a `Mutex`, stored inline: an `NSLock`
  // cost two more allocations per fetch), only reached through `withGuarded`.
  private struct Guarded {
    var aborted = false
    /// The first handler inline (a fetch registers one: cancelling its task), the rest after.
    var firstHandler: (@Sendable () -> Void)?
    var moreHandlers: [@Sendable () -> Void] = []
  }

  private let guarded: Mutex<Guarded>

  init() { guarded = Mutex(Guarded()) }

  /// A signal made after its fetch was aborted starts aborted (``QueryFetchRun/abortSignal``).
  init(aborted: Bool) { guarded = Mutex(Guarded(aborted: aborted)) }

  /// `guarded.withLock(body)`, with the lock's ordering told to the thread sanitizer
  /// (Mutex+Sanitizer.swift).
  @inline(__always)
  private func withGuarded<R: Sendable>(_ body: (inout Guarded) -> R) -> R {
    guarded.withLock(orderingFor: self, body)
  }

  /// Whether the fetch was cancelled.
  public var isAborted: Bool { withGuarded { $0.aborted } }

  /// Calls `handler` when the fetch is cancelled (at once if it already was).
  public func onAbort(_ handler: @escaping @Sendable () -> Void) {
    let now = withGuarded { g -> Bool in
      if g.aborted { return true }
      if g.firstHandler == nil { g.firstHandler = handler } else { g.moreHandlers.append(handler) }
      return false
    }
    if now { handler() }
  }

  /// Marks the signal aborted at once; its handlers run after the engine transaction.
  func abort(via engineLock: EngineLock) {
    let list: [@Sendable () -> Void] = withGuarded { g in
      guard !g.aborted else { return [] }
      g.aborted = true
      defer {
        g.firstHandler = nil
        g.moreHandlers = []
      }
      guard let first = g.firstHandler else { return [] }
      return [first] + g.moreHandlers
    }
    if list.isEmpty { return }
    engineLock.record(.plumbing) { list.forEach { $0() } }
  }
}

/// Where a query function's context gets its abort signal: a signal itself, or a fetch that
/// makes its signal only when something asks for it (``QueryFetchRun``: most query functions
/// never read the signal, and the signal was one allocation per fetch).
protocol AbortSignalSource: AnyObject, Sendable {
  /// The signal (made now if it has not been).
  var abortSignal: AbortSignal { get }
  /// Cancels `task` when the signal aborts (at once if it has), without making the signal.
  func cancelOnAbort(_ task: Task<Void, any Error>)
  /// A fetch's query's cache link (through which its context reads its client); `nil` for a
  /// signal, whose context holds a client of its own.
  var fetchLink: QueryCacheLink? { get }
  /// A fetch's context's signal was read (the fetch's query marks it consumed); a signal's
  /// context calls its own `onSignalRead` instead.
  func fetchSignalRead()
}

extension AbortSignal: AbortSignalSource {
  var abortSignal: AbortSignal { self }

  func cancelOnAbort(_ task: Task<Void, any Error>) { onAbort { task.cancel() } }

  var fetchLink: QueryCacheLink? { nil }

  func fetchSignalRead() {}
}

/// What a query function receives (TanStack's `QueryFunctionContext`).
public struct QueryFunctionContext: Sendable {
  /// The query's key.
  public let queryKey: QueryKey
  /// The query's `meta`.
  @DeepReleased public private(set) var meta: JSONValue?
  /// The page parameter, for infinite queries.
  @DeepReleased public private(set) var pageParam: JSONValue?
  /// The client whose query is fetching (TanStack's `client`). Weak: a running query function
  /// does not keep a released client alive (its fetch then settles with nobody to tell).
  public var client: QueryClient? { signalSource.fetchLink?.client ?? givenClient }
  /// The client given by other callers (a streamed query's inner context); weak, as above. A
  /// fetch's context reads its client through its query's cache link (its run's
  /// ``AbortSignalSource/fetchLink``), which holds it weakly already (a weak reference formed,
  /// loaded and destroyed per fetch cost about 170 instructions).
  private weak var givenClient: QueryClient?
  /// Which way an infinite query's page is fetched (`nil` for other queries).
  public let direction: FetchDirection?
  /// Where the signal comes from (a fetch's is made when first asked for).
  let signalSource: any AbortSignalSource
  /// What reading the signal first does; `nil` for a fetch's context, whose run marks its
  /// query's signal consumed (``AbortSignalSource/fetchSignalRead()``): the run holds the
  /// query already, and the link and a closure over the query each cost a retain and a release
  /// per fetch as members of their own.
  private let signalReadBody: (@Sendable () -> Void)?

  /// Tells the engine the signal was read (``signal``'s first effect).
  func onSignalRead() {
    if let signalReadBody { signalReadBody() } else { signalSource.fetchSignalRead() }
  }

  /// The abort signal, without marking it read (made now if the fetch has not made it yet).
  var abortSignal: AbortSignal { signalSource.abortSignal }

  init(queryKey: QueryKey, meta: JSONValue?, pageParam: JSONValue? = nil, direction: FetchDirection? = nil, client: QueryClient? = nil, signal: AbortSignal, onSignalRead: @escaping @Sendable () -> Void) {
    self.init(queryKey: queryKey, meta: meta, pageParam: pageParam, direction: direction, client: client, signalSource: signal, onSignalRead: onSignalRead)
  }

  init(queryKey: QueryKey, meta: JSONValue?, pageParam: JSONValue? = nil, direction: FetchDirection? = nil, client: QueryClient? = nil, signalSource: any AbortSignalSource, onSignalRead: @escaping @Sendable () -> Void) {
    self.queryKey = queryKey
    self.meta = meta
    self.pageParam = pageParam
    self.direction = direction
    self.givenClient = client
    self.signalSource = signalSource
    self.signalReadBody = onSignalRead
  }

  /// A fetch's context: its client and its signal's first read are `run`'s
  /// (``AbortSignalSource/fetchLink``, ``AbortSignalSource/fetchSignalRead()``).
  init(queryKey: QueryKey, meta: JSONValue?, fetch run: any AbortSignalSource) {
    self.queryKey = queryKey
    self.meta = meta
    self.pageParam = nil
    self.direction = nil
    self.signalSource = run
    self.signalReadBody = nil
  }

  /// The abort signal. Reading it tells the engine the function can be cancelled, which makes
  /// the last observer leaving cancel the fetch (TanStack's consumed-signal rule).
  public var signal: AbortSignal {
    onSignalRead()
    return abortSignal
  }
}

/// A query function: async, throwing, returning the query's data.
public typealias QueryFunction = FunctionBox<@Sendable (QueryFunctionContext) async throws -> any Sendable>

/// The `queryFn` option: a function, or TanStack's `skipToken` (disables the query).
public enum QueryFnOption: Sendable {
  /// Fetch with this function.
  case function(QueryFunction)
  /// Do not fetch (`skipToken`).
  case skipToken

  /// Wraps a function.
  public static func fn(_ body: @escaping @Sendable (QueryFunctionContext) async throws -> any Sendable) -> QueryFnOption {
    .function(QueryFunction(body))
  }

  var isSkipToken: Bool { if case .skipToken = self { return true } else { return false } }

  static func identical(_ a: QueryFnOption?, _ b: QueryFnOption?) -> Bool {
    switch (a, b) {
    case (nil, nil), (.skipToken?, .skipToken?): return true
    case (.function(let x)?, .function(let y)?): return x === y
    default: return false
    }
  }
}
