#if canImport(SwiftUI)
import SwiftUI

extension View {
  /// Keeps a live query running while the view is on screen and hands its results to
  /// `handleResults` (on the main actor), its fetch errors to `onError`: SwiftDataX's
  /// `.query(_:handleResults:onError:)` over any ``LiveStore``.
  ///
  /// A new query starts only when `descriptor` or `store` changes (the equatable blueprint);
  /// the first results arrive as soon as they load, later ones after each commit that changes
  /// them. Wrap assignments in `withAnimation` inside `handleResults` to animate them.
  @available(macOS 12, iOS 15, tvOS 15, watchOS 8, *)
  public func query<Store: LiveStore, Descriptor: LiveDescriptor>(
    _ descriptor: Descriptor, in store: Store,
    handleResults: @escaping @MainActor @Sendable ([Descriptor.Record]) -> Void,
    onError: @escaping @MainActor @Sendable (any Error) -> Void = { _ in }
  ) -> some View where Store.Reader == Descriptor.Reader {
    task(id: LiveQueryTaskID(store: ObjectIdentifier(store), descriptor: descriptor)) {
      let controller = LiveQueryController(store: store, descriptor: descriptor)
      for await update in controller.updates(withCurrentValue: true) {
        switch update {
        case .success(let records): await MainActor.run { handleResults(records) }
        case .failure(let error): await MainActor.run { onError(error) }
        }
      }
    }
  }
}

/// What restarts a `.query` modifier's task: another store or another descriptor.
struct LiveQueryTaskID<Descriptor: LiveDescriptor>: Hashable {
  var store: ObjectIdentifier
  var descriptor: Descriptor
}
#endif
