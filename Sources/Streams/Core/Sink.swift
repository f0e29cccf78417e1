/// Delivers events to a downstream observer while enforcing the grammar and owning the upstream
/// disposable: after a terminal event or disposal nothing more is delivered, and a terminal event
/// disposes the upstream.
///
/// The upstream may be set after events were already delivered (a synchronous source terminates
/// inside `subscribe`); it is then disposed when it is set.
///
/// `@unchecked Sendable`: the lifecycle flags are an atomic word; the upstream disposable is
/// guarded by the lock; `downstream` is immutable and only called after checking the flags.
@usableFromInline
final class GuardedSink<Element>: Cancelable, @unchecked Sendable {
  @usableFromInline static var disposedBit: Int { 1 }
  @usableFromInline static var stoppedBit: Int { 2 }

  @usableFromInline let downstream: AnyObserver<Element>
  @usableFromInline let upstream: Locked<UpstreamSlot>
  @usableFromInline let onDisposed: (() -> Void)?

  @inlinable
  init(_ downstream: AnyObserver<Element>, onDisposed: (() -> Void)? = nil) {
    self.downstream = downstream
    self.upstream = Locked(.empty)
    self.onDisposed = onDisposed
    Resources.track(self)
  }

  @inlinable
  deinit { Resources.untrack(self) }

  /// `true` while events still pass: neither stopped nor disposed.
  @inlinable
  var isActive: Bool { upstream.loadWord() == 0 }

  @inlinable
  var isDisposed: Bool { upstream.loadWord() & Self.disposedBit != 0 }

  /// Forwards `event` unless the sink is stopped or disposed; a terminal event disposes upstream.
  @inlinable
  func on(_ event: Event<Element>) {
    switch event {
    case .next:
      if upstream.loadWord() != 0 { return }
      downstream.on(event)
    case .error, .completed:
      if upstream.fetchOrWord(Self.stoppedBit) != 0 { return }
      downstream.on(event)
      dispose()
    }
  }

  @inlinable
  func setUpstream(_ disposable: any Disposable) {
    let disposeNow = upstream.withLock { slot -> Bool in
      switch slot {
      case .empty:
        slot = .set(disposable)
        return false
      case .disposed:
        return true
      case .set:
        preconditionFailure("Streams internal error: upstream disposable set twice")
      }
    }
    if disposeNow { disposable.dispose() }
  }

  @inlinable
  func dispose() {
    let previous = upstream.fetchOrWord(Self.disposedBit)
    let toDispose = upstream.withLock { slot -> (any Disposable)? in
      if case .set(let disposable) = slot {
        slot = .disposed
        return disposable
      }
      slot = .disposed
      return nil
    }
    toDispose?.dispose()
    if previous & Self.disposedBit == 0, let onDisposed { onDisposed() }
  }
}

/// The upstream disposable of a sink: not yet known, known, or already released.
@usableFromInline
enum UpstreamSlot {
  case empty
  case set(any Disposable)
  case disposed
}
