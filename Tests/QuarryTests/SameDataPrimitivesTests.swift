import Testing
@testable import Quarry

/// `sameData` of two boxes of common primitives (`Int`, `String`, `Double`, `Bool`) reads two
/// `Int`s or `Double`s in place and asks `primitivesEqual` directly for the rest: it answers as
/// `valuesEqual` does, for every pair of such values, equal or not, of one type or two.
@Suite struct SameDataPrimitivesTests {
  @Test func commonPrimitivesCompareAsValuesEqualDoes() {
    let values: [any Sendable] = [
      1, 1, 2, 0, Double(1), Double(0), -0.0, Double.nan, Double.infinity, true, false,
      "a", "a", "b", "\u{E9}", "e\u{301}", "",
    ]
    var equalPairs = 0
    for a in values {
      for b in values {
        let x = DataBox(a)
        let y = DataBox(b)
        #expect(x.isCommonPrimitive && y.isCommonPrimitive)
        let expected = valuesEqual(a, b)
        #expect(sameData(x, y) == expected, "\(a) vs \(b)")
        if expected { equalPairs += 1 }
      }
    }
    // Spot checks of JavaScript's `===`: by value, NaN unequal to itself, 0 and -0 equal,
    // canonically equivalent strings equal, and no equality across types.
    #expect(sameData(DataBox(1), DataBox(1)))
    #expect(!sameData(DataBox(Double.nan), DataBox(Double.nan)))
    #expect(sameData(DataBox(-0.0), DataBox(0.0)))
    #expect(sameData(DataBox("\u{E9}"), DataBox("e\u{301}")))
    #expect(!sameData(DataBox(1), DataBox(Double(1))))
    #expect(!sameData(DataBox(1), DataBox(true)))
    #expect(equalPairs > values.count)
  }

  /// `Int`s and `Double`s are read where they lie in the box (`DataBox.storageOffset`): the
  /// offset is the member's, and a value a box was given in place (`replaceInPlace`) is the one
  /// compared.
  @Test func valuesReadInPlaceAreTheBoxesValues() {
    #expect(DataBox.storageOffset == DataBox.measuredStorageOffset())
    let values: [any Sendable] = [0, 1, -1, Int.max, Int.min, 0.0, -0.0, 1.5, Double.nan, -Double.infinity]
    for a in values {
      for b in values {
        #expect(sameData(DataBox(a), DataBox(b)) == valuesEqual(a, b), "\(a) vs \(b)")
        let reused = DataBox.fresh(a is Int ? 7 : 7.5)
        #expect(reused.replaceInPlace(with: a, sharing: nil) == (type(of: a) == type(of: reused.value)))
        #expect(sameData(reused, DataBox(b)) == valuesEqual(reused.value, b), "in place: \(a) vs \(b)")
      }
    }
  }
}
