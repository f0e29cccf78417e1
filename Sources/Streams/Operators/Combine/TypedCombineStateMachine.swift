/// The state of one subscription of a fixed-arity `combineLatest` or `zip` (two or three
/// sources), typed over its sources' elements: nothing is boxed to `Any` and an update allocates
/// nothing.
///
/// `Storage` holds what each source delivered, one slot per source: its latest element as an
/// optional for `combineLatest` (`(Int?, String?)`), a queue of its unpaired elements for `zip`
/// (`(RingQueue<Int>, RingQueue<String>)`). A source's element is written into its slot by a
/// closure the entry point makes (`{ $0.1.replace(with: $1) }`), which hands back what it replaced
/// for the sink to release after unlocking, and `take` reads one combination out of a full
/// storage (`(Int, String)`, popping the queues for `zip`). Combinations are queued in the outbox
/// as values; the sink (``TypedCombineSink``) runs the result selector while delivering them,
/// outside the lock, one at a time and in order.
///
/// Every transition runs under the sink's lock and returns what the sink must do once the lock is
/// released (dispose a subscription, drain an event, release what was replaced); the machine never
/// calls out.
///
/// ```
///              every source completed, or (combineLatest) an element that no combination
///              can use because every other source completed
///   running ──────────────────────────────────────────────────────────────────────▶ ended
///      ▲  │                                                                          ▲
///      └──┘ an element (a combination once every slot is filled), a completion       │
///                                                                                    │
///                an error, a throwing result selector, or disposal, in any state ────┘
/// ```
///
/// The completion rules are RxSwift's: both operators complete when every source completed;
/// `combineLatest` also when a source emits while every other source completed (one of them
/// without an element, or the combination would have been emitted); the fixed-arity `zip` waits
/// for every source (`completesWhenOthersDone` is `false`). Both fail with the first error. A
/// completed source's subscription is disposed at once.
///
/// The subscriptions are stored beside the state, one slot per source: a slot is filled when
/// `subscribe` returns, which may be after the source completed (``UpstreamDisposable``).
@usableFromInline
struct TypedCombineStateMachine<Storage, Snapshot>: OutboxState {
  /// Where the combination stands. Bit `i` of a mask stands for source `i`.
  @usableFromInline
  enum State {
    /// The sources run (or are being subscribed, in order). `filled` has the bits of the slots
    /// that hold a value, `done` those of the sources that completed; `done` is never every
    /// source's bit (the combination then ended).
    case running(filled: Int, done: Int)
    /// A terminal event was accepted (it may still be queued for the deliverer), the result
    /// selector threw, or the subscription was disposed: nothing more is delivered. The
    /// subscriptions are still held until disposal, or until their source completes, and the
    /// storage until disposal.
    case ended
  }

  /// What to do with a subscription that a source's `subscribe` returned.
  @usableFromInline
  enum SubscribedAction {
    /// Keep it: the machine holds it until it must be disposed.
    case keep
    /// Dispose it now: its source already completed, or the combination ended.
    case dispose(any Disposable)
  }

  /// What to do with an element a source sent.
  @usableFromInline
  enum ReceivedAction<Replaced> {
    /// Nothing: the combination ended (the element was not stored; the caller still holds it).
    case drop
    /// Drain `event` (a combination or the completion; `nil` when there is nothing to deliver or
    /// the outbox queued it for the deliverer), then release `replaced`, what the element
    /// replaced in its slot.
    case drain(Event<Snapshot>?, releasing: Replaced)
  }

  /// What to do with an error a source sent.
  @usableFromInline
  enum ForwardAction {
    /// Nothing: the combination ended.
    case drop
    /// Drain `event`: deliver it now, or, when `nil`, let the drain wait for this sender's turn
    /// (the outbox queued it for the deliverer).
    case drain(Event<Snapshot>?)
  }

  /// What to do when a source completed.
  @usableFromInline
  enum CompletedAction {
    /// Nothing: its subscription has not returned yet (it is disposed when it does) or was
    /// already released, and the combination goes on or already ended.
    case none
    /// Dispose the completed source's subscription; the combination goes on, or already ended.
    case dispose(any Disposable)
    /// Every source completed: dispose the last one's subscription, if it returned, then drain
    /// `completion` (`nil` when it was queued for the deliverer).
    case complete(disposing: (any Disposable)?, completion: Event<Snapshot>?)
  }

  /// What the deliverer does when the result selector threw.
  @usableFromInline
  enum SelectorFailedAction {
    /// Deliver the selector's error, then release `queued`, the events that will not be
    /// delivered.
    case fail(queued: RingQueue<Event<Snapshot>>)
  }

  /// What to do when the subscription ends.
  @usableFromInline
  enum DisposeAction {
    /// Dispose `subscriptions` (those still held, in subscription order), then release `queued`,
    /// the events that will not be delivered, and `stored`, what the slots held.
    case dispose(
      subscriptions: [any Disposable], queued: RingQueue<Event<Snapshot>>, stored: Storage)
  }

  /// Internal, not private, only so that the `@inlinable` transitions can use it: the sink goes
  /// through the transitions.
  @usableFromInline var state = State.running(filled: 0, done: 0)
  /// Internal only for inlining, as `state`.
  @usableFromInline var outbox = SerialOutbox<Snapshot>()
  /// One slot per source, in subscription order. Internal only for inlining, as `state`.
  @usableFromInline var subscriptions: CombineSubscriptions
  /// What the sources delivered. Internal only for inlining, as `state`.
  @usableFromInline var storage: Storage
  /// `storage` with nothing in it, restored on disposal to release the elements.
  @usableFromInline let empty: Storage
  /// Reads one combination out of a full storage; returns it with the bits of the slots that
  /// still hold a value afterwards.
  @usableFromInline let take: (inout Storage) -> (snapshot: Snapshot, filled: Int)
  /// `combineLatest`: an element that arrives when every other source completed ends the
  /// sequence.
  @usableFromInline let completesWhenOthersDone: Bool
  /// Every source's bit.
  @usableFromInline let all: Int

  /// A state for `count` sources, with nothing stored yet (`empty`) and none subscribed.
  @inlinable
  init(
    empty: Storage, count: Int, completesWhenOthersDone: Bool,
    take: @escaping (inout Storage) -> (snapshot: Snapshot, filled: Int)
  ) {
    if !(count > 1 && count < Int.bitWidth) {
      streamsStop("Streams internal error: combining \(count) sources")
    }
    self.storage = empty
    self.empty = empty
    self.take = take
    self.completesWhenOthersDone = completesWhenOthersDone
    self.all = (1 << count) - 1
    self.subscriptions = CombineSubscriptions(count: count)
  }

  /// Source `index`'s `subscribe` returned `disposable`.
  @inlinable
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

  /// Source `index` sent an element; `write` stores it in `storage` and returns what it replaced
  /// (`combineLatest`'s previous latest element; nothing for `zip`). Once every slot holds a
  /// value, a combination is taken out and emitted.
  @inlinable
  mutating func received<Replaced>(_ index: Int, _ write: (inout Storage) -> Replaced)
    -> ReceivedAction<Replaced>
  {
    switch state {
    case .ended:
      return .drop
    case .running(let filled, let done):
      let replaced = write(&storage)
      let bit = 1 << index
      if filled | bit == all {
        let (snapshot, stillFilled) = take(&storage)
        state = .running(filled: stillFilled, done: done)
        return .drain(outbox.send(.next(snapshot)), releasing: replaced)
      }
      state = .running(filled: filled | bit, done: done)
      guard completesWhenOthersDone else { return .drain(nil, releasing: replaced) }
      return .drain(completeIfOthersDone(bit, done: done), releasing: replaced)
    }
  }

  /// The source of `bit` sent an element that completes no combination: when every other source
  /// completed (`done`; one of them without an element, or the combination would have been
  /// emitted), nothing more can be combined and the combination completes.
  ///
  /// Never inlined: it keeps the path of every element small enough for the compiler to inline
  /// it into the sink's observer (measured: about 40 instructions per update otherwise,
  /// `combineLatest2`).
  @inlinable @inline(never)
  mutating func completeIfOthersDone(_ bit: Int, done: Int) -> Event<Snapshot>? {
    guard done | bit == all else { return nil }
    state = .ended
    return outbox.send(.completed)
  }

  /// A source failed: the combination fails.
  @inlinable
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
  @inlinable
  mutating func completed(_ index: Int) -> CompletedAction {
    let disposable = subscriptions.release(index)
    switch state {
    case .running(let filled, let done):
      let bit = 1 << index
      if done & bit != 0 {
        preconditionFailure(
          "Streams internal error: combining: source \(index) completed twice, in state \(state)")
      }
      guard done | bit == all else {
        state = .running(filled: filled, done: done | bit)
        break
      }
      state = .ended
      return .complete(disposing: disposable, completion: outbox.send(.completed))
    case .ended:
      break
    }
    if let disposable { return .dispose(disposable) }
    return .none
  }

  /// The result selector threw while a combination was being delivered: the outbox closes, and
  /// the deliverer delivers the error itself.
  @inlinable
  mutating func selectorFailed() -> SelectorFailedAction {
    state = .ended
    return .fail(queued: outbox.fail())
  }

  /// The next event queued for the delivering thread, if any (``SerialOutbox/next()``).
  @inlinable
  mutating func nextPending() -> Event<Snapshot>? {
    outbox.next()
  }

  /// The delivery rank of this subscription's outbox (see ``DeliveryTurns``).
  @inlinable
  var turnRank: Int { outbox.turns.rank }

  /// The subscription ends: every subscription still held, the queued combinations and the
  /// storage are handed back.
  @inlinable
  mutating func dispose() -> DisposeAction {
    state = .ended
    let queued = outbox.dispose()
    var stored = empty
    swap(&stored, &storage)
    return .dispose(subscriptions: subscriptions.releaseAll(), queued: queued, stored: stored)
  }
}
