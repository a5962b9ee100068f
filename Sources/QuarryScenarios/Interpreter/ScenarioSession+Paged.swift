import Quarry

/// Steps of infinite queries and queries observers.
extension ScenarioSession {
  /// Performs an infinite-query or queries-observer step; `false` when `step` is not one.
  func performPaged(_ step: Step, _ a: ArgumentReader) throws -> Bool {
    let p = step.path
    let h = step.handle
    let json: @Sendable ((any Sendable)?) -> JSONValue? = { TraceValues.json($0) }
    switch step.operation {
    case "fetchInfiniteQuery":
      track(client.fetchInfiniteQueryPromise(try decoder.queryOptions(step.arguments, p)), handle: h, json)
    case "prefetchInfiniteQuery":
      track(client.prefetchInfiniteQueryPromise(try decoder.queryOptions(step.arguments, p)), handle: h) { _ in nil }
    case "ensureInfiniteQueryData":
      let options = try decoder.queryOptions(step.arguments, p, extra: ["revalidateIfStale"])
      let revalidate = try a.optionalBool("revalidateIfStale") ?? false
      track(client.ensureInfiniteQueryDataPromise(options, revalidateIfStale: revalidate), handle: h, json)
    case "observeInfinite", "createInfiniteObserver":
      let name = try a.string("observer")
      let options = try decoder.queryOptions(a["options"], "\(p).options")
      let observer = InfiniteQueryObserver(client: client, options: options)
      observers[name] = ObserverEntry(observer: observer)
      observerNames[ObjectIdentifier(observer)] = name
      if step.operation == "observeInfinite" {
        subscribe(name)
        returned(TraceValues.result(observer.getCurrentResult()), handle: h)
      }
    case "fetchNextPage", "fetchPreviousPage":
      let (name, entry) = try observerEntry(a)
      guard let observer = entry.observer as? InfiniteQueryObserver else {
        throw a.fail("observer", "expected an infinite observer; \"\(name)\" is not one")
      }
      let o = try decoder.callOptions(a["options"], "\(p).options")
      let promise = step.operation == "fetchNextPage"
        ? observer.fetchNextPagePromise(o.refetch) : observer.fetchPreviousPagePromise(o.refetch)
      track(promise, handle: h) { TraceValues.result($0) }
    default:
      return false
    }
    return true
  }
}
