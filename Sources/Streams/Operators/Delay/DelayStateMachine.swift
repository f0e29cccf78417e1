/// The state of one `delay` subscription: the events waiting for their time, each with the time
/// it arrived, whether a timer is scheduled for the first of them, and the outbox that
/// serializes the timer's emissions with the source's error.
///
/// Times are nanoseconds on the scheduler's clock, read by the sink before it locks. One timer
/// at a time: it is scheduled when an event arrives and none waits, and each time it fires it
/// emits the first waiting event and is scheduled again for the next one. Every transition runs
/// under the sink's lock and returns what the sink must do once the lock is released (schedule
/// the timer, drain an event, release the dropped events); the machine never calls out, and the
/// sink never reads its storage.
///
/// ```
///          an element (the timer is scheduled)          the source completes
///   idle ──────────────────────────────────────▶ waiting ──────────────────────▶ completing
///    ▲ │                                           │                                │
///    │ └───────────────── the source completes ────┼───────────────────────────────▶│
///    └──── the timer emits the last waiting one ───┘                                │
///                                             the timer emits the completion        ▼
///   an error, in any state ─────────────────────────────────────────────────────▶ ended
/// ```
struct DelayStateMachine<Element> {
  /// Where the subscription stands.
  private enum State {
    /// The source runs and nothing waits: no timer is scheduled.
    case idle
    /// The source runs; elements wait, and the timer is scheduled for the first.
    case waiting
    /// The source completed: its completion waits behind the elements still waiting, and the
    /// timer is scheduled for the first.
    case completing
    /// The source failed (the error may still be queued for the deliverer), or the timer
    /// emitted the completion: nothing more is emitted. A timer still scheduled fires for
    /// nothing.
    case ended
  }

  /// What to do with an element or the completion of the source.
  enum ReceivedAction {
    /// Nothing: it waits for the timer already scheduled.
    case queued
    /// Schedule the timer, in `nanoseconds`: it is the first event to wait.
    case startTimer(after: Int64)
    /// Nothing: the sequence ended, or the source already completed (the caller drops it).
    case drop
  }

  /// What to do when the timer fired.
  enum TimerAction {
    /// Nothing: the sequence ended.
    case none
    /// Drain `event`, the first waiting event: deliver it now, or, when `nil`, let the drain
    /// wait for this sender's turn (the outbox queued it for the deliverer). Nothing else waits.
    case drain(Event<Element>?)
    /// Drain `event`, as ``drain(_:)``, then schedule the timer again, in `nanoseconds`, for
    /// the next waiting event.
    case drainAndSchedule(Event<Element>?, after: Int64)
  }

  /// What to do when the source failed.
  enum FailedAction {
    /// Nothing: the sequence already ended.
    case none
    /// Drain `event` (as ``TimerAction/drain(_:)``), then release `dropped`, the events that
    /// waited.
    case drain(Event<Element>?, dropping: RingQueue<(time: Int64, event: Event<Element>)>)
  }

  private var state = State.idle
  /// The events waiting, in order, with the time they arrived.
  private var queue = RingQueue<(time: Int64, event: Event<Element>)>()
  private var outbox = SerialOutbox<Element>()
  /// How much later each event is emitted, in nanoseconds.
  private let dueTime: Int64

  init(dueTime: Int64) {
    self.dueTime = dueTime
  }

  /// The source sent `element` at `now`: it waits `dueTime`.
  mutating func received(_ element: Element, at now: Int64) -> ReceivedAction {
    switch state {
    case .idle:
      queue.append((now, .next(element)))
      state = .waiting
      return .startTimer(after: dueTime)
    case .waiting:
      queue.append((now, .next(element)))
      return .queued
    case .completing, .ended:
      return .drop
    }
  }

  /// The source completed at `now`: the completion waits `dueTime`, behind the elements.
  mutating func completed(at now: Int64) -> ReceivedAction {
    switch state {
    case .idle:
      queue.append((now, .completed))
      state = .completing
      return .startTimer(after: dueTime)
    case .waiting:
      queue.append((now, .completed))
      state = .completing
      return .queued
    case .completing, .ended:
      return .drop
    }
  }

  /// The source failed with `error`: it is emitted at once, and the waiting events are
  /// dropped.
  mutating func failed(_ error: any Error) -> FailedAction {
    switch state {
    case .idle, .waiting, .completing:
      state = .ended
      return .drain(outbox.send(.error(error)), dropping: queue.removeAll())
    case .ended:
      return .none
    }
  }

  /// The timer fired at `now`: the first waiting event is emitted, and the timer is scheduled
  /// again for the next one, relative to its arrival.
  mutating func timerFired(at now: Int64) -> TimerAction {
    switch state {
    case .waiting, .completing:
      break
    case .ended:
      return .none
    case .idle:
      preconditionFailure("Streams internal error: delay: timer fired with nothing waiting")
    }
    guard let first = queue.popFirst()?.event else {
      preconditionFailure(
        "Streams internal error: delay: timer fired in state \(state) with no event")
    }
    if first.isStopEvent { state = .ended }
    let deliver = outbox.send(first)
    guard let next = queue.first?.time else {
      if case .waiting = state { state = .idle }
      return .drain(deliver)
    }
    return .drainAndSchedule(deliver, after: max(0, next &+ dueTime &- now))
  }
}

extension DelayStateMachine: OutboxState {
  /// The next event queued for the delivering thread, if any (``SerialOutbox/next()``).
  mutating func nextPending() -> Event<Element>? {
    outbox.next()
  }

  /// The delivery rank of this subscription's outbox (see ``DeliveryTurns``).
  var turnRank: Int { outbox.turns.rank }
}
