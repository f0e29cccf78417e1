import StreamsShims

/// The disposable of a node whose disposable lets go of its observer when the subscription ends
/// (``Observable/disposableReleasesObserver``): a subject's subscription, and those of
/// `Observable.observing` and `StateCell.asObservable()`. An element-wise stage over such a node
/// hands it on as its own disposable, and reads ``isActive`` after its step and its downstream ran
/// (user code, which may have disposed it) to stop there.
///
/// The flag says only that the subscription was disposed: an end by a terminal event leaves it
/// set to active, so that a stage still forwards that event.
///
/// `@unchecked Sendable`: `flag` is only accessed atomically after `init`.
@usableFromInline
class ReleasingSubscription: @unchecked Sendable {
  /// 0 until disposed, then 1. Must stay the first stored property (see ``GuardedSink``).
  @usableFromInline final var flag: Int

  @inlinable
  init() {
    flag = 0
  }

  @inlinable
  final var flagAddress: UnsafeMutablePointer<Int> {
    _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: Int.self)
  }

  /// `true` until disposed.
  @inlinable
  final var isActive: Bool { streams_atomic_load(flagAddress) == 0 }

  /// Records the disposal; called once the subscription will deliver nothing more.
  @inlinable
  final func markDisposed() { streams_atomic_store(flagAddress, 1) }

  /// The releasing subscription `disposable` is, or, traced, the one its node hands on.
  @inlinable
  static func handedOn(_ disposable: any Disposable) -> ReleasingSubscription? {
    if let subscription = disposable as? ReleasingSubscription { return subscription }
    // Not guarded by `Tracing.isInstalled`: a tracer removed since `disposable` was made leaves
    // it traced.
    guard let traced = disposable as? TracedNodeDisposable else { return nil }
    return traced.handedOnSubscription
  }
}
