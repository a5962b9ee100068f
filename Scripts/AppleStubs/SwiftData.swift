// The slice of SwiftData that Sources/QuarryLive/SwiftData uses, declared with Apple's names and
// shapes so Linux can type-check that code (Scripts/typecheck-apple-stubs.sh). Not an implementation.
import Foundation

public final class ModelContainer: Sendable {}

public final class ModelContext {
  public init(_ container: ModelContainer) { self.container = container }
  public let container: ModelContainer
  public static let didSave = Notification.Name("ModelContext.didSave")
  public enum NotificationKey: String {
    case queryGeneration, invalidatedAllIdentifiers
    case insertedIdentifiers = "inserted", updatedIdentifiers = "updated", deletedIdentifiers = "deleted"
  }
  public func fetchHistory<T>(_ descriptor: HistoryDescriptor<T>) throws -> [T] { [] }
}

public struct PersistentIdentifier: Hashable, Sendable {
  public var entityName: String
}

public struct HistoryDescriptor<T> {
  public var predicate: Predicate<T>?
  public init() {}
}

public struct DefaultHistoryToken: Comparable, Codable, Sendable, Hashable {
  var value: Int
  public static func < (a: Self, b: Self) -> Bool { a.value < b.value }
}

public struct DefaultHistoryTransaction: Sendable {
  public var token: DefaultHistoryToken
}
