import StreamsShims

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
  /// Where delivery stands. Transitions: ``send(_:)`` claims an idle outbox (`delivering`, or
  /// `terminating` for a terminal event) or queues behind the claim holder; ``next()`` hands the
  /// claim holder the next event or releases the claim (`idle`; `closed(delivering: false)` after a
  /// terminal event); ``fail()`` and ``dispose()`` close it, keeping note of a claim holder that
  /// has not yet asked for its next event.
  @usableFromInline
  enum State {
    /// Open; nobody delivers and nothing is queued.
    case idle
    /// Open; a thread holds the delivery claim.
    case delivering
    /// A terminal event was accepted; the claim holder delivers what is queued, up to it.
    case terminating
    /// Nothing more will be delivered; `delivering` while a claim holder has yet to call ``next()``.
    case closed(delivering: Bool)
  }

  @usableFromInline var state = State.idle
  @usableFromInline var pending = RingQueue<Event<Payload>>()
  /// How the claim passes between threads (the bound on one call's work: see ``DeliveryTurns``).
  @usableFromInline var turns: DeliveryTurns

  /// An open outbox that nobody is delivering from. With `sendersWait` false a sender never waits
  /// for its turn (`observe(on:)`, whose events are delivered by a scheduled action rather than a
  /// sender, one action per event).
  @inlinable
  init(sendersWait: Bool = true) {
    turns = DeliveryTurns(order: sendersWait ? .operator : .unranked)
  }

  /// `true` once nothing more will be delivered.
  @inlinable
  var isClosed: Bool {
    switch state {
    case .idle, .delivering: false
    case .terminating, .closed: true
    }
  }

  /// Accepts `event`. Returns it when the caller must deliver it now (it then owns delivery until
  /// ``next()`` returns `nil`); returns `nil` when it was queued for the current deliverer or
  /// dropped because the outbox is closed.
  ///
  /// A queued event whose sender must wait for its turn (see ``DeliveryTurns``) leaves a
  /// ``TurnWaiter`` for the caller's drain (``SerialOutboxOwner/drain(_:)``,
  /// ``Locked/drain(_:into:)``), which the caller runs next with the result, as always.
  ///
  /// Several sends in one critical section hand back at most one event, the first: keep the
  /// first non-`nil` result. Write `let second = outbox.send(b)` and then `first ?? second`, never
  /// `first ?? outbox.send(b)`, which skips the send when `first` is set.
  @inlinable
  mutating func send(_ event: Event<Payload>) -> Event<Payload>? {
    switch state {
    case .terminating, .closed:
      return nil
    case .idle:
      state = event.isStopEvent ? .terminating : .delivering
      turns.claimed()
      if turns.rank != 0 { streams_claim_taken_push(turns.rank) }
      return event
    case .delivering:
      if event.isStopEvent { state = .terminating }
      pending.append(event)
      // One waiter per critical section: a second send queued in it goes with the first.
      let mayWait = streams_turn_waiter_get() == nil
      if let waiter = turns.appendedItem(backlog: pending.count, mayWait: mayWait) {
        TurnWaiter.stash(waiter)
      }
      return nil
    }
  }

  /// Called by the claim holder after each event: the next queued event, or `nil` after releasing
  /// the claim, or after handing it to a waiting sender when the turn is over (the waiter is
  /// woken here: a condition variable's signal, no user code).
  ///
  /// Once the outbox is disposed or failed the queue is empty (those hand it back) and stays
  /// empty (``send(_:)`` drops), so this returns `nil`.
  @inlinable
  mutating func next() -> Event<Payload>? {
    switch state {
    case .idle:
      preconditionFailure("Streams: SerialOutbox.next() called while nobody holds the claim")
    case .closed:
      state = .closed(delivering: false)
      return nil
    case .delivering, .terminating:
      guard !pending.isEmpty else {
        if case .terminating = state { state = .closed(delivering: false) } else { state = .idle }
        turns.released()
        return nil
      }
      if turns.turnEnds(after: turns.spent(turnCount: turns.delivered)) != nil {
        return nil  // handed on
      }
      let event = pending.popFirst()
      _ = turns.tookEvent(turnCount: turns.delivered &+ 1)
      if let done = turns.takeItem() { done.wakeDone() }
      return event
    }
  }

  /// Closes the outbox without delivering anything more: a selector failed while delivering and
  /// the deliverer sends the error itself. Returns the queued events, which the caller releases
  /// after unlocking.
  @inlinable
  mutating func fail() -> RingQueue<Event<Payload>> {
    close()
  }

  /// Marks the subscription disposed: later events are dropped. Returns the queued events, which
  /// the caller releases after unlocking.
  @inlinable
  mutating func dispose() -> RingQueue<Event<Payload>> {
    close()
  }

  /// Closes the outbox, wakes the waiting senders (their events are dropped) and returns the
  /// queued events.
  @inlinable
  mutating func close() -> RingQueue<Event<Payload>> {
    switch state {
    case .idle: state = .closed(delivering: false)
    case .delivering, .terminating: state = .closed(delivering: true)
    case .closed: break
    }
    let dropped = pending.removeAll()
    TurnWaiter.wakeAll(turns.dropAll(queued: dropped.count))
    return dropped
  }
}

/// An operator sink that delivers through the ``SerialOutbox`` of the state machine behind its
/// lock: the multi-source sinks (``MultiSourceSink``) and `window`.
@usableFromInline
protocol SerialOutboxOwner: AnyObject {
  associatedtype Payload
  /// The state machine, which keeps the outbox.
  associatedtype Machine: OutboxState where Machine.Output == Payload

  /// The state machine behind its lock.
  var state: Locked<Machine> { get }

  /// Delivers one accepted event downstream (outside any lock). Returns `true` when the sequence
  /// ended with it, in which case ``drain(_:)`` disposes the sink.
  func deliver(_ event: Event<Payload>) -> Bool

  /// Disposes every upstream subscription.
  func dispose()
}

extension SerialOutboxOwner {
  /// Takes the next queued event under the lock (``SerialOutbox/next()``).
  @inlinable
  func nextPending() -> Event<Payload>? {
    state.withLock { $0.nextPending() }
  }

  /// The outbox's rank (``DeliveryTurns/rank``), read under the lock: it tells a drain whether the
  /// waiter the calling thread registered is this outbox's.
  @inlinable
  var turnRank: Int {
    state.withLock { $0.turnRank }
  }

  /// Delivers `first` (the event ``SerialOutbox/send(_:)`` handed back) and everything queued
  /// behind it (``Locked/drain(_:deliver:)``); disposes the sink right after the terminal event,
  /// still holding the claim's rank, so that what disposal runs (`do(onDispose:)`, a `deinit`)
  /// sends at the same rank as the delivery it follows.
  @inlinable
  func drain(_ first: Event<Payload>?) {
    // A closure, not the method itself: a method reference here costs a thunk per drain.
    state.drain(first) { event in
      guard deliver(event) else { return false }
      dispose()
      return true
    }
  }

}

/// Lock-guarded state that keeps a ``SerialOutbox``: every operator state machine with one.
///
/// Two kinds of sink deliver from it. A ``SerialOutboxOwner`` (merge, switch, concat, the
/// combines, withLatestFrom, amb, window) delivers each event itself and is disposed by the drain
/// that delivered the terminal event. The time-based operators (`debounce`, `throttle`, `buffer`,
/// `delay`, `timeout`, `sample`) and `take(for:)`, whose events come from the source and from a
/// scheduler or another sequence, deliver to a ``GuardedSink`` (``Locked/update(into:_:)``).
/// (`observe(on:)` delivers from the same outbox, one scheduled action per event.)
///
/// A ``GuardedSink`` guards the downstream (it drops what follows a terminal event or disposal),
/// so its outbox is never disposed: events queued when the subscription ends are drained by
/// whoever holds the delivery claim, to a sink that drops them, and released by that thread
/// outside the lock.
@usableFromInline
protocol OutboxState {
  associatedtype Output

  /// The next event queued for the delivering thread, if any (``SerialOutbox/next()``).
  mutating func nextPending() -> Event<Output>?

  /// The outbox's rank (``DeliveryTurns/rank``): it tells a drain whether the waiter the calling
  /// thread registered is this outbox's.
  var turnRank: Int { get }
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
  /// behind it to `sink`, outside the lock (``drain(_:deliver:)``).
  @inlinable
  func drain(_ first: Event<State.Output>?, into sink: GuardedSink<State.Output>) {
    drain(first) { event in
      sink.on(event)
      return false
    }
  }

  /// Delivers `first` (the event ``SerialOutbox/send(_:)`` handed back) and everything queued
  /// behind it with `deliver`, outside the lock, in turns (see ``DeliveryTurns``), until `deliver`
  /// returns `true` (the sequence ended) or nothing is left. `deliver` runs holding the claim's
  /// rank. With no `first`, waits when the send left a ``TurnWaiter``, and delivers when the claim
  /// is handed to it.
  ///
  /// Always inlined: its two callers pass a closure literal, and a call that is not inlined cost
  /// combineLatest2 about 50 instructions per element (Performance.md).
  @inlinable @inline(__always)
  func drain(_ first: Event<State.Output>?, deliver: (Event<State.Output>) -> Bool) {
    let rank: Int
    if first != nil {
      rank = ClaimRank.takeClaimed()
    } else {
      guard let waiter = TurnWaiter.takeStashed(rank: withLock({ $0.turnRank })),
        waiter.wait() == .handed
      else { return }
      rank = waiter.rank
    }
    // Entered before a handed claim's first event is taken: a new call's turn count starts here.
    let saved = ClaimRank.enter(rank)
    defer { ClaimRank.leave(saved) }
    guard var event = first ?? withLock({ $0.nextPending() }) else { return }
    while true {
      if deliver(event) { return }
      guard let next = withLock({ $0.nextPending() }) else { return }
      event = next
    }
  }
}

extension SerialOutboxOwner {
  /// ``deliver(_:)`` for a sink whose elements go through a result selector (combineLatest, zip,
  /// withLatestFrom): forwards what `selector` returns; when it throws, `selectorFailed` closes
  /// the outbox under the lock and returns what was still queued, which is released after the
  /// error has been delivered. Returns whether the sequence ended.
  @inlinable
  func deliverSelecting<Result, Released>(
    _ event: Event<Payload>, to downstream: AnyObserver<Result>,
    _ selector: (Payload) throws -> Result, selectorFailed: () -> Released
  ) -> Bool {
    switch event {
    case .next(let payload):
      let result: Result
      do {
        result = try selector(payload)
      } catch {
        let released = selectorFailed()
        downstream.on(.error(error))
        withExtendedLifetime(released) {}
        return true
      }
      downstream.on(.next(result))
      return false
    case .error(let error):
      downstream.on(.error(error))
      return true
    case .completed:
      downstream.on(.completed)
      return true
    }
  }
}
