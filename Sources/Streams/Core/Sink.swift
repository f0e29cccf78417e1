import StreamsShims

/// Delivers events to a downstream observer while enforcing the grammar and owning the upstream
/// disposable: after a terminal event or disposal nothing more is delivered, and a terminal event
/// disposes the upstream.
///
/// The upstream may be set after events were already delivered (a synchronous source terminates
/// inside `subscribe`); it is then disposed when it is set.
///
/// One allocation and no lock: the lifecycle is one atomic word (``flags``, the first stored
/// property, addressed the way swift-atomics' `ManagedAtomic` addresses its value). The upstream
/// disposable is handed over through that word: ``setUpstream(_:)`` writes ``upstreamSlot`` and
/// then sets ``upstreamSetBit``; ``dispose()`` sets ``disposedBit`` and reads the slot only if
/// the set bit was already there. Whichever of the two comes second disposes the upstream, and
/// only that one touches the slot after it was written.
///
/// `@unchecked Sendable`: `flags` is only accessed atomically after `init`; `upstreamSlot` is
/// written by `setUpstream` before publishing it and afterwards touched by exactly one thread, as
/// above; `downstream` and `onDisposed` are immutable.
@usableFromInline
final class GuardedSink<Element>: Cancelable, @unchecked Sendable {
  @usableFromInline static var disposedBit: Int { 1 }
  @usableFromInline static var stoppedBit: Int { 2 }
  @usableFromInline static var upstreamSetBit: Int { 4 }

  /// The lifecycle word. It must stay the first stored property (its address is the start of the
  /// object's stored properties) and is never read or written as a property after `init`.
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

  @inlinable
  var flagsAddress: UnsafeMutablePointer<Int> {
    _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: Int.self)
  }

  /// `true` while events still pass: neither stopped nor disposed.
  @inlinable
  var isActive: Bool {
    streams_atomic_load(flagsAddress) & (Self.disposedBit | Self.stoppedBit) == 0
  }

  @inlinable
  var isDisposed: Bool { streams_atomic_load(flagsAddress) & Self.disposedBit != 0 }

  /// Forwards `event` unless the sink is stopped or disposed; a terminal event disposes upstream.
  @inlinable
  func on(_ event: Event<Element>) {
    switch event {
    case .next:
      if !isActive { return }
      downstream.on(event)
    case .error, .completed:
      let previous = streams_atomic_fetch_or(flagsAddress, Self.stoppedBit)
      if previous & (Self.disposedBit | Self.stoppedBit) != 0 { return }
      downstream.on(event)
      dispose()
    }
  }

  @inlinable
  func setUpstream(_ disposable: any Disposable) {
    precondition(
      streams_atomic_load(flagsAddress) & Self.upstreamSetBit == 0,
      "Streams internal error: upstream disposable set twice")
    upstreamSlot = disposable
    let previous = streams_atomic_fetch_or(flagsAddress, Self.upstreamSetBit)
    if previous & Self.disposedBit != 0 {
      // Disposed before the upstream was known: `dispose()` left the slot alone.
      upstreamSlot = nil
      disposable.dispose()
    }
  }

  @inlinable
  func dispose() {
    let previous = streams_atomic_fetch_or(flagsAddress, Self.disposedBit)
    if previous & Self.disposedBit != 0 { return }
    if previous & Self.upstreamSetBit != 0, let upstream = upstreamSlot {
      upstreamSlot = nil
      upstream.dispose()
    }
    if let onDisposed { onDisposed() }
  }
}
