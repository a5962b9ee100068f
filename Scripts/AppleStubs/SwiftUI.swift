// The slice of SwiftUI that Sources/QuarryLive/SwiftUI, Sources/QuarrySwiftUI and Examples/SwiftUI
// use, declared with Apple's names and shapes so Linux can type-check that code
// (Scripts/typecheck-apple-stubs.sh). Not an implementation: bodies only satisfy the compiler.
// Where Apple returns a specific wrapper type (`ModifiedContent<Self, …>`), the stub returns
// `some View`; where Apple takes a `LocalizedStringKey`, the stub takes a `StringProtocol`.

// MARK: Views and builders

/// A piece of user interface.
@MainActor @preconcurrency public protocol View {
  associatedtype Body: View
  @ViewBuilder var body: Body { get }
}

extension Never: View {
  public var body: Never { fatalError() }
}

/// Every modifier's result in the stub.
public struct ModifiedContent: View {
  public var body: Never { fatalError() }
}

public struct EmptyView: View {
  nonisolated public init() {}
  public var body: Never { fatalError() }
}

public struct TupleView<T>: View {
  nonisolated public init(_ value: T) {}
  public var body: Never { fatalError() }
}

public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
  public var body: Never { fatalError() }
}

extension Optional: View where Wrapped: View {
  public var body: Never { fatalError() }
}

@resultBuilder public struct ViewBuilder {
  public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
  public static func buildBlock() -> EmptyView { EmptyView() }
  public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
  public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
    TupleView((repeat each content))
  }
  public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
  public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent) -> _ConditionalContent<TrueContent, FalseContent> {
    _ConditionalContent()
  }
  public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent) -> _ConditionalContent<TrueContent, FalseContent> {
    _ConditionalContent()
  }
}

public struct Text: View {
  nonisolated public init<S: StringProtocol>(_ content: S) {}
  public var body: Never { fatalError() }
  public func font(_ font: Font?) -> Text { self }
}

public struct Font: Sendable {
  public static let title = Font()
  public static let headline = Font()
  public static let caption = Font()
}

public protocol ShapeStyle {}

public struct Color: ShapeStyle, View, Sendable {
  public var body: Never { fatalError() }
}

extension ShapeStyle where Self == Color {
  public static var red: Color { Color() }
  public static var secondary: Color { Color() }
}

public struct ProgressView: View {
  nonisolated public init() {}
  public var body: Never { fatalError() }
}

public struct Group<Content: View>: View {
  nonisolated public init(@ViewBuilder content: () -> Content) {}
  public var body: Never { fatalError() }
}

public struct List<Content: View>: View {
  nonisolated public init(@ViewBuilder content: () -> Content) {}
  public var body: Never { fatalError() }
}

public struct Form<Content: View>: View {
  nonisolated public init(@ViewBuilder content: () -> Content) {}
  public var body: Never { fatalError() }
}

public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View {
  public var body: Never { fatalError() }
}

extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
  nonisolated public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
}

public struct Button<Label: View>: View {
  public var body: Never { fatalError() }
}

extension Button where Label == Text {
  nonisolated public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
}

public struct TextField<Label: View>: View {
  public var body: Never { fatalError() }
}

extension TextField where Label == Text {
  nonisolated public init<S: StringProtocol>(_ title: S, text: Binding<String>) {}
}

// MARK: Modifiers

extension View {
  nonisolated public func task(
    priority: TaskPriority = .userInitiated, _ action: @escaping @isolated(any) @Sendable () async -> Void
  ) -> some View { ModifiedContent() }

  nonisolated public func task<T: Equatable>(
    id value: T, priority: TaskPriority = .userInitiated, _ action: @escaping @isolated(any) @Sendable () async -> Void
  ) -> some View { ModifiedContent() }

  nonisolated public func onChange<V: Equatable>(
    of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void
  ) -> some View { ModifiedContent() }

  nonisolated public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View {
    ModifiedContent()
  }

  nonisolated public func modifier<T>(_ modifier: T) -> some View { ModifiedContent() }

  nonisolated public func disabled(_ disabled: Bool) -> some View { ModifiedContent() }

  nonisolated public func font(_ font: Font?) -> some View { ModifiedContent() }

  nonisolated public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View { ModifiedContent() }
}

/// A modifier applied to a view (`view.modifier(_:)`).
@MainActor @preconcurrency public protocol ViewModifier {
  associatedtype Body: View
  typealias Content = _ViewModifier_Content<Self>
  @ViewBuilder func body(content: Content) -> Body
}

public struct _ViewModifier_Content<Modifier: ViewModifier>: View {
  public var body: Never { fatalError() }
}

// MARK: State and environment

/// A stored property SwiftUI updates before it evaluates a view's body.
public protocol DynamicProperty {
  mutating func update()
}

extension DynamicProperty {
  public mutating func update() {}
}

@propertyWrapper public struct State<Value>: DynamicProperty {
  nonisolated public init(wrappedValue value: Value) { storage = value }
  private let storage: Value
  public var wrappedValue: Value {
    get { storage }
    nonmutating set {}
  }
  public var projectedValue: Binding<Value> { Binding(get: { self.storage }, set: { _ in }) }
}

@propertyWrapper @dynamicMemberLookup public struct Binding<Value> {
  private let get: () -> Value
  nonisolated public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) { self.get = get }
  public var wrappedValue: Value {
    get { get() }
    nonmutating set {}
  }
  public var projectedValue: Binding<Value> { self }
  public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
    Binding<Subject>(get: { self.get()[keyPath: keyPath] }, set: { _ in })
  }
}

@propertyWrapper public struct Environment<Value>: DynamicProperty {
  private let keyPath: KeyPath<EnvironmentValues, Value>
  nonisolated public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }
  public var wrappedValue: Value { EnvironmentValues()[keyPath: keyPath] }
}

public protocol EnvironmentKey {
  associatedtype Value
  static var defaultValue: Value { get }
}

public struct EnvironmentValues {
  nonisolated public init() {}
  public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
    get { K.defaultValue }
    set {}
  }
  public var scenePhase: ScenePhase {
    get { .active }
    set {}
  }
}

public enum ScenePhase: Comparable, Hashable, Sendable {
  case background, inactive, active
}
