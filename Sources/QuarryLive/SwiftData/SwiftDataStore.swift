#if canImport(SwiftData)
import Foundation
import SwiftData

/// A SwiftData container as a ``LiveStore`` (Apple platforms).
///
/// - **Reads** run on a fresh `ModelContext` of the container, off the main thread; a
///   descriptor maps models to `Sendable` values inside ``LiveDescriptor/fetch(_:)``, so models
///   never leave the read.
/// - **Commits** are `ModelContext.didSave` notifications of any context of this container (the
///   main context, background contexts, `ModelActor`s), never private notifications; each names
///   the entities of its inserted, updated and deleted identifiers.
/// - **Other processes** (widgets, extensions, CloudKit imports) appear in the persistent history:
///   call ``checkForExternalChanges()`` when the app becomes active (iOS 18, macOS 15).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
public final class SwiftDataStore: LiveStore, @unchecked Sendable {
  /// A read sees a fresh context.
  public typealias Reader = ModelContext

  /// The container read and observed.
  public let container: ModelContainer
  // Safe: `version` and `historyToken` are only touched while `lock` is held; `observation` is set
  // in init and only read in deinit; `observers` and `queue` are thread-safe.
  private let lock = NSLock()
  private var version: UInt64 = 0
  private var historyToken: (any Sendable)?
  private let observers = CommitObservers()
  private let queue = DispatchQueue(label: "QuarryLive.SwiftDataStore.read")
  private var observation: (any NSObjectProtocol)?

  /// Observes `container`.
  public init(container: ModelContainer) {
    self.container = container
    observation = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: nil, queue: nil) {
      [weak self] notification in
      guard let self, let context = notification.object as? ModelContext, context.container === self.container else { return }
      let keys: [ModelContext.NotificationKey] = [.insertedIdentifiers, .updatedIdentifiers, .deletedIdentifiers]
      var entities = Set<String>()
      for key in keys {
        for identifier in notification.userInfo?[key.rawValue] as? [PersistentIdentifier] ?? [] {
          entities.insert(identifier.entityName)
        }
      }
      self.commit(entities: entities.isEmpty ? nil : entities)
    }
  }

  deinit {
    if let observation { NotificationCenter.default.removeObserver(observation) }
  }

  /// Runs `body` on a fresh context of the container, on the store's queue.
  public func read<T: Sendable>(_ body: @escaping @Sendable (ModelContext) throws -> T) async throws -> T {
    let container = container
    return try await withCheckedThrowingContinuation { continuation in
      queue.async {
        continuation.resume(with: Result { try body(ModelContext(container)) })
      }
    }
  }

  /// Registers `onCommit`: called after each save of a context of the container.
  public func observeCommits(_ onCommit: @escaping @Sendable (StoreCommit) -> Void) -> LiveSubscription {
    observers.add(onCommit)
  }

  /// Reads the persistent history since the last look (other processes, CloudKit) and reports one
  /// commit of unknown entities if it grew. Returns whether it did.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  @discardableResult
  public func checkForExternalChanges() throws -> Bool {
    let context = ModelContext(container)
    var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
    if let token = lock.withLock({ historyToken }) as? DefaultHistoryToken {
      descriptor.predicate = #Predicate { transaction in transaction.token > token }
    }
    guard let last = try context.fetchHistory(descriptor).last else { return false }
    lock.withLock { historyToken = last.token }
    commit(entities: nil)
    return true
  }

  private func commit(entities: Set<String>?) {
    let commit = lock.withLock {
      version += 1
      return StoreCommit(version: version, entities: entities)
    }
    observers.notify(commit)
  }
}
#endif
