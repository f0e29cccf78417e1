/// Events waiting to be delivered to one downstream, for operators whose events come from more
/// than one thread (the source and a scheduler's timer).
///
/// An operator keeps an `Outbox` inside its `Locked` state and appends the events a transition
/// produces in the same critical section, so delivery order is transition order. Whoever finds
/// the outbox idle at the end of its critical section becomes the drainer and delivers, outside
/// the lock, until the outbox is empty; a caller that finds a drainer at work leaves its events to
/// it. The downstream is therefore called serially, never under a lock, and a reentrant event
/// (the downstream feeding the source) is queued rather than delivered inside the delivery.
struct Outbox<Element> {
  private var events: [Event<Element>] = []
  private var draining = false

  /// Queues `event`.
  mutating func send(_ event: Event<Element>) {
    events.append(event)
  }

  /// Ends a critical section: `true` when the caller must now call ``Locked/drain(into:)``.
  mutating func claim() -> Bool {
    if draining || events.isEmpty { return false }
    draining = true
    return true
  }

  /// The queued events, or `nil` (releasing the drainer role) when none are left.
  mutating func take() -> [Event<Element>]? {
    if events.isEmpty {
      draining = false
      return nil
    }
    defer { events = [] }
    return events
  }
}

/// State that holds an ``Outbox``.
protocol OutboxState {
  associatedtype Output
  var outbox: Outbox<Output> { get set }
}

extension Locked where State: OutboxState {
  /// Runs `body` under the lock, then delivers what it queued (when no one else is delivering).
  @discardableResult
  func update<Result>(
    into sink: GuardedSink<State.Output>, _ body: (inout State) -> Result
  ) -> Result {
    let (result, mustDrain) = withLock { state -> (Result, Bool) in
      let result = body(&state)
      return (result, state.outbox.claim())
    }
    if mustDrain { drain(into: sink) }
    return result
  }

  /// Delivers queued events to `sink` until none are left; called by the caller that claimed the
  /// outbox.
  func drain(into sink: GuardedSink<State.Output>) {
    while let batch = withLock({ $0.outbox.take() }) {
      for event in batch { sink.on(event) }
    }
  }
}
