/// The state of one `withLatestFrom` subscription: whether the second source has emitted (and
/// its latest element), the two subscriptions, and the outbox.
///
/// An element of the first source is queued together with the second source's latest element;
/// the sink runs the result selector while delivering, outside the lock. Every transition runs
/// under the sink's lock and returns what the sink must do once the lock is released (drain an
/// event, dispose a subscription, release an element); the machine never calls out, and the
/// sink never reads its storage.
///
/// ```
///             the second source emits           the second source emits (replaces latest)
///   waiting ─────────────────────────▶ ready ◀──┐
///      │                                 │  └───┘
///      │ the first source ends, either fails, the selector throws, or disposal
///      └──────────────────────────────▶ ended ◀──┘
/// ```
///
/// The subscriptions are stored beside the state: each slot is filled when its `subscribe`
/// returns, which may be after the sequence ended (``UpstreamDisposable``). The second source
/// is subscribed first, and its `subscribe` has returned before the first source is subscribed.
struct WithLatestFromStateMachine<First, Second>: OutboxState {
  /// Where the subscription stands.
  private enum State {
    /// The second source has not emitted yet: elements of the first are dropped.
    case waiting
    /// The second source emitted; `latest` is its latest element.
    case ready(latest: Second)
    /// A terminal event was accepted (it may still be queued for the deliverer), the result
    /// selector threw, or the subscription was disposed: nothing more is delivered.
    case ended
  }

  /// What to do with a subscription that a source's `subscribe` returned.
  enum SubscribedAction {
    /// Keep it: the machine holds it until it must be disposed.
    case keep
    /// Dispose it now: the sequence already ended (or, for the second source, it completed).
    case dispose(any Disposable)
  }

  /// What to do with an element of the first source, or with a terminal event.
  enum ForwardAction {
    /// Nothing: the second source has not emitted yet, or the sequence ended.
    case drop
    /// Drain `event`: deliver it now, or, when `nil`, let the drain wait for this sender's turn
    /// (the outbox queued it for the deliverer).
    case drain(Event<(First, Second)>?)
  }

  /// What to do when the first source ends or either source fails.
  enum EndAction {
    /// Nothing: the sequence already ended.
    case none
    /// Drain `event` (as ``ForwardAction/drain(_:)``), then release `latest`, the second
    /// source's latest element, which is no longer used.
    case drain(Event<(First, Second)>?, releasing: Second?)
  }

  /// What to do with an element of the second source.
  enum SecondNextAction {
    /// Nothing: it is the first element, now the latest, or the sequence ended (the caller
    /// drops it).
    case none
    /// Release `replaced`, the element it replaced, after unlocking.
    case release(Second)
  }

  /// What to do when the second source completed.
  enum SecondCompletedAction {
    /// Nothing: its subscription has not returned yet (it is disposed when it does), or was
    /// already released.
    case none
    /// Dispose its subscription; the operator goes on with the latest element it had.
    case dispose(any Disposable)
  }

  /// What to do when the result selector threw while the deliverer ran it.
  enum SelectorFailedAction {
    /// Release `queued`, the events that will not be delivered, and `latest`, once the error has
    /// been delivered.
    case release(queued: RingQueue<Event<(First, Second)>>, latest: Second?)
  }

  /// What to do when the subscription ends.
  enum DisposeAction {
    /// Dispose `first` and `second`, the subscriptions still held, then release `queued`, the
    /// events that will not be delivered, and `latest`.
    case dispose(
      first: (any Disposable)?, second: (any Disposable)?,
      queued: RingQueue<Event<(First, Second)>>, latest: Second?)
  }

  private var state = State.waiting
  private var outbox = SerialOutbox<(First, Second)>()
  private var first = UpstreamDisposable.pending
  private var second = UpstreamDisposable.pending

  /// The second source's `subscribe` returned `disposable`.
  mutating func secondSubscribed(_ disposable: any Disposable) -> SubscribedAction {
    if case .ended = state { _ = second.release() }
    return second.store(disposable).map(SubscribedAction.dispose) ?? .keep
  }

  /// The first source's `subscribe` returned `disposable`.
  mutating func firstSubscribed(_ disposable: any Disposable) -> SubscribedAction {
    if case .pending = second {
      preconditionFailure(
        "Streams internal error: withLatestFrom: first source subscribed before the second")
    }
    if case .ended = state { _ = first.release() }
    return first.store(disposable).map(SubscribedAction.dispose) ?? .keep
  }

  /// The first source emitted: `element` is paired with the latest element of the second, if
  /// there is one.
  mutating func firstNext(_ element: First) -> ForwardAction {
    switch state {
    case .ready(let latest):
      return .drain(outbox.send(.next((element, latest))))
    case .waiting, .ended:
      return .drop
    }
  }

  /// The second source emitted `element`, which becomes the latest.
  mutating func secondNext(_ element: Second) -> SecondNextAction {
    switch state {
    case .waiting:
      state = .ready(latest: element)
      return .none
    case .ready(let replaced):
      state = .ready(latest: element)
      return .release(replaced)
    case .ended:
      return .none
    }
  }

  /// The second source completed: its subscription goes; the operator goes on with the latest
  /// element it had (or drops every element of the first, when it had none).
  mutating func secondCompleted() -> SecondCompletedAction {
    second.release().map(SecondCompletedAction.dispose) ?? .none
  }

  /// The first source ended, or either source failed, with `event`: it is delivered after the
  /// pairs already queued.
  mutating func end(with event: Event<(First, Second)>) -> EndAction {
    switch state {
    case .waiting:
      state = .ended
      return .drain(outbox.send(event), releasing: nil)
    case .ready(let latest):
      state = .ended
      return .drain(outbox.send(event), releasing: latest)
    case .ended:
      return .none
    }
  }

  /// The result selector threw while a pair was being delivered: the outbox closes, and what it
  /// still held is handed back, for the caller to release after delivering the error.
  mutating func selectorFailed() -> SelectorFailedAction {
    let queued = outbox.fail()
    return .release(queued: queued, latest: takeLatest())
  }

  /// The next event queued for the delivering thread, if any.
  mutating func nextPending() -> Event<(First, Second)>? {
    outbox.next()
  }

  /// The delivery rank of this subscription's outbox (see ``DeliveryTurns``).
  var turnRank: Int { outbox.turns.rank }

  /// The subscription ends: both subscriptions still held, the queued events and the latest
  /// element are handed back.
  mutating func dispose() -> DisposeAction {
    let queued = outbox.dispose()
    return .dispose(
      first: first.release(), second: second.release(), queued: queued, latest: takeLatest())
  }

  /// The sequence ends: the latest element, if any, leaves the state.
  private mutating func takeLatest() -> Second? {
    defer { state = .ended }
    if case .ready(let latest) = state { return latest }
    return nil
  }
}
