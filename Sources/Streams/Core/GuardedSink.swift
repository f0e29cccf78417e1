import StreamsShims

/// Delivers events to a downstream observer while enforcing the grammar and owning the upstream
/// disposable: after a terminal event or disposal nothing more is delivered, and a terminal event
/// disposes the upstream.
///
/// The upstream may be set after events were already delivered (a synchronous source terminates
/// inside `subscribe`); it is then disposed when it is set.
///
/// One allocation and no lock: the lifecycle is one atomic word, and the upstream disposable is
/// handed over through it (``SingleUpstreamLifecycle``).
///
/// `@unchecked Sendable`: `flags` is only accessed atomically after `init`; `upstreamSlot` is
/// written by `setUpstream` before publishing it and afterwards touched by exactly one thread, as
/// above; `downstream` and `onDisposed` are immutable.
@usableFromInline
final class GuardedSink<Element>: SingleUpstreamLifecycle, Cancelable, @unchecked Sendable {
  /// The lifecycle word: the first stored property (``SinkLifecycle``).
  @usableFromInline var flags: Int
  @usableFromInline let downstream: AnyObserver<Element>
  @usableFromInline let onDisposed: (() -> Void)?
  @exclusivity(unchecked) @usableFromInline var upstreamSlot: (any Disposable)?

  @inlinable
  init(_ downstream: AnyObserver<Element>, onDisposed: (() -> Void)? = nil) {
    self.flags = 0
    self.downstream = downstream
    self.onDisposed = onDisposed
    self.upstreamSlot = nil
    Resources.track(self)
  }

  @inlinable
  deinit { Resources.untrack(self) }

  /// Forwards `event` unless the sink is stopped or disposed; a terminal event disposes upstream.
  @inlinable
  func on(_ event: Event<Element>) {
    switch event {
    case .next:
      if !isActive { return }
      downstream.on(event)
    case .error, .completed:
      if !stop() { return }
      downstream.on(event)
      dispose()
    }
  }

  @inlinable
  func dispose() {
    if disposeLifecycle(), let onDisposed { onDisposed() }
  }
}
