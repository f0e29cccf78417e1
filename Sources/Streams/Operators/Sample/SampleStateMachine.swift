/// The state of one `sample` subscription: the source's element received since the last tick,
/// whether the source completed, and the outbox that serializes the sampler's emissions with
/// the source's error.
///
/// Every transition runs under the sink's lock and returns what the sink must do once the lock
/// is released (drain an event, release an element, dispose the source); the machine never
/// calls out, and the sink never reads its storage.
///
/// ```
///            an element                     a tick: it is emitted
///   empty ─────────────────▶ holding ─────────────────────────────▶ empty
///     │                        │ ▲└─┘ a later element replaces it
///     │ the source completes   │ the source completes
///     ▼                        ▼
///   sourceCompleted(left: nil or the element held)
///     │ a tick, or the sampler's completion: what is left is emitted, then the completion
///     ▼
///   ended ◀── an error of either sequence, in any state
/// ```
///
/// The sampler's completion is a tick like its elements (it emits what the source sent since
/// the last one); it completes the sequence only once the source completed, as in RxSwift.
struct SampleStateMachine<Element> {
  /// Where the source stands.
  private enum State {
    /// The source runs, and sent nothing since the last tick.
    case empty
    /// The source runs; `element` is its latest since the last tick.
    case holding(Element)
    /// The source completed; `left` is its element not yet emitted, if any. The next tick
    /// emits it and completes.
    case sourceCompleted(left: Element?)
    /// A terminal event was accepted (it may still be queued for the deliverer): nothing more
    /// is emitted.
    case ended
  }

  /// What to do with an element of the source.
  enum SourceNextAction {
    /// Nothing: it is held for the next tick, or the sequence ended or the source completed
    /// (the caller drops it).
    case none
    /// Release `replaced`, the element it replaced, after unlocking.
    case release(Element)
  }

  /// What to do when the source completed.
  enum SourceCompletedAction {
    /// Nothing: the source already completed.
    case none
    /// Dispose the source's subscription.
    case disposeSource
  }

  /// What to do when the sampler ticked (an element or its completion).
  enum TickAction {
    /// Nothing: no element since the last tick and no default value, or the sequence ended.
    case none
    /// Drain `event`: deliver it now, or, when `nil`, let the drain wait for this sender's turn
    /// (the outbox queued it for the deliverer).
    case drain(Event<Element>?)
  }

  /// What to do when either sequence failed.
  enum FailedAction {
    /// Nothing: the sequence already ended.
    case none
    /// Drain `event` (as ``TickAction/drain(_:)``), then release `dropped`, the element not
    /// emitted.
    case drain(Event<Element>?, dropping: Element?)
  }

  private var state = State.empty
  private var outbox = SerialOutbox<Element>()
  /// Emitted at a tick without a new element, when not `nil`.
  private let defaultValue: Element?

  init(defaultValue: Element?) {
    self.defaultValue = defaultValue
  }

  /// The source sent `element`: it is held for the next tick.
  mutating func sourceSent(_ element: Element) -> SourceNextAction {
    switch state {
    case .empty:
      state = .holding(element)
      return .none
    case .holding(let replaced):
      state = .holding(element)
      return .release(replaced)
    case .sourceCompleted, .ended:
      return .none
    }
  }

  /// The source completed: the next tick emits what it left, and completes.
  mutating func sourceCompleted() -> SourceCompletedAction {
    switch state {
    case .empty:
      state = .sourceCompleted(left: nil)
      return .disposeSource
    case .holding(let element):
      state = .sourceCompleted(left: element)
      return .disposeSource
    case .sourceCompleted:
      return .none
    case .ended:
      return .disposeSource  // it may run until the queued terminal event is delivered
    }
  }

  /// The sampler sent an element or completed: the element held, or the default value, is
  /// emitted; after the source's completion, the completion follows.
  mutating func ticked() -> TickAction {
    switch state {
    case .empty:
      guard let defaultValue else { return .none }
      return .drain(outbox.send(.next(defaultValue)))
    case .holding(let element):
      state = .empty
      return .drain(outbox.send(.next(element)))
    case .sourceCompleted(let left):
      state = .ended
      let first = (left ?? defaultValue).flatMap { outbox.send(.next($0)) }
      let completed = outbox.send(.completed)
      return .drain(first ?? completed)
    case .ended:
      return .none
    }
  }

  /// The source or the sampler failed with `error`: it is emitted at once.
  mutating func failed(_ error: any Error) -> FailedAction {
    let dropped: Element?
    switch state {
    case .empty: dropped = nil
    case .holding(let element): dropped = element
    case .sourceCompleted(let left): dropped = left
    case .ended: return .none
    }
    state = .ended
    return .drain(outbox.send(.error(error)), dropping: dropped)
  }
}

extension SampleStateMachine: OutboxState {
  /// The next event queued for the delivering thread, if any (``SerialOutbox/next()``).
  mutating func nextPending() -> Event<Element>? {
    outbox.next()
  }

  /// The delivery rank of this subscription's outbox (see ``DeliveryTurns``).
  var turnRank: Int { outbox.turns.rank }
}
