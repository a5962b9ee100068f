import Foundation
import Testing
@testable import Quarry

/// The lines of a file, read from a real `FileHandle` a few bytes at a time: an `AsyncSequence`
/// over real I/O (Linux's Foundation has no `FileHandle.bytes`).
struct FileHandleLines: AsyncSequence {
  let url: URL

  struct AsyncIterator: AsyncIteratorProtocol {
    let handle: FileHandle
    var buffer: [UInt8] = []
    var isAtEnd = false

    mutating func next() async throws -> String? {
      while true {
        if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
          let line = String(decoding: buffer[..<newline], as: UTF8.self)
          buffer.removeSubrange(...newline)
          return line
        }
        if isAtEnd {
          defer { buffer = [] }
          return buffer.isEmpty ? nil : String(decoding: buffer, as: UTF8.self)
        }
        try Task.checkCancellation()
        let data = try handle.read(upToCount: 4) ?? Data()
        if data.isEmpty { isAtEnd = true } else { buffer += data }
      }
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    // The test creates the file first; a missing file ends the sequence at once.
    guard let handle = try? FileHandle(forReadingFrom: url) else {
      return AsyncIterator(handle: FileHandle.nullDevice, isAtEnd: true)
    }
    return AsyncIterator(handle: handle)
  }
}

/// A sequence of 1...count that records, at each request, how many chunks the cache holds.
final class CountingSequence: AsyncSequence, @unchecked Sendable {
  // Safe: `requests` is guarded by `lock`; `client` is set once before iteration.
  private let lock = NSLock()
  private var requests: [Int] = []
  let count: Int
  weak var client: QueryClient?
  init(count: Int) { self.count = count }

  var cachedCountAtEachRequest: [Int] { lock.withLock { requests } }

  struct AsyncIterator: AsyncIteratorProtocol {
    let owner: CountingSequence
    var next = 1
    mutating func next() async -> Int? {
      let cached = (try? owner.client?.getQueryData(["numbers"], as: [Int].self))??.count ?? 0
      owner.lock.withLock { owner.requests.append(cached) }
      guard next <= owner.count else { return nil }
      defer { next += 1 }
      return next
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(owner: self) }
}

@Suite struct StreamedQueryTests {
  @Test func linesOfARealFileReachTheObserverOneByOne() async throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-stream-\(UUID().uuidString).txt")
    try "alpha\nbeta\ngamma\n".write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }

    let client = QueryClient()  // a real clock: the function runs on the global executor
    var options = QueryOptions(queryKey: ["lines"])
    options.queryFn = .streamedQuery { _ in FileHandleLines(url: url) }
    let observer = QueryObserver(client: client, options: options)
    var seen: [String] = []
    for await result in observer.results() {
      let lines = (result.data as? [String])?.joined(separator: ",") ?? "-"
      seen.append("\(result.status) \(result.fetchStatus) \(lines)")
      if result.fetchStatus == .idle { break }
    }
    #expect(seen == [
      "pending fetching -",
      "success fetching alpha",
      "success fetching alpha,beta",
      "success fetching alpha,beta,gamma",
      "success idle alpha,beta,gamma",
    ])
    #expect(try client.getQueryData(["lines"], as: [String].self) == ["alpha", "beta", "gamma"])
  }

  @Test func theEngineAsksForAChunkOnlyAfterWritingThePreviousOne() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let sequence = CountingSequence(count: 5)
    var options = QueryOptions(queryKey: ["numbers"])
    options.queryFn = .streamedQuery { context in
      sequence.client = context.client
      return sequence
    }
    let observer = QueryObserver(client: client, options: options)
    let unsubscribe = observer.subscribe { _ in }
    _ = scheduler.advance(by: 0)
    // Each request comes after the previous chunk was written: nothing is read ahead.
    #expect(sequence.cachedCountAtEachRequest == [0, 1, 2, 3, 4, 5])
    #expect(observer.getCurrentResult().data as? [Int] == [1, 2, 3, 4, 5])
    #expect(observer.getCurrentResult().fetchStatus == .idle)
    unsubscribe()
  }

  @Test func aCancelledFetchCancelsTheIterationOfItsSequence() {
    let scheduler = VirtualScheduler()
    let client = QueryClient(scheduler: scheduler)
    let termination = NSLockishBox<String>("running")
    let feed = NSLockishBox<AsyncStream<Int>.Continuation?>(nil)
    var options = QueryOptions(queryKey: ["live"])
    options.queryFn = .streamedQuery { context in
      _ = context.signal  // lets the last observer leaving cancel the fetch
      return AsyncStream<Int> { continuation in
        continuation.onTermination = { reason in
          if case .cancelled = reason { termination.value = "cancelled" } else { termination.value = "finished" }
        }
        feed.value = continuation
      }
    }
    let observer = QueryObserver(client: client, options: options)
    let unsubscribe = observer.subscribe { _ in }
    feed.value?.yield(1)
    _ = scheduler.advance(by: 0)
    #expect(observer.getCurrentResult().data as? [Int] == [1])
    #expect(observer.getCurrentResult().fetchStatus == .fetching)
    unsubscribe()
    _ = scheduler.advance(by: 0)
    #expect(termination.value == "cancelled")
    #expect(client.getQueryState(["live"])?.fetchStatus == .idle)
    #expect(client.getQueryData(["live"]) as? [Int] == [1])
  }
}

/// A value guarded by a lock, for closures that tests hand to the engine.
final class NSLockishBox<T>: @unchecked Sendable {
  // Safe: `storage` is guarded by `lock`.
  private let lock = NSLock()
  private var storage: T
  init(_ value: T) { storage = value }
  var value: T {
    get { lock.withLock { storage } }
    set { lock.withLock { storage = newValue } }
  }
}
