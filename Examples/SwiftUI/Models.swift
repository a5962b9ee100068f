// SwiftQuery's README examples (UserView, NewTodoForm, TodosScreen), written against Quarry's
// QuarrySwiftUI: the same views, unchanged but for the imports. On Linux,
// Scripts/typecheck-apple-stubs.sh type-checks these files against Scripts/AppleStubs.
import Foundation
import QuarrySwiftUI

struct User: Decodable, Hashable, Sendable {
  let id: Int
  let name: String
}

struct Todo: Codable, Hashable, Identifiable, Sendable {
  let id: Int
  let title: String
}
