/// The state of one subscription of a merging operator (`flatMap`, `flatMapFirst`, `concatMap`,
/// `merge`, `concat()`): an outer sequence whose elements become inner sequences, all of whose
/// elements go to one observer.
///
/// Inner sequences are numbered from 0 in the order they are scheduled. Every transition runs
/// under the sink's lock and returns what the sink must do once the lock is released (subscribe
/// to an inner sequence, dispose a subscription, drain an event); the machine never calls out.
///
/// Inner subscriptions are started by one thread at a time, the owner of the start loop
/// (`looping`): when an inner sequence completes synchronously inside its own `subscribe` and a
/// waiting one must start, the thread already in the loop picks it up instead of recursing, so
/// `concat()` over many synchronous sources does not grow the stack.
///
/// ```
///                    outer completes, inner sequences left
///   outerRunning ───────────────────────────────────────────▶ outerCompleted
///        │                                                          │
///        │ outer completes, none left            the last one completes
///        └────────────────────────────▶ ended ◀─────────────────────┘
///                                         ▲
///                                         └── an error, or disposal, in any state
/// ```
///
/// A static `merge` has no outer sequence: it starts in `outerCompleted` with every source
/// scheduled (``subscribeAll(_:)``).
///
/// The outbox, the subscriptions and the inner sequences that wait for a slot or for the start
/// loop are stored beside the state: a subscription's slot is filled when `subscribe` returns,
/// which may be after the sequence ended (``UpstreamDisposable``).
@usableFromInline
struct MergeStateMachine<Element>: OutboxState {
  /// Where the merge stands. `active` counts the inner sequences subscribed, being subscribed,
  /// scheduled for the start loop, accepted without subscribing (`just`), or reserved
  /// (`flatMapFirst`, between admission and arrival); `looping` is `true` while a thread owns the
  /// start loop (or delivers a `just`'s element, which owns the loop until it completes).
  @usableFromInline
  enum State {
    /// The outer sequence runs.
    case outerRunning(active: Int, looping: Bool)
    /// The outer sequence completed (or there is none; `active` is at least 1): the merge
    /// completes when the last inner sequence completes. None waits for a slot then: one waits
    /// only while `maxConcurrent` run.
    case outerCompleted(active: Int, looping: Bool)
    /// A terminal event was accepted (it may still be queued for the deliverer), or the
    /// subscription was disposed: nothing more is delivered or started. The subscriptions and
    /// the waiting sequences are still held until disposal, or until their sequence completes.
    case ended
  }

  // The state and what is stored beside it: internal, not private, only so that the `@inlinable`
  // transitions can use them; the sink goes through the transitions.
  @usableFromInline var state = State.outerRunning(active: 0, looping: false)
  @usableFromInline var outbox = SerialOutbox<Element>()
  @usableFromInline let limit: MergeLimit
  /// The outer subscription.
  @usableFromInline var outer = UpstreamDisposable.pending
  /// The subscriptions of the inner sequences that have not completed, by number: `.pending`
  /// until `subscribe` returns.
  @usableFromInline var inners: [Int: UpstreamDisposable] = [:]
  /// The number of the next inner sequence scheduled.
  @usableFromInline var nextID = 0
  /// Inner sequences waiting for a free slot (`MergeLimit.queue`), not counted in `active`.
  @usableFromInline var waiting = RingQueue<Observable<Element>>()
  /// Inner sequences to subscribe, in order, by the thread that owns the start loop.
  @usableFromInline var scheduled = RingQueue<ScheduledInner>()

  /// No inner sequence yet, the outer subscription pending.
  @inlinable
  init(limit: MergeLimit) {
    self.limit = limit
  }

  /// `true` once the merge ended: the sink marks its lifecycle word stopped, so that the outer
  /// sequence's elements are dropped without the lock.
  @inlinable
  var hasEnded: Bool {
    if case .ended = state { return true }
    return false
  }

  /// The outer subscription returned.
  @inlinable
  mutating func outerSubscribed(_ disposable: any Disposable) -> SubscribedAction {
    if let late = outer.store(disposable) { return .dispose(late) }
    return .keep
  }

  /// A static merge starts: there is no outer sequence, and every source is scheduled, in order.
  @inlinable
  mutating func subscribeAll(_ sources: [Observable<Element>]) -> StartAction {
    guard case .outerRunning(active: 0, looping: false) = state else {
      preconditionFailure("Streams internal error: merge: sources scheduled in state \(state)")
    }
    outer = .released
    if sources.isEmpty { return .complete(complete()) }
    for source in sources { schedule(source) }
    state = .outerCompleted(active: sources.count, looping: true)
    return .runLoop
  }

  /// An element of the outer sequence arrived, for `flatMapFirst` (``MergeLimit/dropWhileBusy``):
  /// it reserves the one slot before the selector runs, or it is dropped.
  @inlinable
  mutating func admit() -> AdmitAction {
    switch state {
    case .outerRunning(let active, let looping):
      if active > 0 { return .drop }
      state = .outerRunning(active: 1, looping: looping)
      return .select
    case .outerCompleted, .ended:
      return .drop  // `outerCompleted` has a sequence running
    }
  }

  /// An inner sequence arrived. It may arrive once the outer sequence completed: a selector that
  /// completes the outer sequence from inside its `onNext`.
  @inlinable
  mutating func innerArrived(_ source: Observable<Element>) -> InnerArrivedAction {
    var active: Int
    let looping: Bool
    switch state {
    case .ended:
      return .none
    case .outerRunning(let count, let owned), .outerCompleted(let count, let owned):
      active = count
      looping = owned
    }
    switch limit {
    case .unbounded:
      active += 1
    case .dropWhileBusy:
      break  // reserved by `admit()`
    case .queue(let maxConcurrent):
      if active >= maxConcurrent {
        waiting.append(source)
        return .none
      }
      active += 1
    }
    schedule(source)
    update(active: active, looping: true)
    return looping ? .none : .runLoop
  }

  /// An inner sequence arrived that emits `element` and completes during `subscribe`.
  ///
  /// When no start loop runs and a slot is free, its element is accepted at once, without an
  /// inner subscription: that is what subscribing to it would do, since nothing else could start
  /// before it. Otherwise it is scheduled as ``innerArrived(_:)`` does.
  @inlinable
  mutating func immediateArrived(_ source: Observable<Element>, element: Element)
    -> ImmediateArrivedAction
  {
    var active: Int
    switch state {
    case .ended:
      return .none
    case .outerRunning(let count, let looping), .outerCompleted(let count, let looping):
      if looping { return ImmediateArrivedAction(innerArrived(source)) }
      active = count
    }
    switch limit {
    case .unbounded:
      active += 1
    case .dropWhileBusy:
      break  // reserved by `admit()`
    case .queue(let maxConcurrent):
      if active >= maxConcurrent { return ImmediateArrivedAction(innerArrived(source)) }
      active += 1
    }
    update(active: active, looping: true)
    return .deliver(first: outbox.send(.next(element)))
  }

  /// The sequence accepted by ``immediateArrived(_:element:)`` completed: frees its slot (or
  /// hands it to a waiting sequence) and releases the start loop, unless sequences were
  /// scheduled meanwhile.
  @inlinable
  mutating func immediateCompleted() -> ImmediateCompletedAction {
    var active: Int
    switch state {
    case .ended:
      // What is left in `scheduled` is released by ``dispose()``, which always follows.
      return .none
    case .outerRunning(let count, true) where count > 0,
      .outerCompleted(let count, true) where count > 0:
      active = count
    case .outerRunning, .outerCompleted:
      preconditionFailure(
        "Streams internal error: merge: immediate sequence completed in state \(state)")
    }
    if let next = waiting.popFirst() {
      schedule(next)
    } else {
      active -= 1
      if active == 0, case .outerCompleted = state { return .complete(complete()) }
    }
    let looping = !scheduled.isEmpty
    update(active: active, looping: looping)
    return looping ? .runLoop : .none
  }

  /// The deliverer of the element accepted by ``immediateArrived(_:element:)`` asks for more: the
  /// next queued event (``SerialOutbox/next()``), or, when there is none, the delivery claim is
  /// released and the sequence completes (``immediateCompleted()``), in one critical section
  /// instead of two.
  @inlinable
  mutating func nextOrImmediateCompleted() -> ImmediateNextAction {
    if let event = outbox.next() { return .deliver(event) }
    return .completed(immediateCompleted())
  }

  /// The owner of the start loop asks for the next inner sequence to subscribe.
  ///
  /// Once the merge ended, what is left in `scheduled` stays there for ``dispose()`` (which
  /// follows every end) to hand out of the lock. An empty queue keeps its storage: freeing it
  /// cost one allocation per inner sequence.
  @inlinable
  mutating func nextToStart() -> NextInnerAction {
    switch state {
    case .ended:
      return .stop
    case .outerRunning(let active, true), .outerCompleted(let active, true):
      if let next = scheduled.popFirst() { return .subscribe(id: next.id, source: next.source) }
      update(active: active, looping: false)
      return .stop
    case .outerRunning, .outerCompleted:
      preconditionFailure(
        "Streams internal error: merge: start loop stepped by a thread that does not own it, "
          + "in state \(state)")
    }
  }

  /// Inner subscription `id` returned. Its slot is gone when its sequence completed during
  /// `subscribe`, or when the merge was disposed.
  @inlinable
  mutating func innerSubscribed(_ id: Int, _ disposable: any Disposable) -> SubscribedAction {
    guard var slot = inners[id] else { return .dispose(disposable) }
    let late = slot.store(disposable)
    inners[id] = slot
    if let late { return .dispose(late) }
    return .keep
  }

  /// An inner sequence sent `next`, an element (passed as the event it came in, not rebuilt).
  @inlinable
  mutating func innerNext(_ next: Event<Element>) -> ForwardAction {
    if case .ended = state { return .drop }
    return .drain(outbox.send(next))
  }

  /// An inner sequence failed: the merge fails.
  @inlinable
  mutating func innerFailed(_ error: any Error) -> ForwardAction {
    fail(error)
  }

  /// Inner sequence `id` completed: its subscription is released and its slot freed, or handed
  /// to a waiting sequence; when the outer sequence completed and it was the last, the merge
  /// completes.
  @inlinable
  mutating func innerCompleted(_ id: Int) -> CompletedAction {
    // No slot: the merge was disposed.
    guard var slot = inners.removeValue(forKey: id) else { return .none }
    let disposable = slot.release()
    var active: Int
    let looping: Bool
    switch state {
    case .ended:
      if let disposable { return .dispose(disposable) }
      return .none
    case .outerRunning(let count, let owned) where count > 0,
      .outerCompleted(let count, let owned) where count > 0:
      active = count
      looping = owned
    case .outerRunning, .outerCompleted:
      preconditionFailure(
        "Streams internal error: merge: inner sequence \(id) completed in state \(state)")
    }
    if let next = waiting.popFirst() {
      schedule(next)
      update(active: active, looping: true)
      if !looping { return .runLoop(disposing: disposable) }
    } else {
      active -= 1
      if active == 0, case .outerCompleted = state {
        return .complete(disposing: disposable, completion: complete())
      }
      update(active: active, looping: looping)
    }
    if let disposable { return .dispose(disposable) }
    return .none
  }

  /// The outer sequence completed: its subscription is released; when no inner sequence is left,
  /// the merge completes.
  @inlinable
  mutating func outerCompleted() -> CompletedAction {
    let disposable = outer.release()
    switch state {
    case .outerRunning(let active, let looping):
      if active == 0 { return .complete(disposing: disposable, completion: complete()) }
      state = .outerCompleted(active: active, looping: looping)
    case .outerCompleted:
      preconditionFailure(
        "Streams internal error: merge: outer sequence completed in state \(state)")
    case .ended:
      break
    }
    if let disposable { return .dispose(disposable) }
    return .none
  }

  /// The outer sequence failed: the merge fails.
  @inlinable
  mutating func outerFailed(_ error: any Error) -> ForwardAction {
    if case .outerCompleted = state {
      preconditionFailure("Streams internal error: merge: outer sequence failed in state \(state)")
    }
    return fail(error)
  }

  /// The selector threw for an element of the outer sequence: the merge fails. (The outer
  /// sequence may have completed meanwhile: a selector that completes it from inside its
  /// `onNext`.)
  @inlinable
  mutating func selectorFailed(_ error: any Error) -> ForwardAction {
    fail(error)
  }

  /// The next event queued for the delivering thread, if any (``SerialOutbox/next()``).
  @inlinable
  mutating func nextPending() -> Event<Element>? {
    outbox.next()
  }

  /// The delivery rank of this subscription's outbox (see ``DeliveryTurns``).
  @inlinable
  var turnRank: Int { outbox.turns.rank }

  /// The subscription ends: every subscription, the queued events and the sequences that wait
  /// are handed back.
  @inlinable
  mutating func dispose() -> DisposeAction {
    state = .ended
    let queued = outbox.dispose()
    var subscriptions: [any Disposable] = []
    if let disposable = outer.release() { subscriptions.append(disposable) }
    for id in inners.keys.sorted() {
      if let disposable = inners[id]?.release() { subscriptions.append(disposable) }
    }
    inners = [:]
    return .dispose(
      subscriptions: subscriptions, queued: queued, waiting: waiting.removeAll(),
      scheduled: scheduled.removeAll())
  }

  // MARK: Helpers of the transitions

  /// Numbers `source` and schedules it for the start loop.
  @inlinable
  mutating func schedule(_ source: Observable<Element>) {
    let id = nextID
    nextID += 1
    inners[id] = .pending
    scheduled.append(ScheduledInner(id: id, source: source))
  }

  /// Records the inner sequences' count and the start loop's owner, in the outer sequence's
  /// phase.
  @inlinable
  mutating func update(active: Int, looping: Bool) {
    switch state {
    case .outerRunning: state = .outerRunning(active: active, looping: looping)
    case .outerCompleted: state = .outerCompleted(active: active, looping: looping)
    case .ended:
      preconditionFailure("Streams internal error: merge: inner sequences counted in state ended")
    }
  }

  /// The merge completes: returns the completion to drain.
  @inlinable
  mutating func complete() -> Event<Element>? {
    state = .ended
    return outbox.send(.completed)
  }

  /// The merge fails, unless it ended.
  @inlinable
  mutating func fail(_ error: any Error) -> ForwardAction {
    if case .ended = state { return .drop }
    state = .ended
    return .drain(outbox.send(.error(error)))
  }
}
