extension Promise {
  /// A promise already settled with `result` (for the scenario runner's persistence steps, whose
  /// restore is synchronous in Swift and a promise in TanStack).
  package static func settled(_ result: Result<T, any Error>, scheduler: any QueryScheduler) -> Promise<T> {
    let promise = Promise<T>(scheduler: scheduler)
    switch result {
    case .success(let value): promise.resolve(value)
    case .failure(let error): promise.reject(error)
    }
    return promise
  }
}
