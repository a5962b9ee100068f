/// The data of an infinite query: its pages and the page parameter each was fetched with
/// (TanStack's `InfiniteData`). The two arrays always move together.
///
/// ```swift
/// let data = InfiniteData(pages: [[1, 2], [3, 4]], pageParams: [0, 1])
/// let pages = try data.pages(as: [Int].self)   // [[1, 2], [3, 4]]
/// ```
public struct InfiniteData: Sendable, Equatable {
  /// The pages, oldest first (unless fetched backwards).
  public var pages: [any Sendable]
  /// The page parameter of each page; `nil` stands for TanStack's `undefined`.
  public var pageParams: [JSONValue?]

  /// Creates infinite data.
  public init(pages: [any Sendable] = [], pageParams: [JSONValue?] = []) {
    self.pages = pages
    self.pageParams = pageParams
  }

  /// Reads the data of an infinite query: `InfiniteData` itself, or its JSON form
  /// `{"pages": [...], "pageParams": [...]}` (restored or hydrated data); `nil` for anything else.
  public init?(_ value: (any Sendable)?) {
    if let data = value as? InfiniteData {
      self = data
      return
    }
    guard let json = value as? JSONValue, case .array(let pages)? = json["pages"],
      case .array(let params)? = json["pageParams"]
    else { return nil }
    self.init(pages: pages, pageParams: params.map { $0 })
  }

  /// The pages read as `Page`; throws ``QuarryError/typeMismatch(key:expected:actual:)`` when a
  /// page has another type.
  public func pages<Page>(as type: Page.Type) throws -> [Page] {
    try pages.map { page in
      guard let typed = page as? Page else {
        throw QuarryError.typeMismatch(key: "pages", expected: String(describing: Page.self), actual: String(describing: Swift.type(of: page)))
      }
      return typed
    }
  }

  /// Equal page counts, equal pages (`Equatable` pages by `==`) and equal page parameters.
  public static func == (a: InfiniteData, b: InfiniteData) -> Bool {
    a.pageParams == b.pageParams && a.pages.count == b.pages.count
      && zip(a.pages, b.pages).allSatisfy { valuesEqual($0, $1) }
  }
}

/// Which way a page fetch goes (TanStack's `FetchDirection`).
public enum FetchDirection: String, Sendable, Equatable {
  /// `fetchNextPage`, and every page of a refetch.
  case forward
  /// `fetchPreviousPage`.
  case backward

  /// The `fetchMeta` a directional fetch carries (`{fetchMore: {direction}}`).
  var fetchMeta: JSONValue { ["fetchMore": ["direction": .string(rawValue)]] }

  /// The direction of a fetch started with `meta`.
  init?(fetchMeta meta: JSONValue?) {
    guard case .string(let s)? = meta?["fetchMore"]?["direction"] else { return nil }
    self.init(rawValue: s)
  }
}

/// TanStack's `param == null`: no page parameter (`undefined` or `null`).
func isNullishParam(_ param: JSONValue?) -> Bool {
  guard let param else { return true }
  return param.isNull
}
