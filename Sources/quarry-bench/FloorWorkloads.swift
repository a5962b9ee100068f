import Quarry
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Quarry-only lower bounds (`floor.*`): the part of a workload that no change to the engine can
/// remove, timed alone, to compare with TanStack's time per operation divided by 5 (issue 14's
/// goal). See Benchmarks/README.md.
///
/// - `floor.alloc` / `floor.free`: the two objects a keyed write of a new key allocates and a
///   cleared query frees (the query and its data box; since the tenth pass the hash string is
///   written only when read), with the same sizes: a Swift object of the query's allocation size
///   whose deinit releases a real ``DataBox``. `floor.free` times dropping them (release, deinit,
///   free), as `clear()` does; `floor.alloc` times building them.
/// - `floor.free.malloc`: the same two blocks freed with `free` alone (glibc's share).
/// - `floor.task`: the Swift `Task` a query function call needs, made as the engine makes it
///   (`Task.immediate` on the scheduler's executor, an `async throws` function called and its
///   result stored), run to completion, 10k times as in `invalidate.settled`.
enum FloorWorkloads {
  static func run(rounds: Int) -> [Measurement] {
    var results: [[Measurement]] = [[], [], [], []]
    let sizes = objectSizes()
    let n = CacheWorkloads.keyCount
    for _ in 0..<rounds {
      var objects: [FloorQuery] = []
      objects.reserveCapacity(n)
      results[0].append(measure("floor.alloc", n: n) { allocate(&objects, size: sizes.query, count: n) })
      precondition(allocationSize(Unmanaged.passUnretained(objects[0]).toOpaque()) == sizes.query)
      results[1].append(measure("floor.free", n: n) { release(&objects) })

      var blocks: [UnsafeMutableRawPointer?] = []
      blocks.reserveCapacity(2 * n)
      for _ in 0..<n {
        blocks.append(malloc(sizes.query))
        blocks.append(malloc(sizes.box))
      }
      results[2].append(measure("floor.free.malloc", n: n) { freeBlocks(blocks) })
      results[3].append(task())
    }
    return results.map(median)
  }

  /// The allocation sizes of a query holding data and of its data box, read from a real one.
  static func objectSizes() -> (query: Int, box: Int) {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(CacheWorkloads.key(1), value: 1)
    let query = client.queryCache.getAll()[0]
    let box = query.state.dataBox!
    let sizes = (
      allocationSize(Unmanaged.passUnretained(query).toOpaque()),
      allocationSize(Unmanaged.passUnretained(box).toOpaque()))
    client.clear()
    return sizes
  }

  /// 10k `Task.immediate` runs of an `async throws` function on a virtual scheduler's executor,
  /// each storing its result, as `Query.runQueryFn` starts a query function (without the
  /// promise, signal and context around it).
  static func task() -> Measurement {
    let n = 10_000
    let scheduler = VirtualScheduler()
    let executor = scheduler.taskExecutor
    let results = FloorResults(count: n)
    let fn: @Sendable (Int) async throws -> any Sendable = { i in i + 1 }
    let m = measure("floor.task", n: n) { runTasks(n, fn, on: scheduler, executor, into: results) }
    precondition(results.values[7] as? Int == 8)
    return m
  }

  // The timed parts, each a function of its own (`--toggle-collect` for callgrind).

  @inline(never)
  static func allocate(_ objects: inout [FloorQuery], size: Int, count: Int) {
    for i in 0..<count { objects.append(FloorQuery.make(size: size, data: DataBox(i))) }
  }

  @inline(never)
  static func release(_ objects: inout [FloorQuery]) { objects = [] }

  @inline(never)
  static func freeBlocks(_ blocks: [UnsafeMutableRawPointer?]) { for block in blocks { free(block) } }

  @inline(never)
  static func runTasks(
    _ n: Int, _ fn: @escaping @Sendable (Int) async throws -> any Sendable, on scheduler: VirtualScheduler,
    _ executor: (any TaskExecutor)?, into results: FloorResults
  ) {
    for i in 0..<n {
      // `Task<Void, any Error>`, as the engine makes it (the non-throwing `Task.immediate`
      // allocates a thunk's context more).
      Task<Void, any Error>.immediate(executorPreference: executor) { () async throws -> Void in
        do { results.values[i] = try await fn(i) } catch { results.values[i] = error }
      }
    }
    scheduler.runUntilIdle()
  }
}

/// The usable size of a heap block (glibc's `malloc_usable_size`, Darwin's `malloc_size`).
func allocationSize(_ pointer: UnsafeMutableRawPointer) -> Int {
  #if canImport(Darwin)
  return malloc_size(pointer)
  #else
  return glibcUsableSize(pointer)
  #endif
}

#if !canImport(Darwin)
@_silgen_name("malloc_usable_size")
private func glibcUsableSize(_ pointer: UnsafeMutableRawPointer) -> Int
#endif

/// What a cleared query frees beyond itself: its data box.
struct FloorFields {
  var data: DataBox
}

/// A Swift object of a query's allocation size holding a data box (its header, a stored
/// property, is released with it).
final class FloorQuery: ManagedBuffer<FloorFields, UInt8> {
  static func make(size: Int, data: DataBox) -> FloorQuery {
    // The object is its header (16 bytes), the fields, then the tail bytes.
    let tail = size - 16 - MemoryLayout<FloorFields>.stride
    let object = create(minimumCapacity: tail) { _ in FloorFields(data: data) }
    return unsafeDowncast(object, to: FloorQuery.self)
  }
}

/// Results written by the benchmark's tasks (all on the benchmark's thread).
final class FloorResults: @unchecked Sendable {
  // Safe: the tasks run on the thread that drives the virtual scheduler, one at a time.
  var values: [any Sendable]
  init(count: Int) { values = Array(repeating: 0, count: count) }
}
