/// The state of one `debounce` subscription: the element waiting for its quiet time to pass, the
/// generation of the latest element, and the outbox that serializes the timer's emissions with
/// the source's terminal events.
///
/// Elements are numbered by generation, from 1; the timer scheduled for an element carries its
/// generation, and fires for nothing once a later element arrived. Every transition runs under
/// the sink's lock and returns what the sink must do once the lock is released (schedule a timer,
/// drain an event, release an element); the machine never calls out, and the sink never reads
/// its storage. `@inlinable` throughout, so that it specializes in the caller's module.
///
/// ```
///            an element (its timer is scheduled)       an element (replaces it; a new timer)
///   idle ─────────────────────────────────────▶ waiting ◀──┐
///    ▲                                              │  └────┘
///    └──────── its timer fires: it is emitted ──────┘
///
///   the source completes (emitting a waiting element) or fails, in any state ──▶ ended
/// ```
@usableFromInline
struct DebounceStateMachine<Element>: OutboxState {
  /// Where the subscription stands.
  @usableFromInline
  enum State {
    /// No element waits.
    case idle
    /// `element`, the latest, waits for the timer of the current generation.
    case waiting(Element)
    /// The source ended: its terminal event was accepted (it may still be queued for the
    /// deliverer); nothing more is emitted.
    case ended
  }

  /// What to do with an element of the source.
  @usableFromInline
  enum ReceivedAction {
    /// Nothing: the sequence ended.
    case drop
    /// Schedule the timer of `generation`, then release `replaced`, the element that waited
    /// before (its `deinit` may send another element, whose timer must replace this one).
    case schedule(generation: UInt64, releasing: Element?)
  }

  /// What to do when a timer fired or the source completed.
  @usableFromInline
  enum DrainAction {
    /// Nothing: the timer is stale (a later element arrived, or its element was emitted), or the
    /// sequence already ended.
    case none
    /// Drain `event`: deliver it now, or, when `nil`, let the drain wait for this sender's turn
    /// (the outbox queued it for the deliverer).
    case drain(Event<Element>?)
  }

  /// What to do when the source failed.
  @usableFromInline
  enum FailedAction {
    /// Nothing: the sequence already ended.
    case none
    /// Drain `event` (as ``DrainAction/drain(_:)``), then release `dropped`, the element that
    /// waited.
    case drain(Event<Element>?, dropping: Element?)
  }

  // The state and what is stored beside it: internal, not private, only so that the `@inlinable`
  // transitions can use them; the sink goes through the transitions.
  @usableFromInline var state = State.idle
  /// The generation of the latest element (0 before the first).
  @usableFromInline var generation: UInt64 = 0
  @usableFromInline var outbox = SerialOutbox<Element>()

  @inlinable
  init() {}

  /// The source sent `element`: it waits for the timer of a new generation.
  @inlinable
  mutating func received(_ element: Element) -> ReceivedAction {
    let replaced: Element?
    switch state {
    case .idle:
      replaced = nil
    case .waiting(let waiting):
      replaced = waiting
    case .ended:
      return .drop
    }
    state = .waiting(element)
    generation &+= 1
    return .schedule(generation: generation, releasing: replaced)
  }

  /// The timer of `fired` fired: the waiting element is emitted if it is still that
  /// generation's.
  @inlinable
  mutating func timerFired(_ fired: UInt64) -> DrainAction {
    guard fired <= generation else {
      preconditionFailure(
        "Streams internal error: debounce: timer of element \(fired) fired, the latest is \(generation)"
      )
    }
    guard fired == generation, case .waiting(let element) = state else { return .none }
    state = .idle
    return .drain(outbox.send(.next(element)))
  }

  /// The source completed: the waiting element is emitted at once, then the completion.
  @inlinable
  mutating func completed() -> DrainAction {
    switch state {
    case .idle:
      state = .ended
      return .drain(outbox.send(.completed))
    case .waiting(let element):
      state = .ended
      let first = outbox.send(.next(element))
      let completed = outbox.send(.completed)
      return .drain(first ?? completed)
    case .ended:
      return .none
    }
  }

  /// The source failed with `error`: it is emitted at once, and the waiting element is dropped.
  @inlinable
  mutating func failed(_ error: any Error) -> FailedAction {
    let dropped: Element?
    switch state {
    case .idle:
      dropped = nil
    case .waiting(let element):
      dropped = element
    case .ended:
      return .none
    }
    state = .ended
    return .drain(outbox.send(.error(error)), dropping: dropped)
  }

  /// The next event queued for the delivering thread, if any (``SerialOutbox/next()``).
  @inlinable
  mutating func nextPending() -> Event<Element>? {
    outbox.next()
  }

  /// The delivery rank of this subscription's outbox (see ``DeliveryTurns``).
  @inlinable
  var turnRank: Int { outbox.turns.rank }
}
