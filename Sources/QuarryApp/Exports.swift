// The app layer re-exports the engine: one import gives both. Where both layers have a type of
// the same name (`QueryState`), this module's wins in code that imports it (Swift prefers the
// declaration of the importing module), and the engine's stays reachable as `Quarry.QueryState`.
@_exported import Quarry
