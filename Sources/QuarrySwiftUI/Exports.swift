// QuarrySwiftUI: SwiftUI property wrappers and environment over the app layer (QuarryApp).
// Apple platforms only; on Linux the module compiles to nothing (its sources are type-checked
// there against Scripts/AppleStubs by Scripts/typecheck-apple-stubs.sh).
#if canImport(SwiftUI)
@_exported import QuarryApp
#endif
