import Quarry
import Foundation
/// Virtual time across, shared by both sides of a comparison: each distinct time gets a slot
/// wide enough for the most events either trace has at that time (drawn in trace order, so the
/// order within one millisecond shows), and the gap between slots grows with the logarithm of
/// the time between them, so 1 ms and 1 hour both stay readable.
struct TimelineAxis: Sendable {
  /// Axis units per event within a slot.
  var perEvent: Double
  /// The distinct times, ascending.
  var times: [Double]
  /// Each time's slot start and width.
  var slots: [Double: (start: Double, width: Double)]
  /// The whole width.
  var width: Double

  /// The axis for these traces (each already cut to what is drawn) and step times.
  init(traces: [[TimelineEvent]], stepTimes: [Double]) {
    var counts: [Double: Int] = [:]
    for events in traces {
      var here: [Double: Int] = [:]
      for event in events { here[event.t, default: 0] += 1 }
      for (t, n) in here { counts[t] = max(counts[t] ?? 0, n) }
    }
    var stepCounts: [Double: Int] = [:]
    for t in stepTimes { stepCounts[t, default: 0] += 1 }
    for (t, n) in stepCounts { counts[t] = max(counts[t] ?? 0, n) }
    let total = traces.map(\.count).max() ?? 0
    perEvent = total > 2000 ? 3 : total > 600 ? 5 : 9
    times = counts.keys.sorted()
    slots = [:]
    var x = 6.0
    var previous: Double?
    for t in times {
      if let previous { x += TimelineAxis.gap(t - previous) }
      let width = perEvent * Double(max(counts[t]!, 1))
      slots[t] = (x, width)
      x += width
      previous = t
    }
    width = x + 6
  }

  /// The space between two slots `delta` ms apart.
  static func gap(_ delta: Double) -> Double {
    10 + 12 * log10(1 + max(delta, 0))
  }

  /// The position of the `rank`-th event (0-based, in trace order) at time `t`.
  func x(_ t: Double, rank: Int) -> Double {
    guard let slot = slots[t] else { return width }
    return slot.start + perEvent * (Double(rank) + 0.5)
  }

  /// The position of the `index`-th of `count` steps at time `t`, spread across the slot.
  func stepX(_ t: Double, index: Int, count: Int) -> Double {
    guard let slot = slots[t] else { return width }
    return slot.start + slot.width * (Double(index) + 0.5) / Double(max(count, 1))
  }
}
