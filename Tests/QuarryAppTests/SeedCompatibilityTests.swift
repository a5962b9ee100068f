// The SwiftQuery README's types, as written there (only the import differs, plus
// FoundationNetworking on Linux), compile against Quarry's app layer. Examples that are
// SwiftUI views use the models instead of the property wrappers (those are Apple-only).
import Foundation
import Testing
import QuarryApp
#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

enum QuickStart {
  struct User: Decodable, Hashable {
    let id: Int
    let name: String
  }

  struct FetchUser: QueryFunc {
    func run(_ id: Int) async throws -> User {
      let url = URL(string: "https://api.example.com/users/\(id)")!
      let (data, _) = try await URLSession.shared.data(from: url)
      return try JSONDecoder().decode(User.self, from: data)
    }
  }

  struct FetchCurrentUser: QueryFunc {
    func run(_ variables: QueryVoid) async throws -> User { User(id: 0, name: "me") }
  }
}

enum RawURLSession {
  struct Todo: Codable, Hashable, Identifiable {
    let id: Int
    let title: String
    let completed: Bool
  }

  enum API {
    static let baseURL = URL(string: "https://jsonplaceholder.typicode.com")!
  }

  struct FetchTodos: QueryFunc {
    func run(_ variables: QueryVoid) async throws -> [Todo] {
      let (data, _) = try await URLSession.shared.data(from: API.baseURL.appendingPathComponent("todos"))
      return try JSONDecoder().decode([Todo].self, from: data)
    }
  }

  struct CreateTodo: MutationFunc {
    struct Input: Encodable {
      let title: String
      let completed: Bool
    }

    func run(variables: Input) async throws -> Todo {
      var request = URLRequest(url: API.baseURL.appendingPathComponent("todos"))
      request.httpMethod = "POST"
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
      request.httpBody = try JSONEncoder().encode(variables)

      let (data, _) = try await URLSession.shared.data(for: request)
      return try JSONDecoder().decode(Todo.self, from: data)
    }
  }

  struct LogOut: MutationFunc {
    func run(variables: QueryVoid) async throws { /* ... */ }
  }
}

enum InfiniteExample {
  struct Todo: Codable, Hashable, Identifiable {
    let id: Int
    let title: String
  }

  struct FetchTodos: InfiniteQueryFunc {
    let initialPageParam = 1

    func run(variables: QueryVoid, pageParam: Int) async throws -> [Todo] {
      var components = URLComponents(string: "https://api.example.com/todos")!
      components.queryItems = [.init(name: "page", value: "\(pageParam)")]
      let (data, _) = try await URLSession.shared.data(from: components.url!)
      return try JSONDecoder().decode([Todo].self, from: data)
    }

    func nextPageParam(
      lastPage: [Todo],
      allPages: [[Todo]],
      lastPageParam: Int,
      allPageParams: [Int]
    ) -> Int? {
      // Return nil once the API returns an empty page.
      lastPage.isEmpty ? nil : lastPageParam + 1
    }
  }
}

/// The seed's view code, with models in place of the property wrappers; compiled, not run
/// (it would reach the network).
@MainActor func seedUsage(client: QueryClient, userID: Int, title: String) async {
  let user = QueryModel(QuickStart.FetchUser(), client: client)
  await user.fetch(userID)
  switch user.state {
  case .stale, .fetching: print("ProgressView()")
  case .success(let user): print(user.name)
  case .error(let error): print("Failed: \(error.localizedDescription)")
  }

  let me = QueryModel(QuickStart.FetchCurrentUser(), client: client)
  await me.fetch(.value)

  let create = MutationModel(RawURLSession.CreateTodo(), client: client)
  let listKey = QueryCacheKey<RawURLSession.FetchTodos>(variables: .value)
  await create.mutate(with: .init(title: title, completed: false), invalidating: [listKey])
  await create.mutate(
    with: .init(title: title, completed: false),
    optimistic: { client in
      // Speculatively insert into the cache here.
      // Return a closure that undoes the change on failure:
      return { /* rollback */ }
    },
    invalidating: [listKey]
  )
  if case .pending = create.state { print("disabled") }

  let logout = MutationModel(RawURLSession.LogOut(), client: client)
  await logout.mutate()

  let todos = InfiniteQueryModel(InfiniteExample.FetchTodos(), client: client)
  await todos.fetch()
  switch todos.state {
  case .stale, .fetching: print("ProgressView()")
  case .success(let data), .fetchingNextPage(let data):
    for todo in data.pages.flatMap({ $0 }) { print(todo.title) }
    if todos.hasNextPage { await todos.fetchNextPage() }
  case .error(let error): print(error.localizedDescription)
  }
  let todosKey = InfiniteQueryCacheKey<InfiniteExample.FetchTodos>(variables: .value)
  await create.mutate(with: .init(title: title, completed: false), invalidating: [todosKey])
}

@Suite struct SeedCompatibilityTests {
  @Test func theSeedsKeysNameTypeAndVariablesAndKeepQueryAndInfiniteApart() {
    let plain = QueryCacheKey<RawURLSession.FetchTodos>(variables: .value).queryKey
    let infinite = InfiniteQueryCacheKey<InfiniteExample.FetchTodos>(variables: .value).queryKey
    let user = QueryCacheKey<QuickStart.FetchUser>(variables: 42).queryKey
    #expect(Set([plain.queryHash, infinite.queryHash, user.queryHash]).count == 3)
    #expect(user.queryHash == #"["QuarryAppTests.QuickStart.FetchUser",42]"#)
    #expect(infinite.parts.contains("infinite"))
  }
}
