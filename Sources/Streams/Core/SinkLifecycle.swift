import StreamsShims

/// The lifecycle every sink shares: one atomic word in the object's own allocation that says
/// whether the sink is stopped (it accepted a terminal event, or its state machine ended) or
/// disposed.
///
/// The word is the object's first stored property, so that its address is the start of the
/// object's stored properties (the way swift-atomics' `ManagedAtomic` addresses its value): no
/// lock, no allocation of its own. After `init` it is read and written only through the C atomics,
/// never as a property. A conforming class declares it first (`var flags: Int`, `@usableFromInline`
/// in an inlinable class, set to 0 in `init`); everything else is written here, once.
///
/// Two kinds of sink use it:
/// - a sink with one upstream (``GuardedSink``, ``StageSink``, the closure sink
///   `subscribe(onNext:)` makes, and ``SingleAssignmentDisposable``) keeps that upstream in the
///   slot ``SingleUpstreamLifecycle`` hands over through the word;
/// - a sink with several sources (``MultiSourceSink``: merge, switch, concat, the combines,
///   withLatestFrom, amb) keeps its upstreams in its state machine, under its lock, and uses the
///   word to answer "still active?" without the lock and to run its teardown once.
///
/// Every other sink class delivers through a ``GuardedSink`` and so shares its word.
@usableFromInline
protocol SinkLifecycle: AnyObject {}

/// The bits of the lifecycle word.
@usableFromInline
enum SinkLifecycleBits {
  @inlinable static var disposed: Int { 1 }
  @inlinable static var stopped: Int { 2 }
  @inlinable static var upstreamSet: Int { 4 }
}

extension SinkLifecycle {
  /// The lifecycle word: the first stored property.
  @inlinable
  var flagsAddress: UnsafeMutablePointer<Int> {
    _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: Int.self)
  }

  /// Neither stopped nor disposed: events still pass.
  @inlinable
  var isActive: Bool {
    streams_atomic_load(flagsAddress) & (SinkLifecycleBits.disposed | SinkLifecycleBits.stopped)
      == 0
  }

  @inlinable
  var isDisposed: Bool { streams_atomic_load(flagsAddress) & SinkLifecycleBits.disposed != 0 }

  /// Marks the sink stopped for a terminal event; `true` if it was active until now (the caller
  /// then delivers the terminal event and disposes).
  @inlinable
  func stop() -> Bool {
    streams_atomic_fetch_or(flagsAddress, SinkLifecycleBits.stopped)
      & (SinkLifecycleBits.disposed | SinkLifecycleBits.stopped) == 0
  }

  /// Sets the disposed bit; returns the word as it was before.
  @inlinable
  func markDisposed() -> Int {
    streams_atomic_fetch_or(flagsAddress, SinkLifecycleBits.disposed)
  }
}

/// The lifecycle of a sink with one upstream: the upstream disposable in a slot handed over
/// through the lifecycle word.
///
/// ``setUpstream(_:ifSetTwice:)`` writes the slot and then sets the set bit;
/// ``disposeLifecycle()`` sets the disposed bit and reads the slot only if the set bit was already
/// there. Whichever of the two comes second disposes the upstream, and only that one touches the
/// slot after it was written, so the slot needs no lock.
@usableFromInline
protocol SingleUpstreamLifecycle: SinkLifecycle {
  /// The upstream disposable (see above); `nil` until set and once taken.
  var upstreamSlot: (any Disposable)? { get set }
}

extension SingleUpstreamLifecycle {
  /// Whether the upstream was set (after which it no longer changes).
  @inlinable
  var isUpstreamSet: Bool {
    streams_atomic_load(flagsAddress) & SinkLifecycleBits.upstreamSet != 0
  }

  /// Stores the upstream disposable; disposes it at once when the sink was disposed before.
  /// Setting it twice stops the program with `message`.
  @inlinable
  func setUpstream(
    _ disposable: consuming any Disposable,
    ifSetTwice message: @autoclosure () -> String =
      "Streams internal error: upstream disposable set twice"
  ) {
    precondition(!isUpstreamSet, message())
    upstreamSlot = consume disposable
    // Disposed before: `disposeLifecycle()` left the slot alone; take the upstream back out.
    if streams_atomic_fetch_or(flagsAddress, SinkLifecycleBits.upstreamSet)
      & SinkLifecycleBits.disposed != 0
    {
      upstreamSlot.take()?.dispose()
    }
  }

  /// Marks the sink disposed and disposes the upstream if it was set (otherwise
  /// ``setUpstream(_:ifSetTwice:)`` will). Returns `true` for the first call, whose caller then
  /// runs its own disposal action. The slot is not touched when the upstream is not set yet (not
  /// even as an `inout` argument), so that concurrent calls do not race on it.
  @inlinable
  @discardableResult
  func disposeLifecycle() -> Bool {
    let previous = markDisposed()
    if previous & SinkLifecycleBits.disposed != 0 { return false }
    if previous & SinkLifecycleBits.upstreamSet != 0 { upstreamSlot.take()?.dispose() }
    return true
  }
}
