// QuarrySwiftUI: SwiftUI property wrappers and environment over the app layer (QuarryApp).
// Apple platforms only; on Linux only its SwiftUI-free helpers (ModelHolder, CacheActivity)
// compile, for Tests/QuarrySwiftUITests, and Scripts/typecheck-apple-stubs.sh type-checks the
// rest against Scripts/AppleStubs.
#if canImport(SwiftUI)
@_exported import QuarryApp
#endif
