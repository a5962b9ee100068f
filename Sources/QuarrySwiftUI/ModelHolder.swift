// Compiled on every platform (no SwiftUI in it), so Tests/QuarrySwiftUITests checks it on Linux.
import QuarryApp

/// Keeps a wrapper's model across view updates (inside `@State`), made on first use with the
/// environment's client, and made again if the environment hands over another client.
/// Not observable itself: views observe the model it holds.
@MainActor
final class ModelHolder<Model: AnyObject> {
  private var model: Model?
  private var client: QueryClient?

  /// An empty holder; the model is made when a view first reads it.
  nonisolated init() {}

  /// The model for `client`, made with `make` the first time (or when the client changed).
  func model(for client: QueryClient, make: (QueryClient) -> Model) -> Model {
    if let model, self.client === client { return model }
    let made = make(client)
    model = made
    self.client = client
    return made
  }
}
