/// Serial delivery for operators whose events come from more than one place: several sources,
/// a source and a scheduler's timer, or an observer that re-enters the operator.
///
/// Sources may emit on different threads at once, and an observer may re-enter an operator from
/// inside its own `on(_:)`. An operator keeps a `SerialOutbox` inside its lock-guarded state machine:
/// the first event to arrive while nobody is delivering is handed back to the caller, which
/// delivers it *outside the lock* and then drains whatever other threads queued meanwhile
/// (``SerialOutboxOwner/drain(_:)``, or ``Locked/drain(_:into:)`` for a sink that delivers to a
/// ``GuardedSink``). Downstream therefore never sees two events at once and never runs under a
/// lock, and the events keep the order in which the state machine accepted them. Handing the
/// first event back means an uncontended event never touches the queue.
///
/// The payload is what the state machine decided, not necessarily the downstream element:
/// `combineLatest` queues snapshots of the latest values and runs its result selector while
/// delivering, so that the selector is never called under the lock and never concurrently.
///
/// Nothing is released under the lock: ``dispose()`` and ``fail()`` hand the queued events back to
/// the caller, which releases them after unlocking (an element's `deinit` may re-enter the
/// operator). An event that ``send(_:)`` drops because the outbox is closed is released where it
/// was made, inside the caller's critical section: send only events whose elements the caller
/// still holds elsewhere (its own arguments), or check ``isClosed`` before moving a stored
/// element into an event.
@usableFromInline
struct SerialOutbox<Payload> {
  @usableFromInline var pending = RingQueue<Event<Payload>>()
  @usableFromInline var isDelivering = false
  /// A terminal event was accepted: later events are dropped.
  @usableFromInline var isTerminated = false
  /// The subscription was disposed: pending and later events are dropped.
  @usableFromInline var isDisposed = false

  /// An open outbox that nobody is delivering from.
  @inlinable
  init() {}

  /// `true` once nothing more will be delivered.
  @inlinable
  var isClosed: Bool { isTerminated || isDisposed }

  /// Accepts `event`. Returns it when the caller must deliver it now (it then owns delivery until
  /// ``next()`` returns `nil`); returns `nil` when it was queued for the current deliverer or
  /// dropped because the outbox is closed.
  ///
  /// Several sends in one critical section hand back at most one event, the first: keep the
  /// first non-`nil` result. Write `let second = outbox.send(b)` and then `first ?? second`, never
  /// `first ?? outbox.send(b)`, which skips the send when `first` is set.
  @inlinable
  mutating func send(_ event: Event<Payload>) -> Event<Payload>? {
    if isClosed { return nil }
    if event.isStopEvent { isTerminated = true }
    if isDelivering {
      pending.append(event)
      return nil
    }
    isDelivering = true
    return event
  }

  /// Called by the deliverer after each event: the next queued event, or `nil` after releasing
  /// the delivery claim.
  ///
  /// Once the outbox is disposed or failed the queue is empty (those hand it back) and stays
  /// empty (``send(_:)`` drops), so this returns `nil`.
  @inlinable
  mutating func next() -> Event<Payload>? {
    if let event = pending.popFirst() { return event }
    isDelivering = false
    return nil
  }

  /// Closes the outbox without delivering anything more: a selector failed while delivering and
  /// the deliverer sends the error itself. Returns the queued events, which the caller releases
  /// after unlocking.
  @inlinable
  mutating func fail() -> RingQueue<Event<Payload>> {
    isTerminated = true
    return pending.removeAll()
  }

  /// Marks the subscription disposed: later events are dropped. Returns the queued events, which
  /// the caller releases after unlocking.
  @inlinable
  mutating func dispose() -> RingQueue<Event<Payload>> {
    isDisposed = true
    return pending.removeAll()
  }
}

/// An operator sink that delivers through an ``SerialOutbox``.
@usableFromInline
protocol SerialOutboxOwner: AnyObject {
  associatedtype Payload

  /// Delivers one accepted event downstream (outside any lock). Returns `true` when the sequence
  /// ended with it, in which case ``drain(_:)`` disposes the sink.
  func deliver(_ event: Event<Payload>) -> Bool

  /// Takes the next queued event under the lock (``SerialOutbox/next()``).
  func nextPending() -> Event<Payload>?

  /// Disposes every upstream subscription.
  func dispose()
}

extension SerialOutboxOwner {
  /// Delivers `first` (the event ``SerialOutbox/send(_:)`` handed back) and everything queued behind it.
  @inlinable
  func drain(_ first: Event<Payload>?) {
    guard var event = first else { return }
    while true {
      if deliver(event) {
        dispose()
        return
      }
      guard let next = nextPending() else { return }
      event = next
    }
  }
}

/// Lock-guarded state whose ``SerialOutbox`` delivers to a ``GuardedSink``: the time-based
/// operators (`debounce`, `throttle`, `buffer`, `delay`, `timeout`, `take(for:)`, `sample`), whose
/// events come from the source and from a scheduler. (`observe(on:)` delivers from the same
/// outbox, one scheduled action per event.)
///
/// The sink guards the downstream (it drops what follows a terminal event or disposal), so such
/// an outbox is never disposed: events queued when the subscription ends are drained by whoever
/// holds the delivery claim, to a sink that drops them, and released by that thread outside the
/// lock.
@usableFromInline
protocol OutboxState {
  associatedtype Output
  var outbox: SerialOutbox<Output> { get set }
}

extension Locked where State: OutboxState {
  /// Runs `body` under the lock, then delivers the event it handed back (the first non-`nil`
  /// result of its ``SerialOutbox/send(_:)`` calls) and what was queued behind it.
  @inlinable
  @discardableResult
  func update<Result>(
    into sink: GuardedSink<State.Output>,
    _ body: (inout State) -> (result: Result, deliver: Event<State.Output>?)
  ) -> Result {
    let (result, first) = withLock(body)
    drain(first, into: sink)
    return result
  }

  /// Delivers `first` (the event ``SerialOutbox/send(_:)`` handed back) and everything queued
  /// behind it to `sink`, outside the lock.
  @inlinable
  func drain(_ first: Event<State.Output>?, into sink: GuardedSink<State.Output>) {
    guard var event = first else { return }
    while true {
      sink.on(event)
      guard let next = withLock({ $0.outbox.next() }) else { return }
      event = next
    }
  }
}
