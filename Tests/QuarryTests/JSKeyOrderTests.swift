import Testing
@testable import Quarry
import QuarryScenarios

/// `JSONValue.jsKeyOrder`, which compares UTF-8 bytes while it can, against JavaScript's order by
/// UTF-16 code units, for strings where the two encodings order differently (U+E000-U+FFFF
/// against characters beyond U+FFFF), ASCII against non-ASCII, prefixes and combining marks.
@Suite struct JSKeyOrderTests {
  static let pieces = [
    "", "a", "b", "A", "z", "~", "\u{7F}", "\u{80}", "\u{E9}", "e\u{301}", "\u{7FF}", "\u{800}",
    "\u{D7FF}", "\u{E000}", "\u{FFFD}", "\u{FFFF}", "\u{10000}", "\u{1F600}", "\u{10FFFF}", "日", "本",
  ]

  static func reference(_ a: String, _ b: String) -> Bool { a.utf16.lexicographicallyPrecedes(b.utf16) }

  @Test func everyPairOfPiecesOrdersAsUTF16() {
    var strings = Self.pieces
    for x in Self.pieces { for y in Self.pieces { strings.append(x + y) } }
    for a in strings {
      for b in strings {
        #expect(JSONValue.jsKeyOrder(a, b) == Self.reference(a, b), "\(Array(a.unicodeScalars)) vs \(Array(b.unicodeScalars))")
      }
    }
  }

  @Test func aPrivateUseCharacterFollowsASurrogatePairAsInJavaScript() {
    // UTF-8 (and code point) order puts U+E000 first; UTF-16 puts U+10000 (0xD800 0xDC00) first.
    #expect(JSONValue.jsKeyOrder("\u{10000}", "\u{E000}"))
    #expect(!JSONValue.jsKeyOrder("\u{E000}", "\u{10000}"))
    #expect(JSONValue.jsKeyOrder("k\u{1F600}", "k\u{FFFD}x"))
  }

  @Test func randomStringsOrderAsUTF16() {
    var g = SplitMix64(seed: 2026)
    for _ in 0..<20_000 {
      let a = (0..<Int(g.next() % 4)).map { _ in Self.pieces[Int(g.next() % UInt64(Self.pieces.count))] }.joined()
      let b = (0..<Int(g.next() % 4)).map { _ in Self.pieces[Int(g.next() % UInt64(Self.pieces.count))] }.joined()
      #expect(JSONValue.jsKeyOrder(a, b) == Self.reference(a, b))
      #expect(JSONValue.jsKeyOrder(b, a) == Self.reference(b, a))
    }
  }

  @Test func membersSortedByTheirFirstBytesOrderAsUTF16() {
    var g = SplitMix64(seed: 18)
    let long = ["abcdefgh", "abcdefghi", "abcdefgh\u{E000}", "abcdefgh\u{10000}", "abcdefg\u{E9}", "abcdefg\u{0}", "abcdefg"]
    for _ in 0..<5_000 {
      var members: [String: JSONValue] = [:]
      for _ in 0..<Int(g.next() % 12) {
        let name = g.next() % 3 == 0
          ? long[Int(g.next() % UInt64(long.count))]
          : (0..<Int(g.next() % 4)).map { _ in Self.pieces[Int(g.next() % UInt64(Self.pieces.count))] }.joined()
        members[name] = .null
      }
      #expect(JSONValue.sortedByJSKeyOrder(members).map { members[$0].key } == members.keys.sorted(by: Self.reference))
    }
  }

  @Test func allASCIINamesSharingTheirFirstEightBytesOrderAsUTF16() {
    let names = ["abcdefgh", "abcdefghi", "abcdefg", "abcdefg\u{0}", "abcdefgh\u{0}", "b", "a\u{0}", "a", "", "~", "\u{7F}", "ABCDEFGHZ", "ABCDEFGHA"]
    var members: [String: JSONValue] = [:]
    for name in names { members[name] = .null }
    #expect(JSONValue.sortedByJSKeyOrder(members).map { members[$0].key } == names.sorted(by: Self.reference))
  }
}
