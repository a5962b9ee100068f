import Quarry

/// Infinite-query options and their page-parameter recipes.
extension OptionsDecoder {
  /// Decodes an infinite-query option into `options`; `false` when `name` is not one.
  func infiniteOption(_ name: String, _ v: JSONValue, _ p: String, _ options: inout QueryOptions) throws -> Bool {
    switch name {
    case "initialPageParam": options.initialPageParam = data(v)
    case "getNextPageParam": options.getNextPageParam = try pageParamFunction(v, p)
    case "getPreviousPageParam": options.getPreviousPageParam = try pageParamFunction(v, p)
    case "maxPages": options.maxPages = Int(try number(v, p))
    case "pages": options.pages = Int(try number(v, p))
    default: return false
    }
    return true
  }

  /// `{"$fn":"paramPlus","by":B,"until":U}`: the page's own parameter plus `B`, or undefined
  /// past `U` (above it for `B ≥ 0`, below it otherwise); `{"$fn":"pageField","key":K}`: the
  /// page's member `K`; `{"$fn":"const","value":V}`: always `V`.
  func pageParamFunction(_ v: JSONValue, _ p: String) throws -> PageParamFunction {
    guard let r = recipe(v) else { throw fail(p, "expected a page-parameter recipe") }
    switch r.name {
    case "paramPlus":
      guard case .number(let by)? = r.args["by"], case .number(let until)? = r.args["until"] else {
        throw fail(p, "expected numbers \"by\" and \"until\"")
      }
      return PageParamFunction { _, _, param, _ in
        guard case .number(let n)? = param else { return nil }
        let next = n + by
        return (by >= 0 ? next > until : next < until) ? nil : .number(next)
      }
    case "pageField":
      guard case .string(let key)? = r.args["key"] else { throw fail(p, "expected a key") }
      return PageParamFunction { page, _, _, _ in TraceValues.json(page)?[key] }
    case "const":
      let c = r.args["value"].flatMap(data)
      return PageParamFunction { _, _, _, _ in c }
    default: throw fail(p, "expected a page-parameter recipe")
    }
  }
}

/// Fixture data of the exact form `{"pages": [...], "pageParams": [...]}` as ``InfiniteData``
/// (TanStack sees one object; the Swift engine keeps infinite data in its own type).
func infiniteAware(_ value: JSONValue) -> any Sendable {
  guard case .object(let o) = value, o.count == 2, let infinite = InfiniteData(value) else { return value }
  _ = o
  return infinite
}
