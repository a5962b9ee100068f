/// `clear`'s last phase: the insertion order's references dropped, each query freed with what it
/// alone holds, in chunks whose cache lines are read first.
///
/// Freeing a query is a chain of `swift_release`s (the query, then its members from its
/// `deinit`), each an atomic read-modify-write, and x86 orders memory around those: the next
/// load does not start until the one before has finished. At 1M queries none of a query's lines
/// is in the cache any more, so each release waited for its own miss, one after another. Here
/// the lines of a few queries, and then those of their data boxes and keys, are read with plain
/// loads, which the processor runs side by side, before any of them is released; the releases
/// then find their lines in the cache. Nothing is freed later than before, nor in another order.
extension QueryCache {
  /// Queries whose lines are read before they are released (about 8 lines each: enough
  /// independent misses to fill the processor's miss buffers, few enough to stay in L1).
  static let releaseChunk = 8
  /// How many queries ahead `clear`'s first loop reads the lines it will need.
  static let loopAhead = 8

  /// Releases every query of `all` in order, emptying its slots (it holds `nil`s afterwards).
  /// The caller holds the engine lock and `all` holds the last references the cache had.
  /// Returns a sum of the words read, which the caller keeps so that the reads are not left out.
  static func releaseInOrder(_ all: inout [Query?]) -> UInt {
    all.withUnsafeMutableBufferPointer { slots in
      guard let base = slots.baseAddress else { return 0 }
      let count = slots.count
      var sum: UInt = 0
      var start = 0
      // Each chunk: its queries' own lines were read in the step before (`touchLines`); their
      // members' lines are read now, the next chunk's queries' lines with them, and then the
      // chunk is released.
      sum &+= touch(base, start, min(releaseChunk, count), Query.touchLines)
      while start < count {
        let end = min(start + releaseChunk, count)
        sum &+= touch(base, start, end, Query.touchMembers)
        sum &+= touch(base, end, min(end + releaseChunk, count), Query.touchLines)
        for index in start..<end { base[index] = nil }
        start = end
      }
      return sum
    }
  }

  /// `read` of each query in `base[start..<end]`, without retaining it.
  @inline(__always)
  private static func touch(_ base: UnsafeMutablePointer<Query?>, _ start: Int, _ end: Int, _ read: (Query) -> UInt) -> UInt {
    var sum: UInt = 0
    var index = start
    while index < end {
      // Safe: the slot holds its query (the array is borrowed, nothing else writes it) for the
      // call; reading it unretained skips an atomic retain and release, which would wait for
      // the very miss this read starts.
      if let query = base[index] { sum &+= Unmanaged.passUnretained(query)._withUnsafeGuaranteedRef(read) }
      index += 1
    }
    return sum
  }
}

extension Query {
  /// Reads one word of each 64-byte line of the query (a word at most 64 bytes after the one
  /// before, the first and last words included), so that releasing it finds them cached. Every
  /// word read is a member the engine lock guards, which the caller holds, or the object's
  /// type pointer, which never changes: no read races a write.
  @inline(__always)
  static func touchLines(_ query: Query) -> UInt {
    // Safe: the object's first word, its class, is written once when it is allocated; the
    // query is alive (its slot holds it).
    var sum = UnsafeRawPointer(Unmanaged.passUnretained(query).toOpaque()).load(as: UInt.self)
    // In the order of their offsets (`Query`'s members are declared in the order of its memory).
    sum &+= UInt(query.gcCreationsRecorded)
    sum &+= UInt(bitPattern: query.cachePosition ?? 0)
    sum &+= query.stateStorage.dataBox == nil ? 1 : 0
    sum &+= UInt(bitPattern: query.stateStorage.fetchFailureCount)
    sum &+= UInt(bitPattern: query.stateVersion)
    sum &+= query.revertStateBox == nil ? 1 : 0
    sum &+= query.retryer == nil ? 1 : 0
    sum &+= UInt(query.gcTime.bitPattern)
    if case .created(let id) = query.gcTimer { sum &+= UInt(truncatingIfNeeded: id.rawValue) }
    return sum
  }

  /// Reads the words `clear`'s first loop reads and writes of the query (its flags and position,
  /// its fetch, its gc timer), all guarded by the engine lock.
  @inline(__always)
  static func touchLoopLines(_ query: Query) -> UInt {
    var sum = UInt(query.gcCreationsRecorded)
    sum &+= UInt(bitPattern: query.cachePosition ?? 0)
    sum &+= query.retryer == nil ? 1 : 0
    if case .created(let id) = query.gcTimer { sum &+= UInt(truncatingIfNeeded: id.rawValue) }
    return sum
  }

  /// Reads the lines of what the query's `deinit` releases that is not shared with other
  /// queries: its data box and its key's parts.
  @inline(__always)
  static func touchMembers(_ query: Query) -> UInt {
    var sum: UInt = 0
    if let box = query.stateStorage.dataBox {
      // Safe: as in `touchLines`, the box's class word; `commonPrimitive` is a `let`.
      sum &+= UnsafeRawPointer(Unmanaged.passUnretained(box).toOpaque()).load(as: UInt.self)
      sum &+= UInt(box.commonPrimitive)
    }
    if case .inline(let parts) = query.queryKey.storage { sum &+= UInt(bitPattern: parts.count) }
    return sum
  }
}
