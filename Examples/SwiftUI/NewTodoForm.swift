// SwiftQuery README, "Mutations in Depth": the form, then invalidation and an optimistic
// update (the README's fragments, completed).
import Foundation
import QuarrySwiftUI
import SwiftUI

struct CreateTodo: MutationFunc {
  struct Input { let title: String }
  func run(variables: Input) async throws -> Todo {
    // POST /todos
    Todo(id: Int.random(in: 1...1_000_000), title: variables.title)
  }
}

struct FetchTodoList: QueryFunc {
  func run(_ variables: QueryVoid) async throws -> [Todo] { [] }
}

struct NewTodoForm: View {
  @State private var title = ""
  @Mutation(CreateTodo()) private var create

  var body: some View {
    Form {
      TextField("Title", text: $title)
      Button("Add") {
        Task { await $create.mutate(with: .init(title: title)) }
      }
      .disabled({
        if case .pending = create { return true } else { return false }
      }())
    }
  }
}

/// "Invalidating cache entries after a mutation" and "Optimistic updates".
struct NewTodoOptimisticForm: View {
  @State private var title = ""
  @Mutation(CreateTodo()) private var create

  var body: some View {
    Form {
      TextField("Title", text: $title)
      Button("Add") {
        Task { await add(title) }
      }
    }
  }

  private func add(_ title: String) async {
    let listKey = QueryCacheKey<FetchTodoList>(variables: .value)
    await $create.mutate(
      with: .init(title: title),
      optimistic: { client in
        // Speculatively insert into the cache here.
        let previous = try client.getQueryData(listKey)
        try client.setQueryData(listKey) { old in (old ?? []) + [Todo(id: -1, title: title)] }
        // Return a closure that undoes the change on failure:
        return { _ = try? client.setQueryData(listKey) { _ in previous } }
      },
      invalidating: [listKey]
    )
  }
}

struct LogOut: MutationFunc {
  func run(variables: QueryVoid) async throws { /* ... */ }
}

/// "Mutations without variables".
struct LogOutButton: View {
  @Mutation(LogOut()) private var logout

  var body: some View {
    Button("Log out") {
      Task { await $logout.mutate() }
    }
  }
}
