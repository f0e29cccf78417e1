/// The state of `withLatestFrom`: the latest element of the second source, and the two
/// subscriptions.
///
/// An element of the first source is queued together with the second source's latest element;
/// the sink runs the result selector while delivering, outside the lock. Each transition returns
/// what the sink must do after unlocking; the sink never reads the machine's storage.
struct WithLatestFromStateMachine<First, Second> {
  private var outbox = SerialOutbox<(First, Second)>()
  private var latest: Second?
  private var first = UpstreamDisposable.pending
  private var second = UpstreamDisposable.pending

  /// The second source's subscription returned; returns it back if it must be disposed at once.
  mutating func secondSubscribed(_ disposable: any Disposable) -> (any Disposable)? {
    if outbox.isClosed { _ = second.release() }
    return second.store(disposable)
  }

  /// The first source's subscription returned; returns it back if it must be disposed at once.
  mutating func firstSubscribed(_ disposable: any Disposable) -> (any Disposable)? {
    if outbox.isClosed { _ = first.release() }
    return first.store(disposable)
  }

  /// The first source emitted: pairs `element` with the latest second element, if there is one.
  mutating func firstNext(_ element: First) -> Event<(First, Second)>? {
    guard let latest else { return nil }
    return outbox.send(.next((element, latest)))
  }

  /// The second source emitted: returns the element it replaced, which the caller releases
  /// after unlocking.
  mutating func secondNext(_ element: Second) -> Second? {
    if outbox.isClosed { return nil }
    return latest.replace(with: element)
  }

  /// The second source completed: returns its subscription to dispose. The operator goes on with
  /// the last element it had.
  mutating func secondCompleted() -> (any Disposable)? {
    second.release()
  }

  /// The first source ended, or the second failed: returns the terminal event to deliver, if the
  /// delivering thread is not already busy (then it is queued behind what is pending).
  mutating func end(with event: Event<(First, Second)>) -> Event<(First, Second)>? {
    outbox.send(event)
  }

  /// The result selector threw while the pair was being delivered: the outbox closes, and the
  /// events still queued are returned, for the caller to release after delivering the error.
  mutating func selectorFailed() -> RingQueue<Event<(First, Second)>> {
    outbox.fail()
  }

  /// The next event queued for the delivering thread, if any.
  mutating func nextPending() -> Event<(First, Second)>? {
    outbox.next()
  }

  /// The delivery rank of this subscription's outbox (see ``DeliveryTurns``).
  var turnRank: Int { outbox.turns.rank }

  /// The subscription ends: returns both subscriptions to dispose, and the queued events and the
  /// latest element, which the caller releases after unlocking.
  mutating func dispose() -> (
    subscriptions: [any Disposable], released: (RingQueue<Event<(First, Second)>>, Second?)
  ) {
    let pending = outbox.dispose()
    return ([first.release(), second.release()].compactMap { $0 }, (pending, latest.take()))
  }
}
