import Foundation
import QuarryApp

// What the documentation's examples assume exists: an app's model types, its API client, and a
// query client. Examples compile as function bodies with these in scope.

/// A to-do item, as the examples use it.
struct Todo: Sendable, Codable, Hashable, Identifiable {
  var id: Int
  var title: String
}

/// A user, as the examples use it.
struct User: Sendable, Codable, Hashable {
  var id: Int
  var name: String
}

/// The app's server API, as the examples call it.
struct ExampleAPI: Sendable {
  func todos() async throws -> [Todo] { [] }
  func user(_ id: Int) async throws -> User { User(id: id, name: "Ada") }
  func addTodo(_ title: String) async throws -> Todo { Todo(id: 1, title: title) }
  func feed(page: Int) async throws -> [Int] { page < 3 ? [page] : [] }
}

/// The typed query functions the app-layer examples use.
struct FetchUser: QueryFunc {
  func run(_ id: Int) async throws -> User { try await api.user(id) }
}

/// The to-do list as a typed query.
struct FetchTodoList: QueryFunc {
  func run(_ variables: QueryVoid) async throws -> [Todo] { try await api.todos() }
}

let api = ExampleAPI()
let client = QueryClient(scheduler: VirtualScheduler())
let newTodo = Todo(id: 2, title: "buy milk")
/// Where the persistence examples store the cache.
let cachesDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-examples-cache")
