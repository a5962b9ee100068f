import Quarry

/// Scripted streams (`streams` in a fixture): `streamedQuery` query functions whose stream
/// function returns the scripted chunks as an `AsyncSequence` driven by the virtual scheduler.
/// Node twin: `Conformance/tanstack/Interpreter/ScenarioSession+Streams.mjs`.
extension ScenarioSession {
  /// The `streamedQuery` function of stream `name`, made once.
  func streamFunction(_ name: String) -> QueryFunction? {
    guard let stream = scenario.streams[name] else { return nil }
    if let fn = scripts[name]?.function { return fn }
    let streamFn: @Sendable (QueryFunctionContext) async throws -> ScriptedChunks = { [unowned self] context in
      try self.startStream(name, context)
    }
    let mode = stream.refetchMode.flatMap(StreamedQueryRefetchMode.init(rawValue:)) ?? .reset
    // Fixture data is `JSONValue` throughout (initial data, `setQueryData`), so TanStack's default
    // (append each chunk to an array, starting from `[]`) is the `JSONValue` array form of it.
    var initial = JSONValue.array([])
    var reducer = ScenarioSession.reducer("append")
    if let name = stream.reducer, let initialValue = stream.initialValue {
      initial = decoder.data(initialValue) ?? .undefined
      reducer = ScenarioSession.reducer(name)
    }
    let option = QueryFnOption.streamedQuery(refetchMode: mode, initialValue: initial, reducer: reducer, streamFn: streamFn)
    guard case .function(let fn) = option else { return nil }
    scripts[name]!.function = fn
    return fn
  }

  /// One call of a stream function: records it, picks its outcome and returns its chunks.
  private func startStream(_ name: String, _ context: QueryFunctionContext) throws -> ScriptedChunks {
    scripts[name]!.calls += 1
    let n = scripts[name]!.calls
    emit(["ev": "call", "fn": .string(name), "n": .number(Double(n)), "key": .string(context.queryKey.queryHash)])
    let outcomes = scenario.streams[name]!.outcomes
    var script = scripts[name]!
    defer { scripts[name] = script }
    while script.cursor < outcomes.count {
      let times = outcomes[script.cursor].times
      if times == nil || script.used < times! { break }
      script.cursor += 1
      script.used = 0
    }
    guard script.cursor < outcomes.count else {
      failures.append("script exhausted: \(name) (call \(n) at t=\(TraceValues.show(.number(now))))")
      throw ScriptError(message: "script exhausted: \(name)")
    }
    script.used += 1
    let outcome = outcomes[script.cursor]
    if outcome.readSignal { _ = context.signal }
    let producer = ChunkProducer(chunks: outcome.chunks, scheduler: scheduler, decoder: decoder)
    // A stream that read its signal stops when its task is cancelled (after the chunk in
    // flight, as `AsyncThrowingStream(unfolding:)` does); one that did not read it goes on,
    // like a JavaScript generator that never looks at the signal.
    return outcome.readSignal ? .honouringCancellation(AsyncThrowingStream(unfolding: producer.next)) : .ignoringCancellation(producer)
  }

  /// The reducer recipes (`Specs/README.md`, "Scripted streams") and the default, `append`.
  static func reducer(_ name: String) -> @Sendable (JSONValue, JSONValue) -> JSONValue {
    switch name {
    case "append":  // TanStack's default reducer, `addToEnd(items, chunk)`
      return { items, chunk in
        guard case .array(let elements) = items else { return .array([chunk]) }
        return .array(elements + [chunk])
      }
    case "latest": return { _, chunk in chunk }
    default:  // "sum" and "concat": JavaScript's `acc + chunk` on numbers and on strings
      return { acc, chunk in
        switch (acc, chunk) {
        case (.number(let a), .number(let b)): return .number(a + b)
        case (.string(let a), .string(let b)): return .string(a + b)
        default: return .string(TraceValues.show(acc) + TraceValues.show(chunk))
        }
      }
    }
  }
}

/// Produces one scripted stream's chunks, each after its virtual delay (a timer created when the
/// chunk is asked for, as an async generator's `await sleep` is).
final class ChunkProducer: @unchecked Sendable {
  // Safe: replay runs on one thread; the virtual scheduler runs every task on it.
  private let chunks: [StreamChunk]
  private let scheduler: VirtualScheduler
  private let decoder: OptionsDecoder
  private var index = 0

  init(chunks: [StreamChunk], scheduler: VirtualScheduler, decoder: OptionsDecoder) {
    self.chunks = chunks
    self.scheduler = scheduler
    self.decoder = decoder
  }

  /// The next chunk, `nil` at the end; throws the scripted error.
  @Sendable func next() async throws -> JSONValue? {
    guard index < chunks.count else { return nil }
    let chunk = chunks[index]
    index += 1
    if let after = chunk.after { await scheduler.sleep(Double(after)) }
    switch chunk.result {
    case .error(let message), .syncError(let message): throw ScriptError(message: message)
    case .rejection(let value): throw ScriptRejection(value: fixtureValue(value) ?? .null)
    case .value(let value): return decoder.data(value) ?? .undefined  // a fresh copy per chunk
    }
  }
}

/// A scripted stream: an `AsyncThrowingStream` that ends when its task is cancelled, or a
/// sequence that ignores cancellation.
enum ScriptedChunks: AsyncSequence, Sendable {
  case honouringCancellation(AsyncThrowingStream<JSONValue, any Error>)
  case ignoringCancellation(ChunkProducer)

  struct AsyncIterator: AsyncIteratorProtocol {
    var stream: AsyncThrowingStream<JSONValue, any Error>.Iterator?
    let producer: ChunkProducer?

    mutating func next() async throws -> JSONValue? {
      if let producer { return try await producer.next() }
      return try await stream?.next()
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    switch self {
    case .honouringCancellation(let stream): return AsyncIterator(stream: stream.makeAsyncIterator(), producer: nil)
    case .ignoringCancellation(let producer): return AsyncIterator(stream: nil, producer: producer)
    }
  }
}
