#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's page faults and system time so far (`getrusage`): what fresh memory cost a
/// workload, read around it (`scale.pagefaults.N`).
struct PageFaults {
  /// Minor and major page faults taken so far.
  var faults: Int
  /// The kernel's time on the process's behalf so far, in microseconds (mostly page faults in a
  /// workload that writes fresh memory).
  var systemMicroseconds: Int

  /// The counts now.
  static func now() -> PageFaults {
    var usage = rusage()
    #if canImport(Glibc)
    _ = getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
    _ = getrusage(RUSAGE_SELF, &usage)
    #endif
    return PageFaults(
      faults: Int(usage.ru_minflt) + Int(usage.ru_majflt),
      systemMicroseconds: Int(usage.ru_stime.tv_sec) * 1_000_000 + Int(usage.ru_stime.tv_usec))
  }

  /// The faults taken since `start` (as `n`) and the system time they took (as `ms`), so the
  /// line's ops/s is faults per second of system time.
  func since(_ start: PageFaults, name: String) -> Measurement {
    Measurement(name: name, n: faults - start.faults, milliseconds: Double(systemMicroseconds - start.systemMicroseconds) / 1000)
  }
}
