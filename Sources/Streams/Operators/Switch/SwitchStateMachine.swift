/// The state of one subscription of `switchLatest` / `flatMapLatest`: an outer sequence of inner
/// sequences, of which only the latest is subscribed.
///
/// Inner sequences are numbered from 1; the events of one that is no longer the latest are
/// dropped, which covers one that emits on another thread while it is being replaced. Every
/// transition runs under the sink's lock and returns what the sink must do once the lock is
/// released (dispose a subscription, subscribe to an inner sequence, drain an event); the machine
/// never calls out.
///
/// ```
///                 inner arrives                     outer completes
///   outerOnly ────────────────────▶ outerAndInner ────────────────────▶ innerOnly
///       │     ◀────────────────────                                         │
///       │         inner completes                                           │ inner completes
///       │ outer completes                                                   ▼
///       └────────────────────────────────▶ ended ◀──────────────────────────┘
///                                            ▲
///                                            └── an error, or disposal, in any state
/// ```
///
/// An inner sequence that arrives in `outerAndInner` or `innerOnly` replaces the latest one.
///
/// The outbox and the two subscription slots are stored beside the state: a slot is filled when
/// `subscribe` returns, which may be after the sequence ended (``UpstreamDisposable``).
@usableFromInline
struct SwitchStateMachine<Element>: OutboxState {
  /// Where the switch stands; `latest` is the number of the latest inner sequence (0 before the
  /// first), whose events are forwarded.
  @usableFromInline
  enum State {
    /// The outer sequence runs and no inner sequence is live: none arrived yet, or the latest
    /// one completed.
    case outerOnly(latest: Int)
    /// The outer sequence runs and inner sequence `latest` is live.
    case outerAndInner(latest: Int)
    /// The outer sequence completed and inner sequence `latest` is live: its completion completes
    /// the switch.
    case innerOnly(latest: Int)
    /// A terminal event was accepted (it may still be queued for the deliverer), or the
    /// subscription was disposed: nothing more is delivered. The subscriptions are still held
    /// until disposal, or until their sequence completes.
    case ended(latest: Int)
  }

  /// What to do when the outer sequence's `subscribe` returned, or an inner one's.
  @usableFromInline
  enum SubscribedAction {
    /// Keep it: the machine holds it until it must be disposed.
    case keep
    /// Dispose it now: its sequence already completed, it is outdated, or the switch ended.
    case dispose(any Disposable)
  }

  /// What to do with an inner sequence that arrived.
  @usableFromInline
  enum InnerArrivedAction {
    /// Nothing: the switch ended.
    case ignore
    /// Dispose `replaced`, the latest inner subscription, if any, then subscribe to the sequence,
    /// numbered `id`.
    case subscribe(id: Int, replaced: (any Disposable)?)
  }

  /// What to do with a sequence that emits one element and completes during `subscribe`
  /// (`just`).
  @usableFromInline
  enum ImmediateArrivedAction {
    /// Nothing: the switch ended.
    case ignore
    /// A subscription must be disposed first: nothing changed, the caller takes the path of any
    /// other inner sequence (``innerArrived()``).
    case subscribe
    /// It is the latest sequence, numbered `id`: the caller delivers `first` if it is not `nil`
    /// (otherwise drains), then asks for more (``nextOrImmediateCompleted(_:)``) or completes it
    /// (``immediateCompleted(_:)``).
    case deliver(id: Int, first: Event<Element>?)
  }

  /// What to do when a sequence accepted by ``immediateArrived(_:)`` completed.
  @usableFromInline
  enum ImmediateCompletedAction {
    /// Nothing: the outer sequence still runs, or another sequence replaced it, or the switch
    /// ended.
    case none
    /// The switch completes: drain `completion` (`nil` when it was queued for the deliverer).
    case complete(Event<Element>?)
  }

  /// What the deliverer of a `just`'s element does next.
  @usableFromInline
  enum ImmediateNextAction {
    /// Deliver `event`, which was queued behind the element, then ask again.
    case deliver(Event<Element>)
    /// Nothing was queued: the delivery claim is released and the sequence completed; perform
    /// `completion`.
    case completed(ImmediateCompletedAction)
  }

  /// What to do with an element or an error.
  @usableFromInline
  enum ForwardAction {
    /// Nothing: it came from an outdated inner sequence, or the switch ended.
    case drop
    /// Drain `event`: deliver it now, or, when `nil`, let the drain wait for this sender's turn
    /// (the outbox queued it for the deliverer).
    case drain(Event<Element>?)
  }

  /// What to do when the outer sequence or an inner one completed.
  @usableFromInline
  enum CompletedAction {
    /// Nothing to do: an outdated inner sequence completed, or the completed sequence's
    /// subscription has not returned yet (it is disposed when it does) or was already released.
    case none
    /// Dispose the completed sequence's subscription; the switch goes on.
    case dispose(any Disposable)
    /// The switch completes: dispose the completed sequence's subscription, if it returned, then
    /// drain `completion` (`nil` when it was queued for the deliverer).
    case complete(disposing: (any Disposable)?, completion: Event<Element>?)
  }

  /// What to do when the subscription ends.
  @usableFromInline
  enum DisposeAction {
    /// Dispose `outer`, then `inner` (each `nil` when not subscribed or already released), then
    /// release `queued`, the events that will not be delivered.
    case dispose(
      outer: (any Disposable)?, inner: (any Disposable)?, queued: RingQueue<Event<Element>>)
  }

  /// Internal, not private, only so that the `@inlinable` transitions can use it: the sink goes
  /// through the transitions.
  @usableFromInline var state = State.outerOnly(latest: 0)
  /// Internal only for inlining, as `state`.
  @usableFromInline var outbox = SerialOutbox<Element>()
  /// The outer subscription. Internal only for inlining, as `state`.
  @usableFromInline var outer = UpstreamDisposable.pending
  /// The latest inner subscription: `.pending` while it is being subscribed (or while an outdated
  /// one is, when a `just` replaced it meanwhile), `.released` once it ended. Internal only for
  /// inlining, as `state`.
  @usableFromInline var inner = UpstreamDisposable.released

  /// No inner sequence yet, the outer subscription pending.
  @inlinable
  init() {}

  /// `true` once the switch ended: the sink marks its lifecycle word stopped, so that the outer
  /// sequence's elements are dropped without the lock.
  @inlinable
  var hasEnded: Bool {
    if case .ended = state { return true }
    return false
  }

  /// The outer subscription returned.
  @inlinable
  mutating func outerSubscribed(_ disposable: any Disposable) -> SubscribedAction {
    if let late = outer.store(disposable) { return .dispose(late) }
    return .keep
  }

  /// A new inner sequence replaces the latest one: it is numbered, and the latest subscription is
  /// handed back, to be disposed before the new sequence is subscribed.
  ///
  /// It may arrive once the outer sequence completed: a selector that completes the outer
  /// sequence from inside its `onNext`.
  @inlinable
  mutating func innerArrived() -> InnerArrivedAction {
    let id: Int
    switch state {
    case .ended:
      return .ignore
    case .outerOnly(let latest), .outerAndInner(let latest):
      id = latest &+ 1
      state = .outerAndInner(latest: id)
    case .innerOnly(let latest):
      id = latest &+ 1
      state = .innerOnly(latest: id)
    }
    let replaced = inner.release()
    inner = .pending
    return .subscribe(id: id, replaced: replaced)
  }

  /// A sequence that emits `element` and completes during `subscribe` (`just`) replaces the
  /// latest one, unless a subscription must be disposed first.
  ///
  /// It has no subscription, so `inner` is left as it is: `.released` (the previous sequence
  /// ended) or `.pending` (a sequence still being subscribed, which ``innerSubscribed(_:_:)``
  /// will find outdated), which every other transition treats alike. No existential is copied:
  /// that costs a value-witness call per copy.
  @inlinable
  mutating func immediateArrived(_ element: Element) -> ImmediateArrivedAction {
    let id: Int
    switch state {
    case .ended:
      return .ignore
    case .outerOnly(let latest), .outerAndInner(let latest):
      if inner.isSet { return .subscribe }
      id = latest &+ 1
      state = .outerAndInner(latest: id)
    case .innerOnly(let latest):
      if inner.isSet { return .subscribe }
      id = latest &+ 1
      state = .innerOnly(latest: id)
    }
    return .deliver(id: id, first: outbox.send(.next(element)))
  }

  /// The sequence accepted by ``immediateArrived(_:)`` as `id` completed (once).
  @inlinable
  mutating func immediateCompleted(_ id: Int) -> ImmediateCompletedAction {
    switch state {
    case .outerOnly(let latest):
      if id == latest {
        preconditionFailure(
          "Streams internal error: switchLatest: immediate sequence \(id) completed in state "
            + "\(state)")
      }
      return .none
    case .outerAndInner(let latest):
      if id == latest { state = .outerOnly(latest: latest) }
      return .none
    case .innerOnly(let latest):
      guard id == latest else { return .none }
      state = .ended(latest: latest)
      return .complete(outbox.send(.completed))
    case .ended:
      return .none
    }
  }

  /// The deliverer of the element of sequence `id` (accepted by ``immediateArrived(_:)``) asks
  /// for more: the next queued event (``SerialOutbox/next()``), or, when there is none, the
  /// delivery claim is released and the sequence completes (``immediateCompleted(_:)``), in one
  /// critical section instead of two.
  @inlinable
  mutating func nextOrImmediateCompleted(_ id: Int) -> ImmediateNextAction {
    if let event = outbox.next() { return .deliver(event) }
    return .completed(immediateCompleted(id))
  }

  /// Inner subscription `id` returned.
  @inlinable
  mutating func innerSubscribed(_ id: Int, _ disposable: any Disposable) -> SubscribedAction {
    switch state {
    case .ended:
      return .dispose(disposable)
    case .outerOnly(let latest), .outerAndInner(let latest), .innerOnly(let latest):
      guard id == latest else { return .dispose(disposable) }
      if let late = inner.store(disposable) { return .dispose(late) }
      return .keep
    }
  }

  /// Inner sequence `id` sent `next`, an element (passed as the event it came in, not rebuilt).
  @inlinable
  mutating func innerNext(_ id: Int, _ next: Event<Element>) -> ForwardAction {
    switch state {
    case .outerAndInner(let latest), .innerOnly(let latest):
      guard id == latest else { return .drop }
      return .drain(outbox.send(next))
    case .outerOnly(let latest):
      if id == latest {
        preconditionFailure(
          "Streams internal error: switchLatest: element of completed inner sequence \(id) in "
            + "state \(state)")
      }
      return .drop
    case .ended:
      return .drop
    }
  }

  /// Inner sequence `id` failed: the switch fails, unless the sequence is outdated.
  @inlinable
  mutating func innerFailed(_ id: Int, _ error: any Error) -> ForwardAction {
    switch state {
    case .outerAndInner(let latest), .innerOnly(let latest):
      guard id == latest else { return .drop }
      state = .ended(latest: latest)
      return .drain(outbox.send(.error(error)))
    case .outerOnly(let latest):
      if id == latest {
        preconditionFailure(
          "Streams internal error: switchLatest: error of completed inner sequence \(id) in "
            + "state \(state)")
      }
      return .drop
    case .ended:
      return .drop
    }
  }

  /// Inner sequence `id` completed: its subscription is released; when the outer sequence
  /// completed too, the switch completes.
  @inlinable
  mutating func innerCompleted(_ id: Int) -> CompletedAction {
    switch state {
    case .outerOnly(let latest):
      if id == latest {
        preconditionFailure(
          "Streams internal error: switchLatest: inner sequence \(id) completed in state "
            + "\(state)")
      }
      return .none
    case .outerAndInner(let latest):
      guard id == latest else { return .none }
      state = .outerOnly(latest: latest)
      if let disposable = inner.release() { return .dispose(disposable) }
      return .none
    case .innerOnly(let latest):
      guard id == latest else { return .none }
      state = .ended(latest: latest)
      let disposable = inner.release()
      return .complete(disposing: disposable, completion: outbox.send(.completed))
    case .ended(let latest):
      // Failed (not yet disposed): the latest releases its subscription itself.
      guard id == latest, let disposable = inner.release() else { return .none }
      return .dispose(disposable)
    }
  }

  /// The outer sequence completed: its subscription is released; when no inner sequence is live,
  /// the switch completes.
  @inlinable
  mutating func outerCompleted() -> CompletedAction {
    switch state {
    case .outerOnly(let latest):
      state = .ended(latest: latest)
      let disposable = outer.release()
      return .complete(disposing: disposable, completion: outbox.send(.completed))
    case .outerAndInner(let latest):
      state = .innerOnly(latest: latest)
    case .innerOnly:
      preconditionFailure(
        "Streams internal error: switchLatest: outer sequence completed in state \(state)")
    case .ended:
      break
    }
    if let disposable = outer.release() { return .dispose(disposable) }
    return .none
  }

  /// The outer sequence failed: the switch fails.
  @inlinable
  mutating func outerFailed(_ error: any Error) -> ForwardAction {
    switch state {
    case .outerOnly(let latest), .outerAndInner(let latest):
      state = .ended(latest: latest)
      return .drain(outbox.send(.error(error)))
    case .innerOnly:
      preconditionFailure(
        "Streams internal error: switchLatest: outer sequence failed in state \(state)")
    case .ended:
      return .drop
    }
  }

  /// The selector threw for an element of the outer sequence: the switch fails. (The outer
  /// sequence may have completed meanwhile: a selector that completes it from inside its
  /// `onNext`.)
  @inlinable
  mutating func selectorFailed(_ error: any Error) -> ForwardAction {
    switch state {
    case .outerOnly(let latest), .outerAndInner(let latest), .innerOnly(let latest):
      state = .ended(latest: latest)
      return .drain(outbox.send(.error(error)))
    case .ended:
      return .drop
    }
  }

  /// The next event queued for the delivering thread, if any (``SerialOutbox/next()``).
  @inlinable
  mutating func nextPending() -> Event<Element>? {
    outbox.next()
  }

  /// The delivery rank of this subscription's outbox (see ``DeliveryTurns``).
  @inlinable
  var turnRank: Int { outbox.turns.rank }

  /// The subscription ends: both subscriptions and the queued events are handed back.
  @inlinable
  mutating func dispose() -> DisposeAction {
    switch state {
    case .outerOnly(let latest), .outerAndInner(let latest), .innerOnly(let latest),
      .ended(let latest):
      state = .ended(latest: latest)
    }
    let queued = outbox.dispose()
    return .dispose(outer: outer.release(), inner: inner.release(), queued: queued)
  }
}
