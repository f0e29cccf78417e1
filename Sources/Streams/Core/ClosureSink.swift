/// What a terminal subscription (``Observable/subscribeTerminal(_:kind:file:line:owner:)``)
/// delivers to.
@usableFromInline
enum TerminalSubscriber<Element> {
  /// An observer: a subject, a trait's observer, a binding's event closure.
  case observer(AnyObserver<Element>)
  /// A sink made by the caller that disposes `handle` when it ends (a state binding, which must
  /// reach its sink to end the subscription when its target goes away).
  case sink(GuardedSink<Element>, handle: SingleAssignmentDisposable)
  /// The closures of ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``,
  /// run by one ``ClosureSink``.
  case closures(
    onNext: ((Element) -> Void)?, onError: ((any Error) -> Void)?, onCompleted: (() -> Void)?,
    onDisposed: (() -> Void)?)
}

/// The sink of
/// ``ObservableType/subscribe(onNext:onError:onCompleted:onDisposed:isolation:file:line:)``: the closures
/// and the ``SinkLifecycle`` in one object, which is also the observer's context (one allocation
/// per subscription, where a ``GuardedSink`` over a closure observer would be two).
///
/// The caller of `subscribe` holds either the source's own disposable, which lets go of this sink
/// when the subscription ends, or ``owner``, a handle that holds this sink until it ends: this sink
/// disposes the handle when it is disposed or terminates, and the handle lets go of it. Either way
/// the closures live only as long as the subscription.
///
/// `@unchecked Sendable`: as ``GuardedSink``: `flags` is only accessed atomically after `init`,
/// `upstreamSlot` is handed over through it, the closures and `owner` are immutable.
@usableFromInline
final class ClosureSink<Element>: SingleUpstreamLifecycle, Cancelable, @unchecked Sendable {
  /// The lifecycle word: the first stored property (``SinkLifecycle``).
  @usableFromInline var flags: Int
  @usableFromInline let onNext: ((Element) -> Void)?
  @usableFromInline let onError: ((any Error) -> Void)?
  @usableFromInline let onCompleted: (() -> Void)?
  @usableFromInline let onDisposed: (() -> Void)?
  /// The handle the caller holds, when it is not the source's own disposable (see above). Weak:
  /// if the subscription never ends and the caller drops the handle, nothing keeps the pair alive.
  @usableFromInline weak let owner: SingleAssignmentDisposable?
  @exclusivity(unchecked) @usableFromInline var upstreamSlot: (any Disposable)?

  @inlinable
  init(
    onNext: ((Element) -> Void)?, onError: ((any Error) -> Void)?, onCompleted: (() -> Void)?,
    onDisposed: (() -> Void)?, owner: SingleAssignmentDisposable?
  ) {
    self.flags = 0
    self.onNext = onNext
    self.onError = onError
    self.onCompleted = onCompleted
    self.onDisposed = onDisposed
    self.owner = owner
    self.upstreamSlot = nil
    Resources.track(self)
  }

  @inlinable
  deinit { Resources.untrack(self) }

  @inlinable
  func on(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      if isActive { onNext?(element) }
    case .error(let error):
      guard stop() else { return }
      if let onError { onError(error) } else { Hooks.reportUnhandled(error) }
      dispose()
    case .completed:
      guard stop() else { return }
      onCompleted?()
      dispose()
    }
  }

  /// Ends the subscription: disposes the upstream, runs `onDisposed` once, and makes the
  /// caller's handle let go of this sink.
  @inlinable
  func dispose() {
    guard disposeLifecycle() else { return }
    if let onDisposed { onDisposed() }
    owner?.dispose()
  }
}
