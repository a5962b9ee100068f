// The app's root: one client for the tree, mounted (focus from the scene phase, connectivity
// from the network path), and a global fetching indicator.
import QuarrySwiftUI
import SwiftUI

struct RootView: View {
  @State private var client = QueryClient()

  var body: some View {
    Group {
      TodosScreen()
      NewTodoForm()
      ActivityBar()
    }
    .queryClient(client)
  }
}

struct ActivityBar: View {
  @IsFetching private var fetching
  @IsMutating private var saving

  var body: some View {
    if fetching > 0 || saving > 0 {
      ProgressView()
    }
  }
}
