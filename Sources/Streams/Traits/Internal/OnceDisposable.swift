/// Runs a closure once, on the first `dispose()`: the `onDispose`/`onDisposed` hooks of the traits,
/// whose closures RxSwift does not require to be `Sendable`.
///
/// `@unchecked Sendable`: the closure is taken out under the lock exactly once; it runs on the
/// thread that disposes, as in RxSwift.
final class OnceDisposable: Disposable, @unchecked Sendable {
  private let action: Locked<(() -> Void)?>

  init(_ action: (() -> Void)?) {
    self.action = Locked(action)
    Resources.track(self)
  }

  deinit { Resources.untrack(self) }

  func dispose() {
    let action = action.withLock { action -> (() -> Void)? in
      defer { action = nil }
      return action
    }
    action?()
  }
}
