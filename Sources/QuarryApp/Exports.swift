// The app layer re-exports the engine: one import gives both. Its view-state enums have names
// of their own (`QueryViewState`, `MutationViewState`), distinct from the engine's TanStack
// `QueryState`/`MutationState` structs (see ARCHITECTURE.md, "The app layer").
@_exported import Quarry
