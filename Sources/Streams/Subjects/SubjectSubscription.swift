import StreamsShims

/// Removes one observer from a subject when disposed.
///
/// It holds the subject's core strongly, and the core's observer table holds it: a cycle until the
/// subscription is disposed, which the core's owner (a subject, a `share` connection) breaks when
/// it is deinitialized by disposing the core (``SubjectCore/dispose()``). A strong reference costs
/// a retain and a release; a weak one cost four atomic operations on the subject's side table per
/// subscription, an eighth of the time of subscribing and disposing a three-operator chain.
///
/// Not generic: the removal closure is created in the subscribing module's specialized code, so a
/// call through `any Disposable` does not land in unspecialized generic code. Deliveries check
/// ``isActive``, which the core clears under its lock as it removes the observer or queues its
/// removal, so that nothing reaches the observer once `dispose()` has returned on any thread, or
/// from an earlier observer of the same event (a delivery already running on another thread may
/// still finish, as in RxSwift). Disposing twice is harmless: the second finds it disposed.
///
/// `@unchecked Sendable`: `flag` is only accessed atomically after `init` (written under the
/// core's lock); `index` is read and written only by the thread holding the core's delivery
/// claim; `owner` and `remove` are immutable.
@usableFromInline
final class SubjectSubscription: ReleasingSubscription, @unchecked Sendable {
  /// 0 until disposed, then 1. Must stay the first stored property (see
  /// ``ReleasingSubscription``).
  @usableFromInline var flag: Int
  /// The slot of its observer in the core's table, or -1 when not in it.
  @exclusivity(unchecked) @usableFromInline var index: Int
  /// The subject's core (see above for the cycle and who breaks it).
  @usableFromInline let owner: AnyObject
  /// A non-capturing function made in specialized code that removes this subscription from
  /// `owner`.
  @usableFromInline let remove: @Sendable (AnyObject, SubjectSubscription) -> Void

  @inlinable
  init(owner: AnyObject, remove: @escaping @Sendable (AnyObject, SubjectSubscription) -> Void) {
    self.flag = 0
    self.index = -1
    self.owner = owner
    self.remove = remove
  }

  @inlinable
  var flagAddress: UnsafeMutablePointer<Int> {
    _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: Int.self)
  }

  /// `true` until disposed.
  @inlinable
  var isActive: Bool { streams_atomic_load(flagAddress) == 0 }

  /// Called by the core under its lock (see `unsubscribe`).
  @inlinable
  func markDisposed() { streams_atomic_store(flagAddress, 1) }

  /// Removes the observer. A second call does nothing.
  @inlinable
  func dispose() { remove(owner, self) }
}
