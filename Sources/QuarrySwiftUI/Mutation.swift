#if canImport(SwiftUI)
import QuarryApp
import SwiftUI

/// A mutation in a view (SwiftQuery's `@Mutation`): the wrapped value is its state, the
/// projected value the ``QuarryApp/MutationModel`` that runs it
/// (`mutate(with:optimistic:invalidating:)`, `mutate()`, `reset()`). The client comes from the
/// environment (`.queryClient(_:)`).
///
/// ```swift apple
/// struct Note: Sendable { let title: String }
/// struct CreateNote: MutationFunc {
///   func run(variables: String) async throws -> Note { Note(title: variables) }
/// }
/// struct NewNoteForm: View {
///   @State private var title = ""
///   @Mutation(CreateNote()) private var create
///
///   var body: some View {
///     Form {
///       TextField("Title", text: $title)
///       Button("Add") {
///         Task { await $create.mutate(with: title) }
///       }
///       .disabled({
///         if case .pending = create { return true } else { return false }
///       }())
///     }
///   }
/// }
/// ```
@MainActor @propertyWrapper
public struct Mutation<F: MutationFunc>: DynamicProperty {
  @Environment(\.queryClient) private var client
  @State private var holder = ModelHolder<MutationModel<F>>()
  private let mutationFunc: F

  /// A mutation of `mutationFunc`.
  nonisolated public init(_ mutationFunc: F) { self.mutationFunc = mutationFunc }

  /// What to show: not run, pending, the result, or the error.
  public var wrappedValue: MutationViewState<F.Value> { projectedValue.state }

  /// The model: `await $mutation.mutate(with: variables, optimistic: …, invalidating: […])`.
  public var projectedValue: MutationModel<F> {
    let mutationFunc = self.mutationFunc
    return holder.model(for: client) { MutationModel(mutationFunc, client: $0) }
  }
}
#endif
