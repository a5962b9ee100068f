/// A contiguous run of results sharing a section key (results should be sorted by it first), as
/// `NSFetchedResultsController` derives sections from its first sort key.
public struct LiveSection: Sendable, Equatable {
  /// The section key shared by its records.
  public var name: String
  /// The records' indices in the results.
  public var range: Range<Int>

  /// A section.
  public init(name: String, range: Range<Int>) {
    self.name = name
    self.range = range
  }

  /// The sections of `records` by `key`: a new section begins wherever the key changes.
  public static func sections<Record>(of records: [Record], key: (Record) -> String) -> [LiveSection] {
    var sections: [LiveSection] = []
    var start = 0
    for index in records.indices {
      let name = key(records[index])
      if let last = sections.last, last.name == name {
        sections[sections.count - 1].range = start..<(index + 1)
      } else {
        start = index
        sections.append(LiveSection(name: name, range: index..<(index + 1)))
      }
    }
    return sections
  }
}
