/// The state of one subscription of `concat` over a sequence of sources: one source at a time,
/// the next one subscribed when the current one completes.
///
/// The sources are subscribed by a loop (``ConcatSink``'s `run(after:)`), which one thread at a
/// time owns (it alone advances the iterator). A source that completes while the loop is
/// subscribing it, inside its own `subscribe` or on another thread, does not start the loop a
/// second time: it marks the loop `advancing`, and the loop goes on with the next source when the
/// `subscribe` returns, so many synchronous sources do not grow the stack. Every transition runs
/// under the sink's lock and returns what the sink must do once the lock is released; the machine
/// never calls out.
///
/// ```
///                        its subscribe returned
///             ┌──────────────────────────────────────────┐
///             │                                          ▼
///   ┌──▶ looping(n) ◀─────────── n completes ─────── running(n)
///   │         │
///   │         │ n completes before its subscribe returned
///   │         ▼
///   │    advancing(n)
///   │         │ its subscribe returned
///   └─────────┘ the loop takes the next source, n+1 (looping(n) does too, before subscribing)
///
///   no more sources, an error, or disposal, in any state ──▶ ended(n)
/// ```
struct ConcatStateMachine<Element>: OutboxState {
  /// Where the sequence of sources stands; `source` is the number of the current source (0
  /// before the first).
  private enum State {
    /// The loop runs: it is fetching the next source (the current one completed, or none was
    /// subscribed yet), or subscribing source `source`.
    case looping(source: Int)
    /// The loop runs and source `source` completed while the loop was subscribing it: once its
    /// `subscribe` returns, the loop goes on with the next source.
    case advancing(source: Int)
    /// Source `source` is subscribed and runs; nobody runs the loop: the source's completion
    /// starts it again.
    case running(source: Int)
    /// The sources are exhausted, a source failed (the error may still be queued for the
    /// deliverer), or the subscription was disposed: nothing more is delivered. A loop still
    /// running stops at its next step.
    case ended(source: Int)
  }

  /// What the loop does next.
  enum NextSourceAction {
    /// Stop: the sequence ended.
    case stop
    /// Fetch the next source from the iterator and subscribe to it as source `id` (or, when the
    /// iterator is exhausted, call ``exhausted()``).
    case subscribe(id: Int)
  }

  /// What to do when the iterator has no more sources.
  enum ExhaustedAction {
    /// Nothing: the sequence already ended.
    case none
    /// Drain `completion` (`nil` when it was queued for the deliverer).
    case complete(Event<Element>?)
  }

  /// What the loop does once a source's `subscribe` returned.
  enum SubscribedAction {
    /// Keep the subscription and stop looping: the source runs.
    case keep
    /// Dispose the subscription now, as the sequence ended, and stop looping.
    case dispose(any Disposable)
    /// Dispose the subscription now, as the source completed, and subscribe to the next source.
    case disposeAndAdvance(any Disposable)
  }

  /// What to do with an element or an error of the current source.
  enum ForwardAction {
    /// Nothing: the sequence ended.
    case drop
    /// Drain `event`: deliver it now, or, when `nil`, let the drain wait for this sender's turn
    /// (the outbox queued it for the deliverer).
    case drain(Event<Element>?)
  }

  /// What to do when the current source completed.
  enum CompletedAction {
    /// Nothing: its subscription has not returned yet, the loop subscribing it goes on with the
    /// next source; or the sequence ended and the subscription was already released.
    case none
    /// Dispose the source's subscription: the sequence ended meanwhile.
    case dispose(any Disposable)
    /// Run the loop: dispose `completed`, the source's subscription, before subscribing to the
    /// next source, or, when there is none, after delivering the completion.
    case runLoop(after: (any Disposable)?)
  }

  /// What to do when the subscription ends.
  enum DisposeAction {
    /// Dispose `current`, the current source's subscription (`nil` when it has not returned or
    /// was already released), then release `queued`, the events that will not be delivered.
    case dispose(current: (any Disposable)?, queued: RingQueue<Event<Element>>)
  }

  /// The subscriber owns the loop first: it subscribes to the first source.
  private var state = State.looping(source: 0)
  private var outbox = SerialOutbox<Element>()
  /// The current source's subscription: `.pending` while it is being subscribed, `.released` once
  /// it completed or the subscription was disposed.
  private var current = UpstreamDisposable.released

  /// The loop is about to fetch and subscribe the next source.
  mutating func willSubscribe() -> NextSourceAction {
    switch state {
    case .looping(let source), .advancing(let source):
      state = .looping(source: source + 1)
      current = .pending
      return .subscribe(id: source + 1)
    case .ended:
      return .stop
    case .running:
      preconditionFailure(
        "Streams internal error: concat: next source subscribed in state \(state)")
    }
  }

  /// The loop found no next source: the sequence completes.
  mutating func exhausted() -> ExhaustedAction {
    switch state {
    case .looping(let source):
      state = .ended(source: source)
      return .complete(outbox.send(.completed))
    case .ended:
      return .none
    case .advancing, .running:
      preconditionFailure("Streams internal error: concat: sources exhausted in state \(state)")
    }
  }

  /// The loop subscribed to source `id`, which returned `disposable`.
  mutating func subscribed(_ id: Int, _ disposable: any Disposable) -> SubscribedAction {
    switch state {
    case .looping(let source) where id == source:
      state = .running(source: source)
      if let late = current.store(disposable) { return .dispose(late) }
      return .keep
    case .advancing(let source) where id == source:
      if let late = current.store(disposable) { return .disposeAndAdvance(late) }
      preconditionFailure(
        "Streams internal error: concat: completed source \(id) kept in state \(state)")
    case .ended(let source) where id == source:
      if let late = current.store(disposable) { return .dispose(late) }
      return .keep
    case .looping, .advancing, .running, .ended:
      preconditionFailure(
        "Streams internal error: concat: source \(id) subscribed in state \(state)")
    }
  }

  /// The current source sent an element.
  mutating func received(_ element: Element) -> ForwardAction {
    switch state {
    case .looping, .advancing, .running:
      return .drain(outbox.send(.next(element)))
    case .ended:
      return .drop
    }
  }

  /// The current source failed: the sequence fails.
  mutating func failed(_ error: any Error) -> ForwardAction {
    switch state {
    case .looping(let source), .advancing(let source), .running(let source):
      state = .ended(source: source)
      return .drain(outbox.send(.error(error)))
    case .ended:
      return .drop
    }
  }

  /// Source `id` completed: its subscription is released, and the loop goes on with the next
  /// source, run by the caller unless a loop is already running.
  mutating func completed(_ id: Int) -> CompletedAction {
    switch state {
    case .running(let source) where id == source:
      state = .looping(source: source)
      return .runLoop(after: current.release())
    case .looping(let source) where id == source:
      state = .advancing(source: source)
    case .ended(let source) where id == source:
      break
    case .looping, .advancing, .running, .ended:
      preconditionFailure(
        "Streams internal error: concat: source \(id) completed in state \(state)")
    }
    if let disposable = current.release() { return .dispose(disposable) }
    return .none
  }

  /// The next event queued for the delivering thread, if any (``SerialOutbox/next()``).
  mutating func nextPending() -> Event<Element>? {
    outbox.next()
  }

  /// The delivery rank of this subscription's outbox (see ``DeliveryTurns``).
  var turnRank: Int { outbox.turns.rank }

  /// The subscription ends: the current source's subscription and the queued events are handed
  /// back.
  mutating func dispose() -> DisposeAction {
    switch state {
    case .looping(let source), .advancing(let source), .running(let source),
      .ended(let source):
      state = .ended(source: source)
    }
    let queued = outbox.dispose()
    return .dispose(current: current.release(), queued: queued)
  }
}
