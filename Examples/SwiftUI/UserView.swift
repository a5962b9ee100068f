// SwiftQuery README, "Quick Start".
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLSession on Linux
#endif
import QuarrySwiftUI
import SwiftUI

struct FetchUser: QueryFunc {
  func run(_ id: Int) async throws -> User {
    let url = URL(string: "https://api.example.com/users/\(id)")!
    let (data, _) = try await URLSession.shared.data(from: url)
    return try JSONDecoder().decode(User.self, from: data)
  }
}

struct UserView: View {
  let userID: Int
  @Query(FetchUser()) private var user

  var body: some View {
    Group {
      switch user {
      case .stale, .fetching:
        ProgressView()
      case .success(let user):
        Text(user.name).font(.title)
      case .error(let error):
        Text("Failed: \(error.localizedDescription)")
          .foregroundStyle(.red)
      }
    }
    .task(id: userID) {
      await $user.fetch(userID)
    }
  }
}
