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
