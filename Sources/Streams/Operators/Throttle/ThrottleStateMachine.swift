/// The state of one `throttle` subscription: the element kept for the end of the window, when
/// the last element was sent, and the outbox that serializes the timer's emissions with the
/// source's events.
///
/// Times are nanoseconds on the scheduler's clock, read by the sink before it locks. Every
/// transition runs under the sink's lock and returns what the sink must do once the lock is
/// released (schedule the timer, drain an event, release an element); the machine never calls
/// out, and the sink never reads its storage.
///
/// ```
///          an element within the window (latest: true; the timer is scheduled)
///   idle ─────────────────────────────────────────────────────────▶ keeping ◀──┐
///    ▲ ▲ └─┘ an element after the window: sent at once                │   │ └──┘ a later one
///    │ └──────── the timer fires, or an element after the window ─────┘   │  replaces it
///    │                 (the kept element, or the new one, is sent)        │
///    │                                                                    │ the source completes
///    │ the source completes                                               ▼
///    └──────────────────────────▶ ended ◀──── the timer fires ──── completing
///                                   ▲      (the kept element, then the completion)
///                                   └── an error, in any state
/// ```
struct ThrottleStateMachine<Element> {
  /// Where the subscription stands.
  private enum State {
    /// No element is kept.
    case idle
    /// `element` arrived within the window (`latest: true`); the timer that ends the window
    /// emits it.
    case keeping(Element)
    /// The source completed while `element` was kept: the timer emits it, then the completion.
    case completing(Element)
    /// A terminal event was accepted (it may still be queued for the deliverer): nothing more is
    /// emitted.
    case ended
  }

  /// What to do with an element of the source.
  enum ReceivedAction {
    /// Nothing: the element falls within the window and `latest` is `false`, or the sequence
    /// ended (the caller drops it).
    case drop
    /// Drain `event`, the element sent at once (`nil`: the outbox queued it for the
    /// deliverer), then release `replaced`, the element that was kept, which it supersedes.
    case drain(Event<Element>?, releasing: Element?)
    /// Schedule the timer that ends the window, in `nanoseconds`: the element is kept until
    /// then.
    case schedule(after: Int64)
    /// Release `replaced`, the element kept before: the new one is kept in its place, for the
    /// timer already scheduled.
    case release(Element)
  }

  /// What to do when the timer fired or the source completed.
  enum DrainAction {
    /// Nothing: no element is kept (the timer is stale, or the completion waits for it), or the
    /// sequence ended.
    case none
    /// Drain `event`: deliver it now, or, when `nil`, let the drain wait for this sender's turn
    /// (the outbox queued it for the deliverer).
    case drain(Event<Element>?)
  }

  /// What to do when the source failed.
  enum FailedAction {
    /// Nothing: the sequence already ended.
    case none
    /// Drain `event` (as ``DrainAction/drain(_:)``), then release `dropped`, the element that
    /// was kept.
    case drain(Event<Element>?, dropping: Element?)
  }

  private var state = State.idle
  /// When the last element was sent; `nil` before the first.
  private var lastSent: Int64?
  private var outbox = SerialOutbox<Element>()
  /// The shortest time between two elements sent, in nanoseconds.
  private let dueTime: Int64
  /// Whether an element within the window is kept for its end (or dropped).
  private let latest: Bool

  init(dueTime: Int64, latest: Bool) {
    self.dueTime = dueTime
    self.latest = latest
  }

  /// The source sent `element` at `now`.
  mutating func received(_ element: Element, at now: Int64) -> ReceivedAction {
    let kept: Element?
    switch state {
    case .idle: kept = nil
    case .keeping(let element): kept = element
    case .completing, .ended: return .drop
    }
    let remaining = lastSent.map { dueTime &- (now &- $0) } ?? 0
    if remaining <= 0 {
      state = .idle
      lastSent = now
      return .drain(outbox.send(.next(element)), releasing: kept)
    }
    guard latest else { return .drop }
    state = .keeping(element)
    return kept.map(ReceivedAction.release) ?? .schedule(after: remaining)
  }

  /// The timer that ends the window fired at `now`: the kept element is sent, and the
  /// completion after it if the source completed meanwhile.
  mutating func timerFired(at now: Int64) -> DrainAction {
    guard lastSent != nil else {
      preconditionFailure(
        "Streams internal error: throttle: timer fired before an element was sent")
    }
    switch state {
    case .idle, .ended:
      return .none
    case .keeping(let element):
      state = .idle
      lastSent = now
      return .drain(outbox.send(.next(element)))
    case .completing(let element):
      state = .ended
      lastSent = now
      let first = outbox.send(.next(element))
      let completed = outbox.send(.completed)
      return .drain(first ?? completed)
    }
  }

  /// The source completed: at once, or after the kept element, when the timer fires.
  mutating func completed() -> DrainAction {
    switch state {
    case .idle:
      state = .ended
      return .drain(outbox.send(.completed))
    case .keeping(let element):
      state = .completing(element)
      return .none
    case .completing, .ended:
      return .none
    }
  }

  /// The source failed with `error`: it is emitted at once, and the kept element is dropped.
  mutating func failed(_ error: any Error) -> FailedAction {
    let dropped: Element?
    switch state {
    case .idle: dropped = nil
    case .keeping(let element), .completing(let element): dropped = element
    case .ended: return .none
    }
    state = .ended
    return .drain(outbox.send(.error(error)), dropping: dropped)
  }
}

extension ThrottleStateMachine: OutboxState {
  /// The next event queued for the delivering thread, if any (``SerialOutbox/next()``).
  mutating func nextPending() -> Event<Element>? {
    outbox.next()
  }

  /// The delivery rank of this subscription's outbox (see ``DeliveryTurns``).
  var turnRank: Int { outbox.turns.rank }
}
