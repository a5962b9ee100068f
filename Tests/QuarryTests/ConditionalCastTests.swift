import Testing
@testable import Quarry

/// `conditionalCast` answers as `as? T` does, on its direct path (the value's own type) and on
/// the general one (everything else), and the typed reads that use it keep their errors.
@Suite struct ConditionalCastTests {
  class Animal: @unchecked Sendable {}  // Safe: no stored properties.
  final class Dog: Animal, @unchecked Sendable {}  // Safe: no stored properties.

  @Test func theValuesOwnTypeIsReadDirectly() {
    #expect(conditionalCast(42 as any Sendable, to: Int.self) == 42)
    #expect(conditionalCast("a long string, stored out of line" as any Sendable, to: String.self) == "a long string, stored out of line")
    #expect(conditionalCast([1, 2, 3] as any Sendable, to: [Int].self) == [1, 2, 3])
    let json: JSONValue = ["a": [1, 2]]
    #expect(conditionalCast(json as any Sendable, to: JSONValue.self) == json)
    let dog = Dog()
    #expect(conditionalCast(dog as any Sendable, to: Dog.self) === dog)
  }

  @Test func otherTypesGetAsQuestionMarksAnswer() {
    #expect(conditionalCast(42 as any Sendable, to: String.self) == nil)
    #expect(conditionalCast(42 as any Sendable, to: Double.self) == nil)
    let dog = Dog()
    #expect(conditionalCast(dog as any Sendable, to: Animal.self) === dog)  // a subclass
    #expect(conditionalCast(42 as any Sendable, to: Int?.self) == .some(42))  // an Optional target
    #expect(conditionalCast(42 as any Sendable, to: (any Sendable).self) as? Int == 42)  // an existential
    #expect(conditionalCast(42 as any Sendable, to: (any Hashable).self) as? Int == 42)
    #expect(conditionalCast(Int?.none as any Sendable, to: Int.self) == nil)
  }

  struct Three: Sendable, Equatable { var a = 1, b = 2, c = 3 }  // three words: inline
  struct Four: Sendable, Equatable { var a = 1, b = 2, c = 3, d = 4 }  // four: out of line
  struct Named: Sendable, Equatable { var name = "a name long enough to live on the heap", id = 9 }  // three
  struct TwoNames: Sendable, Equatable { var first = "a first name, on the heap too", last = "b" }  // four
  final class Holder: @unchecked Sendable { weak var dog: Dog? }  // Safe: tests only.
  struct WeakRef: @unchecked Sendable { weak var dog: Dog? }  // Safe: tests only; not bitwise takable.
  enum Payload: Sendable, Equatable { case none, some(Int, String) }

  /// `inlineValue` reads a value of exactly `T` held in the existential's buffer, answers `nil`
  /// for one held out of line or of another type, and what it reads is `as? T`'s.
  @Test func theInlineValueIsAsQuestionMarksForValuesInTheBuffer() {
    #expect(inlineValue(42 as any Sendable, as: Int.self) == 42)
    #expect(inlineValue(-0.5 as any Sendable, as: Double.self) == -0.5)
    #expect(inlineValue(true as any Sendable, as: Bool.self) == true)
    #expect(inlineValue("short" as any Sendable, as: String.self) == "short")
    let long = String(repeating: "heap ", count: 20)
    #expect(inlineValue(long as any Sendable, as: String.self) == long)
    #expect(inlineValue(Three() as any Sendable, as: Three.self) == Three())
    #expect(inlineValue(Payload.some(3, long) as any Sendable, as: Payload.self) == .some(3, long))
    #expect(inlineValue([1, 2] as any Sendable, as: [Int].self) == [1, 2])
    let json: JSONValue = ["a": [1, "b"]]
    #expect(inlineValue(json as any Sendable, as: JSONValue.self) == json)
    let dog = Dog()
    #expect(inlineValue(dog as any Sendable, as: Dog.self) === dog)
    #expect(inlineValue(Named() as any Sendable, as: Named.self) == Named())
    // Out of line (four words; two Strings; not bitwise takable): `nil`, and `conditionalCast`
    // still reads them.
    #expect(inlineValue(Four() as any Sendable, as: Four.self) == nil)
    #expect(conditionalCast(Four() as any Sendable, to: Four.self) == Four())
    #expect(inlineValue(TwoNames() as any Sendable, as: TwoNames.self) == nil)
    #expect(conditionalCast(TwoNames() as any Sendable, to: TwoNames.self) == TwoNames())
    let weak = WeakRef(dog: dog)
    #expect(inlineValue(weak as any Sendable, as: WeakRef.self) == nil)
    #expect(conditionalCast(weak as any Sendable, to: WeakRef.self)?.dog === dog)
    // Other types, and targets `as?` sees through: `nil` here, `as? T`'s answer there.
    #expect(inlineValue(42 as any Sendable, as: Double.self) == nil)
    #expect(inlineValue(42 as any Sendable, as: Int?.self) == nil)
    #expect(inlineValue(dog as any Sendable, as: Animal.self) == nil)
    #expect(inlineValue(42 as any Sendable, as: (any Sendable).self) == nil)
    #expect(inlineValue(Int?.some(4) as any Sendable, as: Int.self) == nil)
    #expect(conditionalCast(Int?.some(4) as any Sendable, to: Int.self) == (Int?.some(4) as any Sendable) as? Int)
  }

  /// A reference read through `inlineValue` is retained: the object outlives the value it was
  /// read from.
  @Test func anInlineReadRetainsWhatItReads() {
    let holder = Holder()
    var read: Dog?
    do {
      var value: any Sendable = Dog()
      read = inlineValue(value, as: Dog.self)
      holder.dog = read
      value = 0
      _ = value
    }
    #expect(holder.dog != nil)
    read = nil
    #expect(holder.dog == nil)
  }

  @Test func theTypedReadReadsDecodesAndThrowsAsBefore() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["n"], value: 7)
    client.setQueryData(["json"], value: ["x": 1] as JSONValue)
    #expect(try client.getQueryData(["n"], as: Int.self) == 7)
    #expect(try client.getQueryData(["missing"], as: Int.self) == nil)
    struct Point: Decodable, Equatable { var x: Int }
    #expect(try client.getQueryData(["json"], as: Point.self) == Point(x: 1))  // JSON decoded
    #expect(throws: QuarryError.self) { try client.getQueryData(["n"], as: String.self) }
    #expect(try client.getQueryData(["n"], as: Int.self) == 7)  // a mismatch overwrote nothing
  }

  @Test func anObserverResultReadsAndDecodesAsTheStateDoes() throws {
    let client = QueryClient(scheduler: VirtualScheduler())
    client.setQueryData(["json"], value: ["x": 1] as JSONValue)  // as restored or hydrated data is
    client.setQueryData(["n"], value: 7)
    var options = QueryOptions(queryKey: ["json"])
    options.enabled = .value(false)
    let json = QueryObserver(client: client, options: options).getCurrentResult()
    options.queryKey = ["n"]
    let number = QueryObserver(client: client, options: options).getCurrentResult()
    struct Point: Decodable, Equatable { var x: Int }
    #expect(try json.data(as: Point.self) == Point(x: 1))
    #expect(try json.data(as: Point.self) == client.getQueryState(["json"])?.data(as: Point.self))
    #expect(try json.data(as: JSONValue.self) == ["x": 1])
    #expect(try number.data(as: Int.self) == 7)
    #expect(throws: QuarryError.self) { try number.data(as: String.self) }
  }
}
