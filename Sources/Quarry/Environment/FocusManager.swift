/// Whether the app is focused, and who to tell when that changes (TanStack's `focusManager`,
/// one per client instead of a global).
///
/// ```swift
/// client.focusManager.setFocused(false)   // app went to the background
/// ```
public final class FocusManager: @unchecked Sendable {
  // Safe: state is guarded by the owning client's engine lock.
  private let lock: EngineLock
  private var focused: Bool?
  private var listeners = ListenerRegistry<Bool>()

  init(lock: EngineLock) { self.lock = lock }

  /// Whether the app is focused (`true` until told otherwise).
  public var isFocused: Bool { lock.sync { focused ?? true } }

  /// Sets focus; `nil` returns to the default (focused). Listeners hear of a change.
  public func setFocused(_ value: Bool?) {
    lock.sync {
      guard focused != value else { return }
      focused = value
      listeners.notify(focused ?? true)
    }
  }

  func subscribe(_ listener: @escaping (Bool) -> Void) -> () -> Void {
    lock.sync {
      let id = listeners.add(listener)
      return { [weak self] in self?.lock.sync { _ = self?.listeners.remove(id) } }
    }
  }
}

/// Whether the network is reachable, and who to tell when that changes (TanStack's
/// `onlineManager`, one per client).
public final class OnlineManager: @unchecked Sendable {
  // Safe: state is guarded by the owning client's engine lock.
  private let lock: EngineLock
  private var online = true
  private var listeners = ListenerRegistry<Bool>()

  init(lock: EngineLock) { self.lock = lock }

  /// Whether the network is reachable (`true` until told otherwise).
  public var isOnline: Bool { lock.sync { online } }

  /// Sets connectivity; listeners hear of a change.
  public func setOnline(_ value: Bool) {
    lock.sync {
      guard online != value else { return }
      online = value
      listeners.notify(value)
    }
  }

  func subscribe(_ listener: @escaping (Bool) -> Void) -> () -> Void {
    lock.sync {
      let id = listeners.add(listener)
      return { [weak self] in self?.lock.sync { _ = self?.listeners.remove(id) } }
    }
  }
}
