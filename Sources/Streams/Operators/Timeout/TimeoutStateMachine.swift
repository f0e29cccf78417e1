/// The state of one `timeout` subscription: which sequence runs (the source, or `other` after a
/// timeout), the number of the timer that guards the source's next event, and the outbox that
/// serializes the two sequences' events.
///
/// Timers are numbered from 0 (the one started at subscription); each element of the source
/// starts the next. A timer fires for nothing once a later one was started. Every transition
/// runs under the sink's lock and returns what the sink must do once the lock is released
/// (drain an event, start a timer, switch to `other`); the machine never calls out, and the sink
/// never reads its storage.
///
/// ```
///              an element (the next timer starts)
///   running(n) ───────────────────────────────────▶ running(n+1)
///      │    │
///      │    │ timer n fires                  other ends
///      │    └──────────────────▶ switched ──────────────┐
///      │ the source ends                                ▼
///      └──────────────────────────────────────────────▶ ended
/// ```
struct TimeoutStateMachine<Element> {
  /// Which sequence runs.
  private enum State {
    /// The source runs; timer `timer` guards its next event.
    case running(timer: Int)
    /// Timer `timer` fired before the source's next event: the source is disposed and `other`
    /// runs.
    case switched
    /// The sequence that ran ended: its terminal event was accepted (it may still be queued for
    /// the deliverer); nothing more is delivered.
    case ended
  }

  /// What to do with an event of the source.
  enum SourceAction {
    /// Nothing: the sequence switched to `other`, or it ended.
    case drop
    /// Drain `event`: deliver it now, or, when `nil`, let the drain wait for this sender's turn
    /// (the outbox queued it for the deliverer). It was a terminal event: no timer starts.
    case drain(Event<Element>?)
    /// Drain `event` (as ``drain(_:)``), then start timer `timer`, which guards the next one.
    case drainAndStartTimer(Event<Element>?, timer: Int)
  }

  /// What to do when a timer fired.
  enum TimerAction {
    /// Nothing: the source sent an event since the timer started, or the sequence switched or
    /// ended.
    case none
    /// Subscribe to `other`; its subscription replaces the source's, which disposes it.
    case switchToOther
  }

  /// Whether to start a timer the machine asked for, now that its event was drained.
  enum TimerStartAction {
    /// Start it: it is still the latest, and the source still runs.
    case start
    /// Do not: an element sent while the event was delivered (re-entrantly) started a later
    /// one, which must stay, or the sequence switched or ended.
    case skip
  }

  /// What to do with an event of `other`.
  enum OtherAction {
    /// Nothing: `other` already ended.
    case drop
    /// Drain `event`, as ``SourceAction/drain(_:)``.
    case drain(Event<Element>?)
  }

  private var state = State.running(timer: 0)
  private var outbox = SerialOutbox<Element>()

  /// The source sent `event`.
  mutating func sourceSent(_ event: Event<Element>) -> SourceAction {
    guard case .running(let timer) = state else { return .drop }
    if event.isStopEvent {
      state = .ended
      return .drain(outbox.send(event))
    }
    state = .running(timer: timer &+ 1)
    return .drainAndStartTimer(outbox.send(event), timer: timer &+ 1)
  }

  /// Timer `timer` is about to start (``SourceAction/drainAndStartTimer(_:timer:)``, after the
  /// drain): only if it is still the latest.
  func timerStarting(_ timer: Int) -> TimerStartAction {
    guard case .running(let latest) = state, latest == timer else { return .skip }
    return .start
  }

  /// Timer `fired` fired: unless the source sent an event since it started, the sequence
  /// switches to `other`.
  mutating func timerFired(_ fired: Int) -> TimerAction {
    switch state {
    case .running(let timer):
      guard fired <= timer else {
        preconditionFailure(
          "Streams internal error: timeout: timer \(fired) fired, the latest started is \(timer)")
      }
      guard fired == timer else { return .none }
      state = .switched
      return .switchToOther
    case .switched, .ended:
      return .none
    }
  }

  /// `other` sent `event`.
  mutating func otherSent(_ event: Event<Element>) -> OtherAction {
    switch state {
    case .switched:
      if event.isStopEvent { state = .ended }
      return .drain(outbox.send(event))
    case .ended:
      return .drop
    case .running:
      preconditionFailure("Streams internal error: timeout: other sent an event before the timeout")
    }
  }
}

extension TimeoutStateMachine: OutboxState {
  /// The next event queued for the delivering thread, if any (``SerialOutbox/next()``).
  mutating func nextPending() -> Event<Element>? {
    outbox.next()
  }

  /// The delivery rank of this subscription's outbox (see ``DeliveryTurns``).
  var turnRank: Int { outbox.turns.rank }
}
