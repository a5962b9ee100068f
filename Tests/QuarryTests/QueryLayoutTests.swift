@testable import Quarry
import Testing

/// What one cached query costs in memory: a new key's write is bound by the memory it touches
/// (`Benchmarks/README.md`), so these fail when a member makes a query larger.
@Suite struct QueryLayoutTests {
  /// The key table's key is the key alone: `QueryKey` keeps its structural hash, and `Prehashed`
  /// reads it there instead of keeping a second copy.
  @Test func aKeySlotIsTheKeyAlone() {
    #expect(MemoryLayout<Prehashed<QueryKey>>.size == MemoryLayout<QueryKey>.size)
    let key: QueryKey = ["todos", 1, ["page": 2]]
    #expect(Prehashed(key).hash == key.structuralHash)
  }

  /// The members that `clear` reads ahead of releasing a query (`Query.touchLines`) are at most a
  /// line apart, from the first word to the gc timer, the last member.
  @Test func clearReadsEveryLineOfAQuery() {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["a"], value: 1)
    let query = client.queryCache.findAll()[0]
    let base = UInt(bitPattern: Unmanaged.passUnretained(query).toOpaque())
    func offset<T>(_ member: inout T) -> UInt {
      withUnsafeMutablePointer(to: &member) { UInt(bitPattern: $0) - base }
    }
    let read = [
      0, offset(&query.gcCreationsRecorded), offset(&query.stateStorage),
      offset(&query.stateStorage.fetchFailureCount), offset(&query.stateVersion),
      offset(&query.revertStateBox), offset(&query.retryer), offset(&query.gcTime), offset(&query.gcTimer),
    ]
    #expect(read == read.sorted())
    for (a, b) in zip(read, read.dropFirst()) { #expect(b - a <= 64, "\(a) -> \(b)") }
    #if os(Linux)
      // The object's end: nothing past the gc timer's 9 bytes, padded to the allocator's 16.
      let size = mallocUsableSize(Unmanaged.passUnretained(query).toOpaque())
      #expect(UInt(size) <= offset(&query.gcTimer) + 16 + 8)
      // 305 bytes in a 320-byte chunk (352 in 368 before the members were ordered).
      #expect(size <= 312)
    #endif
  }
}

#if os(Linux)
  /// glibc's `malloc_usable_size`: the bytes of the chunk holding an object.
  @_silgen_name("malloc_usable_size")
  private func mallocUsableSize(_ pointer: UnsafeMutableRawPointer) -> Int
#endif
