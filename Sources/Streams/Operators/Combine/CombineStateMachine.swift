/// How a combining operator pairs its sources' elements.
enum CombineMode {
  /// `combineLatest`: every element of any source emits the latest element of each source.
  case latest
  /// `zip`: the n-th elements of all sources are emitted together. With
  /// `completesWhenOthersDone`, an element that cannot be paired because every other source
  /// completed ends the sequence (RxSwift's `zip` over a collection; its fixed-arity `zip` waits
  /// for every source to complete).
  case zip(completesWhenOthersDone: Bool)
}

/// The state of one subscription of `combineLatest` or `zip` over any number of sources (four or
/// more, a parameter pack, or a collection), their values boxed: one slot of values per source,
/// the latest value for `combineLatest`, a queue of unpaired values for `zip`.
///
/// Emissions are snapshots of the values, queued in the outbox; the sink (``CombineSink``) runs
/// the result selector while delivering them, outside the lock, one at a time and in order. Every
/// transition runs under the sink's lock and returns what the sink must do once the lock is
/// released; the machine never calls out.
///
/// ```
///              every source completed, or an element that nothing can be combined with
///              because every other source completed (combineLatest; zip over a collection)
///   running ──────────────────────────────────────────────────────────────────────▶ ended
///      ▲  │                                                                          ▲
///      └──┘ an element (a combination once every slot holds a value), a completion   │
///                                                                                    │
///         no sources, an error, a throwing result selector, or disposal, in any state ┘
/// ```
///
/// The completion rules are ``TypedCombineStateMachine``'s (RxSwift's). A combination of no
/// sources ends at once (``start()``).
///
/// The subscriptions are stored beside the state, one slot per source; while the combination
/// runs, a source has completed exactly when its slot is released (``CombineSubscriptions``).
struct CombineStateMachine<Value>: OutboxState {
  typealias Snapshot = ContiguousArray<Value>

  /// Where the combination stands.
  private enum State {
    /// The sources run (or are being subscribed, in order). `withValue` slots hold a value (a
    /// latest value for `combineLatest`, a queued one for `zip`) and `done` sources completed,
    /// never every source (the combination then ended).
    case running(withValue: Int, done: Int)
    /// A terminal event was accepted (it may still be queued for the deliverer), the result
    /// selector threw, or the subscription was disposed: nothing more is delivered. The
    /// subscriptions are still held until disposal, or until their source completes, and the
    /// values until disposal.
    case ended
  }

  /// What to do before the sources are subscribed.
  enum StartAction {
    /// Subscribe the sources.
    case subscribe
    /// There are no sources: drain `event` (the empty combination then the completion for
    /// `combineLatest`, the completion for `zip`), and subscribe nothing.
    case drain(Event<Snapshot>?)
  }

  /// What to do with a subscription that a source's `subscribe` returned.
  enum SubscribedAction {
    /// Keep it: the machine holds it until it must be disposed.
    case keep
    /// Dispose it now: its source already completed, or the combination ended.
    case dispose(any Disposable)
  }

  /// What to do with a value a source sent.
  enum ReceivedAction {
    /// Nothing: the combination ended (the value was not stored; the caller still holds it).
    case drop
    /// Drain `event` (a combination or the completion; `nil` when there is nothing to deliver or
    /// the outbox queued it for the deliverer), then release `replaced`, the latest value the
    /// new one replaced (`combineLatest`; `nil` for `zip`).
    case drain(Event<Snapshot>?, releasing: Value?)
  }

  /// What to do with an error a source sent.
  enum ForwardAction {
    /// Nothing: the combination ended.
    case drop
    /// Drain `event`: deliver it now, or, when `nil`, let the drain wait for this sender's turn
    /// (the outbox queued it for the deliverer).
    case drain(Event<Snapshot>?)
  }

  /// What to do when a source completed.
  enum CompletedAction {
    /// Nothing: its subscription has not returned yet (it is disposed when it does) or was
    /// already released, and the combination goes on or already ended.
    case none
    /// Dispose the completed source's subscription; the combination goes on, or already ended.
    case dispose(any Disposable)
    /// Every source completed: drain `completion` (`nil` when it was queued for the deliverer),
    /// then dispose the last one's subscription, if it returned (RxSwift's order for these
    /// forms).
    case complete(completion: Event<Snapshot>?, disposing: (any Disposable)?)
  }

  /// What the deliverer does when the result selector threw.
  enum SelectorFailedAction {
    /// Deliver the selector's error, then release `queued`, the events that will not be
    /// delivered.
    case fail(queued: RingQueue<Event<Snapshot>>)
  }

  /// What to do when the subscription ends.
  enum DisposeAction {
    /// Dispose `subscriptions` (those still held, in subscription order), then release `queued`,
    /// the events that will not be delivered, and `latest` and `buffers`, the values held
    /// (`combineLatest`'s latest ones, `zip`'s queued ones).
    case dispose(
      subscriptions: [any Disposable], queued: RingQueue<Event<Snapshot>>, latest: [Value?],
      buffers: [RingQueue<Value>])
  }

  private var state = State.running(withValue: 0, done: 0)
  private var outbox = SerialOutbox<Snapshot>()
  private var subscriptions: CombineSubscriptions
  private let mode: CombineMode
  private let count: Int
  /// `combineLatest`: each source's latest value (empty for `zip`).
  private var latest: [Value?]
  /// `zip`: each source's unpaired values (empty for `combineLatest`).
  private var queues: [RingQueue<Value>]

  /// `count` sources, none subscribed yet.
  init(count: Int, mode: CombineMode) {
    self.mode = mode
    self.count = count
    switch mode {
    case .latest:
      latest = Array(repeating: nil, count: count)
      queues = []
    case .zip:
      latest = []
      queues = Array(repeating: RingQueue(), count: count)
    }
    subscriptions = CombineSubscriptions(count: count)
  }

  /// The subscription starts: a combination of no sources ends at once, as in RxSwift:
  /// `combineLatest` first emits the empty combination (its result selector applied to `[]`),
  /// `zip` only completes.
  mutating func start() -> StartAction {
    guard case .running(withValue: 0, done: 0) = state else {
      preconditionFailure("Streams internal error: combining: started in state \(state)")
    }
    guard count == 0 else { return .subscribe }
    state = .ended
    guard case .latest = mode else { return .drain(outbox.send(.completed)) }
    let first = outbox.send(.next(Snapshot()))
    let second = outbox.send(.completed)
    return .drain(first ?? second)
  }

  /// Source `index`'s `subscribe` returned `disposable`.
  mutating func subscribed(_ index: Int, _ disposable: any Disposable) -> SubscribedAction {
    switch state {
    case .running:
      if let late = subscriptions.store(index, disposable) { return .dispose(late) }
      return .keep
    case .ended:
      _ = subscriptions.release(index)
      return .dispose(disposable)
    }
  }

  /// Source `index` sent `value`: stored as its latest value (`combineLatest`) or queued
  /// (`zip`); once every slot holds a value, a combination is emitted.
  mutating func received(_ index: Int, _ value: Value) -> ReceivedAction {
    guard case .running(var withValue, let done) = state else { return .drop }
    let replaced: Value?
    let snapshot: Snapshot?
    switch mode {
    case .latest:
      replaced = latest[index].replace(with: value)
      if replaced == nil { withValue += 1 }
      snapshot = withValue == count ? Snapshot(latest.lazy.map { $0! }) : nil
    case .zip:
      replaced = nil
      queues[index].append(value)
      if queues[index].count == 1 { withValue += 1 }
      if withValue == count {
        var values = Snapshot()
        values.reserveCapacity(count)
        withValue = 0
        for slot in 0..<count {
          values.append(queues[slot].popFirst()!)
          if !queues[slot].isEmpty { withValue += 1 }
        }
        snapshot = values
      } else {
        snapshot = nil
      }
    }
    if let snapshot {
      state = .running(withValue: withValue, done: done)
      return .drain(outbox.send(.next(snapshot)), releasing: replaced)
    }
    if completesWhenOthersDone && done - (subscriptions.isReleased(index) ? 1 : 0) == count - 1 {
      // Every other source completed, one of them without a value: nothing more can be
      // combined.
      state = .ended
      return .drain(outbox.send(.completed), releasing: replaced)
    }
    state = .running(withValue: withValue, done: done)
    return .drain(nil, releasing: replaced)
  }

  /// Whether a value that completes no combination ends the sequence once every other source
  /// completed.
  private var completesWhenOthersDone: Bool {
    switch mode {
    case .latest: true
    case .zip(let completesWhenOthersDone): completesWhenOthersDone
    }
  }

  /// A source failed: the combination fails.
  mutating func failed(_ error: any Error) -> ForwardAction {
    switch state {
    case .running:
      state = .ended
      return .drain(outbox.send(.error(error)))
    case .ended:
      return .drop
    }
  }

  /// Source `index` completed: its subscription is released; when every source completed, the
  /// combination completes.
  mutating func completed(_ index: Int) -> CompletedAction {
    let wasReleased = subscriptions.isReleased(index)
    let disposable = subscriptions.release(index)
    switch state {
    case .running(let withValue, let done):
      if wasReleased || done >= count {
        preconditionFailure(
          "Streams internal error: combining: source \(index) completed in state \(state)")
      }
      guard done + 1 == count else {
        state = .running(withValue: withValue, done: done + 1)
        break
      }
      state = .ended
      return .complete(completion: outbox.send(.completed), disposing: disposable)
    case .ended:
      break
    }
    if let disposable { return .dispose(disposable) }
    return .none
  }

  /// The result selector threw while a combination was being delivered: the outbox closes, and
  /// the deliverer delivers the error itself.
  mutating func selectorFailed() -> SelectorFailedAction {
    state = .ended
    return .fail(queued: outbox.fail())
  }

  /// The next event queued for the delivering thread, if any (``SerialOutbox/next()``).
  mutating func nextPending() -> Event<Snapshot>? {
    outbox.next()
  }

  /// The delivery rank of this subscription's outbox (see ``DeliveryTurns``).
  var turnRank: Int { outbox.turns.rank }

  /// The subscription ends: every subscription still held, the queued snapshots and the values
  /// are handed back.
  mutating func dispose() -> DisposeAction {
    state = .ended
    let queued = outbox.dispose()
    var values: [Value?] = []
    swap(&values, &latest)
    var buffers: [RingQueue<Value>] = []
    swap(&buffers, &queues)
    return .dispose(
      subscriptions: subscriptions.releaseAll(), queued: queued, latest: values, buffers: buffers)
  }
}
