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
    // The gc timer is the last member (9 bytes): at 296 the query takes 305 bytes, a 320-byte
    // chunk of glibc's allocator (352 bytes and 368 before the members were ordered, its offset
    // 320). Its offset, not the chunk the allocator hands out (a free chunk a little larger may
    // be reused whole), is what the layout decides.
    #expect(offset(&query.gcTimer) <= 296)
  }
}

