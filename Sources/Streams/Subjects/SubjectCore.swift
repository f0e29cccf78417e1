import StreamsShims

/// The one state machine behind every subject and relay.
///
/// **Delivery is serialized by a claim.** The thread holding the delivery claim is the only one
/// that calls observers, and the only one that reads or changes the observer table
/// (``table``). While one thread delivers, an `on(_:)` from another thread, or from an observer
/// re-entering the subject, is queued (``State/pending``) and delivered by the claiming thread once
/// the current work is done. Observers therefore never see two events at once, every observer
/// sees the events in the order the subject accepted them, and no lock is held while an observer
/// runs.
///
/// **Subscribing and disposing are O(1).** A new subscriber is added to the table, and a disposed
/// one removed from it, by whoever holds the claim: the subscribing or disposing thread itself when
/// nobody delivers (it takes the claim, for a moment or, with a replay, for the replay), otherwise
/// the delivering thread, to which the change is queued as work in the same first-in first-out
/// order as the events. The table keeps the subscription order; a removal leaves a hole that
/// later subscriptions do not reuse, and the table is compacted once holes outnumber observers
/// and number more than 8 (amortized O(1)). Nothing is copied per change and nothing is
/// allocated per event.
///
/// **Who delivers is kept in the atomic word** beside the lock, as a state machine of its own
/// (``SubjectClaim``: idle, delivering, delivering with work queued, and the conditions a delivery
/// checks). The common `onNext` on a PublishSubject takes no lock: one compare-and-swap from idle
/// (word 0) to delivering, the calls, one compare-and-swap back. Any other word takes the lock.
///
/// **A disposal takes effect at once**, also when it is queued: the subscription is marked
/// disposed under the lock after ``removalsPendingBit`` is set, and while that bit is set the
/// delivering thread checks each observer's subscription before calling it. So nothing reaches an
/// observer once `dispose()` has returned (a call already running on another thread may finish),
/// and the queued and the lock-free deliveries stop at the same element.
///
/// **A subscriber with replay** (BehaviorSubject, ReplaySubject) gets its replay inside
/// `subscribe`, on its own thread, as in RxSwift. When nobody delivers, it takes the claim,
/// delivers the replay and adds its entry, and then also delivers what other threads sent
/// meanwhile, in one turn. When another thread delivers, its entry is queued as a hand-off point:
/// it waits until the claim holder reaches the entry and hands it the claim, then delivers the
/// replay, adds the entry and goes on delivering for one turn. A subscriber that may not wait (one
/// subscribing from inside an observer of this subject, or of a serializer ranked at or above it)
/// queues its entry and delivers the replay through a ``ReplayGate``, which holds back the events
/// that reach the entry until the replay is done. A subscriber without replay, and a disposer, only
/// ever hold the claim within the lock and never deliver other threads' events. Either way the
/// replay, and the events held back behind it, stop once the subscription or the subject is
/// disposed (``reaches(_:)``).
///
/// **Liveness: delivery goes in turns.** A thread that delivers also delivers the events other
/// threads queue meanwhile (that is what serializes them), but at most ``DeliveryTurns/budget``
/// (128) of them in one call: when its turn is over and another sender waits, it hands the claim
/// to that sender and returns. A sender finding the backlog past the budget queues its event and
/// waits for its turn (unless it may not wait: it is the claim holder re-entering, or holds a
/// claim ranked at or above this subject's; see ``DeliveryTurns``), so contending threads share
/// the work and none runs other threads' events for longer than one turn, however long they keep
/// sending. Other threads' subscriptions and disposals never keep a deliverer: it applies all of
/// those queued before the next event in one critical section, with no user code
/// (``nextEvent(delivered:)``), and delivers no other thread's replay.
///
/// **Nothing is released under the lock**: an element replaced or evicted from the buffer, a
/// removed observer, queued work dropped by `dispose()`, leave the critical section first, because
/// their `deinit` is user code that may re-enter the subject.
///
/// `@unchecked Sendable`: all mutable state is in `state`, guarded by its lock, or in its atomic
/// word, except ``table``, which only the thread holding the delivery claim touches (the claim
/// passes between threads through the atomic word or the lock).
@usableFromInline
final class SubjectCore<Element>: @unchecked Sendable {
  /// Queued for the thread holding the claim, in the order the subject accepted it.
  @usableFromInline
  enum Work {
    /// An event for the observers in the table at the time it is delivered.
    case deliver(Event<Element>)
    /// A new subscriber's entry joins the table (unless it was disposed meanwhile). Its replay,
    /// if any, is not queued: the subscribing thread delivers it, either through a ``ReplayGate``
    /// or, when the entry carries a waiter (a hand-off point), holding the claim, which the claim
    /// holder hands it on reaching the entry.
    case add(AnyObserver<Element>, SubjectSubscription, handOff: TurnWaiter?)
    /// A disposed subscriber's entry leaves the table.
    case remove(SubjectSubscription)
  }

  @usableFromInline
  struct State {
    /// What is replayed (see ``ReplayPolicy``): at most one element but for a ReplaySubject.
    @usableFromInline var buffer = RingQueue<Element>()
    /// Bumped on every change of `buffer`, so that ``update(_:)`` can tell whether the element it
    /// transformed is still the latest.
    @usableFromInline var version = 0
    @usableFromInline var terminal: Event<Element>?
    @usableFromInline var isDisposed = false
    @usableFromInline var pending = RingQueue<Work>()
    /// Subscriptions not yet disposed (for `hasObservers`), whether or not their entry is in the
    /// table yet.
    @usableFromInline var subscribers = 0
    /// `.remove` work items in `pending`; ``SubjectClaim/removalsPending`` is set while it is not zero.
    @usableFromInline var pendingRemovals = 0
    /// How the claim passes between threads (see ``DeliveryTurns``); it counts the items of
    /// `pending`.
    @usableFromInline var turns: DeliveryTurns

    @inlinable
    init(order: DeliveryTurns.Order) {
      turns = DeliveryTurns(order: order)
    }
  }

  /// The observers, in subscription order. Only the thread holding the delivery claim reads or
  /// writes it.
  @exclusivity(unchecked) @usableFromInline var table = ObserverTable<Element>()

  @usableFromInline let policy: ReplayPolicy
  @usableFromInline let name: String
  @usableFromInline let state: Locked<State>
  /// The subject's claim rank (``DeliveryTurns/rank``), held by its deliveries.
  @usableFromInline let rank: Int

  @inlinable
  init(
    policy: ReplayPolicy, name: String, initial: Element? = nil,
    order: DeliveryTurns.Order = .source
  ) {
    self.policy = policy
    self.name = name
    var initialState = State(order: order)
    if let initial { initialState.buffer.append(initial) }
    rank = initialState.turns.rank
    state = Locked(initialState)
    Resources.track(self)
  }

  @inlinable
  deinit {
    table.deallocate()
    Resources.untrack(self)
  }

  // MARK: events

  /// What a sender does after its critical section: deliver (it took the claim), nothing (its
  /// event was queued or dropped), or wait for its turn.
  @usableFromInline
  enum SendAction {
    case deliver(Event<Element>)
    case queued
    case wait(TurnWaiter)
  }

  @inlinable
  func on(_ event: Event<Element>) {
    switch (event, policy) {
    case (.next, .last): break  // an AsyncSubject keeps the element for its completion: below
    case (.next(let element), _):
      onNext(event, element)
      return
    default: break
    }
    var released: Element?
    let action = state.withLock { state -> SendAction in
      if state.isDisposed || state.terminal != nil { return .queued }
      switch event {
      case .next(let element):
        // Only an AsyncSubject gets here with an element: it keeps it for its completion.
        released = Self.replaceLatest(with: element, in: &state.buffer)
        return .queued
      case .error, .completed:
        state.terminal = event
        state.subscribers = 0
        markClosed()
        if case .last = policy, case .completed = event, let last = state.buffer.last {
          return send(.next(last), then: event, &state)
        }
        return send(event, &state)
      }
    }
    perform(action)
    withExtendedLifetime(released) {}
  }

  /// `.next` on every subject but an AsyncSubject: buffers `element` as the policy says, then
  /// delivers it at once when nobody else is delivering (the common case).
  /// A subject that buffers nothing (PublishSubject, PublishRelay) does not take the lock when the
  /// word is idle.
  @inlinable
  func onNext(_ event: Event<Element>, _ element: Element) {
    if case .none = policy, claimIfIdle() {
      let saved = ClaimRank.enter(rank)
      deliverToTable(event)
      finishDelivery()
      ClaimRank.leave(saved)
      return
    }
    var released: Element?
    let action = state.withLock { state -> SendAction in
      if state.isDisposed || state.terminal != nil { return .queued }
      state.version &+= 1
      switch policy {
      case .none, .last: break
      case .latest: released = Self.replaceLatest(with: element, in: &state.buffer)
      case .buffer(let size):
        state.buffer.append(element)
        if state.buffer.count > size { released = state.buffer.popFirst() }
      }
      return send(event, &state)
    }
    perform(action)
    // The replaced or evicted element goes with no lock held, once this call holds no claim of
    // this subject: its deinit may send into it.
    withExtendedLifetime(released) {}
  }

  /// Makes `element` the only buffered one and returns the one it replaces, for the caller to
  /// release once it has unlocked.
  @inlinable
  static func replaceLatest(with element: Element, in buffer: inout RingQueue<Element>)
    -> Element?
  {
    let old = buffer.popFirst()
    buffer.append(element)
    return old
  }

  /// Under the lock: claims delivery of `event` (and queues `then`) when nobody delivers;
  /// otherwise queues both, and the caller waits for its turn when the backlog is past the budget
  /// (see ``DeliveryTurns``).
  @inlinable
  func send(_ event: Event<Element>, then: Event<Element>? = nil, _ state: inout State)
    -> SendAction
  {
    if claimOrQueueWork() {
      state.turns.claimed()  // a new turn (a claim released without the lock left its count)
      if let then {
        state.pending.append(.deliver(then))
        _ = state.turns.appendedItem(backlog: state.pending.count, mayWait: false)
        markWorkQueued()
      }
      return .deliver(event)
    }
    state.pending.append(.deliver(event))
    var waiter = state.turns.appendedItem(backlog: state.pending.count)
    if let then {
      state.pending.append(.deliver(then))
      if let later = state.turns.appendedItem(backlog: state.pending.count, mayWait: waiter == nil)
      {
        waiter = later
      }
    }
    return waiter.map { .wait($0) } ?? .queued
  }

  /// After the critical section: delivers holding the claim, or waits for a turn and delivers it
  /// when handed the claim.
  @inlinable
  func perform(_ action: SendAction) {
    switch action {
    case .queued: return
    case .deliver(let first): drain(first)
    case .wait(let waiter):
      // Its event was delivered in another thread's turn, or stays queued for the claim holder.
      guard waiter.wait() == .handed else { return }
      let saved = ClaimRank.enter(rank)
      deliverQueued()
      ClaimRank.leave(saved)
    }
  }

  /// Holding the claim: delivers `event` to the observers in the table. While a removal is
  /// pending (``SubjectClaim/removalsPending``, loaded per observer because an observer may dispose another
  /// one), each subscription is checked before its observer is called; once the subject is
  /// disposed (``SubjectClaim/disposed``) the delivery stops.
  @inlinable
  func deliverToTable(_ event: Event<Element>) {
    guard let base = table.base else { return }
    for index in 0..<table.count {
      let word = state.loadWord()
      if word & (SubjectClaim.removalsPending | SubjectClaim.disposed) != 0 {
        if word & SubjectClaim.disposed != 0 { return }
        if base[index]?.subscription.isActive != true { continue }
      }
      base[index]?.observer.handler(event)
    }
  }

  /// Holding the claim: delivers one event; after a terminal one, lets the observers go.
  @inlinable
  func deliver(_ event: Event<Element>) {
    deliverToTable(event)
    if event.isStopEvent {
      // The subject terminated: every observer has its terminal event; let them go.
      let entries = table.removeAll()
      withExtendedLifetime(entries) {}
    }
  }

  /// Releases the delivery claim, or delivers what was queued meanwhile.
  @inlinable
  func finishDelivery() {
    if releaseIfUntouched() { return }
    deliverQueued()
  }

  /// Holding the claim: delivers `first`, then what was queued meanwhile, for one turn.
  @inlinable
  func drain(_ first: Event<Element>) {
    let saved = ClaimRank.enter(rank)
    deliver(first)
    deliverQueued()
    ClaimRank.leave(saved)
  }
}
