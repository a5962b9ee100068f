extension Promise {
  /// A pending promise that the caller settles (for callbacks written as promise chains, like
  /// the scenario runner's scripted callbacks).
  package static func pending(scheduler: any QueryScheduler) -> Promise<T> { Promise(scheduler: scheduler) }

  /// Fulfills the promise (no effect once settled).
  package func fulfill(_ value: T) { resolve(value) }

  /// Rejects the promise (no effect once settled).
  package func fail(_ error: any Error) { reject(error) }
}
