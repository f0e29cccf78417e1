import StreamsShims

/// The disposable of a node whose disposable lets go of its observer when the subscription ends
/// (``Observable/disposableReleasesObserver``): a subject's subscription, and those of
/// `Observable.observing` and `StateCell.asObservable()`. An element-wise stage over such a node
/// hands it on as its own disposable, and reads whether it is still active after its step and its
/// downstream ran (user code, which may have disposed it) to stop there.
///
/// A conforming class keeps an `Int` word as its first stored property, 0 until the subscription
/// is disposed, then 1, changed with the C atomics (the layout of ``SinkLifecycle``'s word), so
/// that ``ReleasingSubscriptions/isActive(_:)`` reads it without knowing the class: no superclass
/// (whose `init` and `deinit` a subject's subscription would pay for) and no existential call per
/// event. An end by a terminal event leaves the word at 0, so that a stage still forwards that
/// event.
@usableFromInline
protocol ReleasingSubscription: AnyObject, Disposable {}

/// Reads and writes the word of a ``ReleasingSubscription``.
@usableFromInline
enum ReleasingSubscriptions {
  @inlinable
  static func word(_ subscription: AnyObject) -> UnsafeMutablePointer<Int> {
    _getUnsafePointerToStoredProperties(subscription).assumingMemoryBound(to: Int.self)
  }

  /// `true` until the subscription is disposed.
  @inlinable
  static func isActive(_ subscription: AnyObject) -> Bool {
    streams_atomic_load(word(subscription)) == 0
  }

  /// Records the disposal; called once the subscription will deliver nothing more.
  @inlinable
  static func markDisposed(_ subscription: AnyObject) {
    streams_atomic_store(word(subscription), 1)
  }

  /// The releasing subscription `disposable` is, or, traced, the one its node hands on.
  @inlinable
  static func handedOn(_ disposable: any Disposable) -> AnyObject? {
    // A subject's first: the cast to a final class is a compare, to a protocol a lookup.
    if let subscription = disposable as? SubjectSubscription { return subscription }
    if let subscription = disposable as? any ReleasingSubscription { return subscription }
    // Not guarded by `Tracing.isInstalled`: a tracer removed since `disposable` was made leaves
    // it traced.
    guard let traced = disposable as? TracedNodeDisposable else { return nil }
    return traced.handedOnSubscription
  }
}
