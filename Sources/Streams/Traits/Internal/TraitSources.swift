/// Carries a ``GuardedSink`` into a `@Sendable` closure.
///
/// `@unchecked Sendable`: `GuardedSink` guards its own state (atomic flags, locked upstream); its
/// `Element` need not be `Sendable` because only the sink's reference crosses, and the elements
/// it forwards are produced on the receiving side.
struct SendableSink<Element>: @unchecked Sendable {
  let sink: GuardedSink<Element>

  init(_ sink: GuardedSink<Element>) {
    self.sink = sink
  }
}

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
