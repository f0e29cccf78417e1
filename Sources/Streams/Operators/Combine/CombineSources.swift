/// What `combineLatest` and `zip` share whatever the number of sources and however their values
/// are stored: the outbox, the sources' subscriptions, and RxSwift's completion rules, written once
/// for ``TypedCombineStateMachine`` (two or three sources, typed) and ``CombineStateMachine`` (any
/// number, boxed).
///
/// The rules:
/// - both complete when every source completed;
/// - `combineLatest` (and `zip` over a collection) also when a source emits while every other
///   source completed (``completeIfOthersDone(_:)``: nothing more can be combined);
/// - both fail with the first error (the sinks send it through the outbox);
/// - a completed source's subscription is disposed at once (``completed(_:)`` hands it back).
///
/// While the outbox is open, a source has completed exactly when its subscription slot is
/// released, so that slot is also the completion flag.
@usableFromInline
struct CombineSources<Snapshot> {
  @usableFromInline var outbox = SerialOutbox<Snapshot>()
  @usableFromInline var subscriptions: [UpstreamDisposable]
  /// The number of sources that completed.
  @usableFromInline var doneCount = 0

  /// `count` sources, none subscribed yet.
  @inlinable
  init(count: Int) {
    subscriptions = Array(repeating: .pending, count: count)
  }

  @inlinable
  var count: Int { subscriptions.count }

  /// Whether source `index` completed (or, once the outbox is closed, was let go).
  @inlinable
  func isDone(_ index: Int) -> Bool {
    if case .released = subscriptions[index] { return true }
    return false
  }

  /// Source `index`'s subscription returned; returns it back if it must be disposed at once.
  @inlinable
  mutating func subscribed(_ index: Int, _ disposable: any Disposable) -> (any Disposable)? {
    if outbox.isClosed {
      _ = subscriptions[index].release()
      return disposable
    }
    return subscriptions[index].store(disposable)
  }

  /// Source `index` completed: returns its subscription to dispose and an event to deliver (the
  /// completion, once every source completed).
  @inlinable
  mutating func completed(_ index: Int) -> (dispose: (any Disposable)?, deliver: Event<Snapshot>?) {
    let wasDone = isDone(index)
    let disposable = subscriptions[index].release()
    if outbox.isClosed || wasDone { return (disposable, nil) }
    doneCount += 1
    return (disposable, doneCount == count ? outbox.send(.completed) : nil)
  }

  /// Source `index` emitted an element that completes no combination: the completion when every
  /// other source completed (one of them without an element, or the combination would have been
  /// emitted), `nil` otherwise.
  @inlinable
  mutating func completeIfOthersDone(_ index: Int) -> Event<Snapshot>? {
    let othersDone = doneCount - (isDone(index) ? 1 : 0)
    return othersDone == count - 1 ? outbox.send(.completed) : nil
  }

  /// The subscription ends: every subscription to dispose, in subscription order, and the queued
  /// combinations, which the caller releases after unlocking.
  @inlinable
  mutating func dispose() -> (subscriptions: [any Disposable], pending: RingQueue<Event<Snapshot>>)
  {
    let pending = outbox.dispose()
    var all: [any Disposable] = []
    for index in subscriptions.indices {
      if let disposable = subscriptions[index].release() { all.append(disposable) }
    }
    return (all, pending)
  }
}
