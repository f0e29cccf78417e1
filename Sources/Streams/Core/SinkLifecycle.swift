import StreamsShims

/// The lifecycle shared by the sinks (``GuardedSink``, and the closure sink `subscribe(onNext:)`
/// makes): one atomic word in the sink's own allocation, and the upstream disposable in a slot
/// handed over through that word.
///
/// A sink's `setUpstream` writes the slot and then sets ``upstreamSetBit`` (``publishUpstream(_:)``);
/// its `dispose` sets ``disposedBit`` (``dispose(_:)``) and reads the slot only if the set bit was
/// already there. Whichever of the two comes second disposes the upstream, and only that one
/// touches the slot after it was written, so the slot needs no lock.
@usableFromInline
enum SinkLifecycle {
  @inlinable static var disposedBit: Int { 1 }
  @inlinable static var stoppedBit: Int { 2 }
  @inlinable static var upstreamSetBit: Int { 4 }

  /// Neither stopped nor disposed.
  @inlinable
  static func isActive(_ flags: UnsafeMutablePointer<Int>) -> Bool {
    streams_atomic_load(flags) & (disposedBit | stoppedBit) == 0
  }

  @inlinable
  static func isDisposed(_ flags: UnsafeMutablePointer<Int>) -> Bool {
    streams_atomic_load(flags) & disposedBit != 0
  }

  /// Marks the sink stopped for a terminal event; `true` if it was active until now (the caller
  /// then delivers the terminal event and disposes).
  @inlinable
  static func stop(_ flags: UnsafeMutablePointer<Int>) -> Bool {
    streams_atomic_fetch_or(flags, stoppedBit) & (disposedBit | stoppedBit) == 0
  }

  /// Publishes an upstream the caller has just written into its slot (``setUpstream(_:)`` on a
  /// sink: `precondition(SinkLifecycle.canSetUpstream(flags))`, write the slot, then this).
  /// Returns `true` when the sink was disposed before: `dispose` left the slot alone, and the
  /// caller takes the upstream back out of the slot and disposes it.
  @inlinable
  static func publishUpstream(_ flags: UnsafeMutablePointer<Int>) -> Bool {
    streams_atomic_fetch_or(flags, upstreamSetBit) & disposedBit != 0
  }

  /// Whether no upstream was set yet (setting one twice is an internal error).
  @inlinable
  static func canSetUpstream(_ flags: UnsafeMutablePointer<Int>) -> Bool {
    streams_atomic_load(flags) & upstreamSetBit == 0
  }

  /// Marks the sink disposed. `first` is `true` for the first call (the caller then runs its own
  /// disposal action); `ownsUpstream` is `true` when the upstream was already published, so that
  /// this caller, and only it, takes it out of the slot and disposes it. The slot is not touched
  /// otherwise (not even as an `inout` argument), so that concurrent calls do not race on it.
  @inlinable
  static func dispose(_ flags: UnsafeMutablePointer<Int>) -> (first: Bool, ownsUpstream: Bool) {
    let previous = streams_atomic_fetch_or(flags, disposedBit)
    if previous & disposedBit != 0 { return (false, false) }
    return (true, previous & upstreamSetBit != 0)
  }

}
