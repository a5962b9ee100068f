// SwiftQuery README, "Infinite Queries in Depth".
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLSession on Linux
#endif
import QuarrySwiftUI
import SwiftUI

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

struct TodosScreen: View {
  @InfiniteQuery(FetchTodos()) private var todos

  var body: some View {
    List {
      switch todos {
      case .stale, .fetching:
        ProgressView()

      case .success(let data), .fetchingNextPage(let data):
        ForEach(data.pages.flatMap { $0 }) { todo in
          Text(todo.title)
        }
        if $todos.hasNextPage {
          Button("Load more") {
            Task { await $todos.fetchNextPage() }
          }
        }

      case .error(let error):
        Text(error.localizedDescription).foregroundStyle(.red)
      }
    }
    .task { await $todos.fetch() }
  }
}
