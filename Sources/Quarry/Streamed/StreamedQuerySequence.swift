#if compiler(>=6.2)
/// The sequences a streamed query reads: any `AsyncSequence` whose type can be named from another
/// task (every type whose `AsyncSequence` conformance is not isolated to an actor).
public typealias StreamedQuerySequence = AsyncSequence & SendableMetatype
#else
/// The sequences a streamed query reads: any `AsyncSequence`.
public typealias StreamedQuerySequence = AsyncSequence
#endif
