import Foundation
import QuarryApp

/// A to-do item.
struct Todo: Sendable, Codable, Hashable, Identifiable {
  var id: Int
  var title: String
}

/// A fake server whose answers take virtual time and can be scripted to fail.
final class FakeServer: @unchecked Sendable {
  // Safe: every field is guarded by `lock`.
  private let lock = NSLock()
  private var storedTodos: [Todo] = [Todo(id: 1, title: "milk")]
  private var failuresLeft = 0
  private(set) var calls: [String] = []
  let scheduler: VirtualScheduler
  init(scheduler: VirtualScheduler) { self.scheduler = scheduler }

  func failNext(_ count: Int = 1) { lock.withLock { failuresLeft = count } }
  var callLog: [String] { lock.withLock { calls } }

  func todos() async throws -> [Todo] {
    lock.withLock { calls.append("GET /todos") }
    await scheduler.sleep(100)
    return lock.withLock { storedTodos }
  }

  func add(_ title: String) async throws -> Todo {
    lock.withLock { calls.append("POST /todos \(title)") }
    await scheduler.sleep(50)
    return try lock.withLock {
      if failuresLeft > 0 {
        failuresLeft -= 1
        throw ServerError.unavailable
      }
      let todo = Todo(id: storedTodos.count + 1, title: title)
      storedTodos.append(todo)
      return todo
    }
  }
}

enum ServerError: Error, Equatable { case unavailable, notFound }

struct FetchTodos: QueryFunc {
  let server: FakeServer
  var options: QueryFuncOptions { QueryFuncOptions(retry: 0) }
  func run(_ variables: QueryVoid) async throws -> [Todo] { try await server.todos() }
}

struct FetchTodo: QueryFunc {
  let server: FakeServer
  var options: QueryFuncOptions { QueryFuncOptions(retry: 0) }
  func run(_ id: Int) async throws -> Todo {
    guard let todo = try await server.todos().first(where: { $0.id == id }) else { throw ServerError.notFound }
    return todo
  }
}

struct Search: Hashable, Sendable, Codable {
  var text: String
  var page: Int
}

struct SearchTodos: QueryFunc {
  func run(_ search: Search) async throws -> [Todo] { [] }
}
