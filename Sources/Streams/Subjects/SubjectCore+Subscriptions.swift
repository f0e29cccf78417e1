extension SubjectCore {
  @inlinable
  func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
    var subscription: SubjectSubscription?
    var finished: [Event<Element>] = []
    // The replay this thread delivers (see below), and the gate it delivers it through when
    // another thread holds the claim.
    var replaying: (events: [Event<Element>], via: ReplayRoute)?
    state.withLock { state in
      if state.isDisposed {
        finished = [.error(RxError.disposed(object: name))]
        return
      }
      var replay: [Event<Element>]
      switch policy {
      case .none: replay = []
      case .latest:
        // After a terminal event a BehaviorSubject sends only that event, as in RxSwift.
        replay = state.terminal == nil ? state.buffer.map { .next($0) } : []
      case .buffer: replay = state.buffer.map { .next($0) }
      case .last:
        replay = []
        if let terminal = state.terminal, case .completed = terminal, let last = state.buffer.last {
          replay = [.next(last)]
        }
      }
      if let terminal = state.terminal {
        // The observer is not added: it gets its events on this thread, with no claim (nobody
        // else delivers to it, and a queued replay could be dropped by a `dispose()`).
        replay.append(terminal)
        finished = replay
        return
      }
      // The subscription holds the core and its entry in the table holds the subscription: a
      // cycle that unsubscribing breaks, or the owner's deinit disposing the core.
      let registered = SubjectSubscription(owner: self) { owner, subscription in
        unsafeDowncast(owner, to: SubjectCore<Element>.self).unsubscribe(subscription)
      }
      state.subscribers += 1
      subscription = registered
      if claimOrQueueWork() {
        if !replay.isEmpty {
          // Nobody was delivering: this thread delivers the replay holding the claim, then adds
          // the entry (below).
          replaying = (replay, .idle)
          return
        }
        // Nobody was delivering, so nothing is queued: add the entry and release the claim within
        // the lock, so that a subscribing thread never ends up delivering other threads' events.
        table.append(observer, registered)
        releaseHolding()
        return
      }
      if replay.isEmpty {
        state.pending.append(.add(observer, registered, handOff: nil))
        state.turns.appendedOther()
        return
      }
      // Someone delivers: the entry is queued behind the events accepted so far, which the replay
      // already holds. When this thread may wait (another thread delivers; see `DeliveryTurns`),
      // the entry is a hand-off point: the claim holder stops there and hands this thread the
      // claim. Otherwise (this thread delivers, from inside an observer, or holds a claim ranked
      // at or above this subject's) it delivers the replay now, through a gate that holds back the
      // events that reach the entry before the replay is done.
      // The entry is the gate's either way: a subscriber that gives up waiting (after
      // `TurnWaiter.patience`) delivers its replay through it.
      let gate = ReplayGate(observer)
      if state.turns.callerMayWait {
        let waiter = TurnWaiter(ticket: -1, rank: rank)
        state.pending.append(.add(gate.observer, registered, handOff: waiter))
        state.turns.appendedOther()
        replaying = (replay, .handOff(waiter, gate))
        return
      }
      state.pending.append(.add(gate.observer, registered, handOff: nil))
      state.turns.appendedOther()
      replaying = (replay, .gate(gate))
    }
    for event in finished { observer.on(event) }
    if let replaying, let subscription {
      switch replaying.via {
      case .gate(let gate):
        gate.open(after: replaying.events) { reaches(subscription) }
      case .idle:
        let saved = ClaimRank.enter(rank)
        replay(replaying.events, to: observer, subscription)
        finishDelivery()
        ClaimRank.leave(saved)
      case .handOff(let waiter, let gate):
        switch waiter.wait() {
        case .handed:
          let saved = ClaimRank.enter(rank)
          replay(replaying.events, to: observer, subscription)
          deliverQueued()
          ClaimRank.leave(saved)
        case .gaveUp:
          // The claim holder adds the gate's entry instead.
          gate.open(after: replaying.events) { reaches(subscription) }
        case .done:
          break  // the subject was disposed before the entry was reached: nothing reaches it
        }
      }
    }
    return subscription ?? Disposables.create()
  }

  /// How a subscriber's replay is delivered (see ``subscribe(_:)``).
  @usableFromInline
  enum ReplayRoute {
    /// Nobody delivered: the subscriber took the claim.
    case idle
    /// The claim holder hands the subscriber the claim at its entry (or adds the gate's entry,
    /// when the subscriber gave up waiting).
    case handOff(TurnWaiter, ReplayGate<Element>)
    /// Delivered through a gate while the claim holder goes on.
    case gate(ReplayGate<Element>)
  }

  /// Holding the claim: delivers a new subscriber's replay, then adds its entry to the table.
  @inlinable
  func replay(
    _ events: [Event<Element>], to observer: AnyObserver<Element>,
    _ subscription: SubjectSubscription
  ) {
    for event in events where reaches(subscription) { observer.on(event) }
    if subscription.isActive { table.append(observer, subscription) }
  }

  /// Whether an event may still reach `subscription`'s observer outside the table (a replay, or
  /// what a ``ReplayGate`` held back): neither it nor the subject is disposed. Both flags are set
  /// before the respective `dispose()` returns.
  @inlinable
  func reaches(_ subscription: SubjectSubscription) -> Bool {
    subscription.isActive && !isDisposedNow
  }

  /// Removes `subscription`'s observer: at once when nobody delivers (taking the claim for a
  /// moment, within the lock, so that a disposing thread never delivers other threads' events),
  /// otherwise by queueing the removal for the delivering thread. Either way the subscription is
  /// marked disposed under the lock, after the removal is visible to deliveries.
  @inlinable
  func unsubscribe(_ subscription: SubjectSubscription) {
    let removed = state.withLock { state -> ObserverTable<Element>.Entry? in
      guard subscription.isActive else { return nil }  // disposed twice
      defer { subscription.markDisposed() }
      if state.isDisposed { return nil }  // the table went with the disposal
      // After a terminal event the count is already 0, but the entry may still be in the table
      // with the terminal event queued: remove it the same way, so that it gets nothing more.
      if state.terminal == nil { state.subscribers -= 1 }
      if claimOrQueueWork() {
        // Nobody was delivering, so nothing is queued and, holding the lock and the claim, nobody
        // else changes the word: remove the entry and release the claim with a store.
        let entry = table.remove(subscription)
        releaseHolding()
        return entry
      }
      // Someone delivers (the pending bit is set): queue the removal for them.
      state.pendingRemovals += 1
      markRemovalsPending()
      state.pending.append(.remove(subscription))
      state.turns.appendedOther()
      return nil
    }
    // Release the observer outside the lock: its deinit may run user code.
    withExtendedLifetime(removed) {}
  }

  @inlinable
  var hasObservers: Bool { state.withLock { $0.subscribers > 0 } }

  @inlinable
  var isDisposed: Bool { state.withLock { $0.isDisposed } }

  /// Disposes the subject: releases the observers, the buffered elements and the queued work (a
  /// queued event is not delivered once `dispose()` has returned); later subscribers receive
  /// `RxError.disposed`.
  @inlinable
  func dispose() {
    var waiters = RingQueue<TurnWaiter>()
    let released = state.withLock {
      state -> (RingQueue<Element>, RingQueue<Work>, ObserverTable<Element>.Entries?) in
      if state.isDisposed { return (RingQueue(), RingQueue(), nil) }
      state.isDisposed = true
      state.version &+= 1
      state.subscribers = 0
      state.pendingRemovals = 0
      let buffer = state.buffer
      let pending = state.pending
      state.buffer = RingQueue()
      state.pending = RingQueue()
      // The waiting senders and the subscribers waiting at a hand-off point: their work is
      // dropped, and they are woken below.
      waiters = state.turns.dropAll(queued: pending.count)
      for case .add(_, _, let handOff?) in pending { waiters.append(handOff) }
      // When nobody delivers, take the claim for a moment and let the table go; otherwise the
      // delivering thread does that (`nextEvent`) before it releases the claim.
      guard markSubjectDisposed() else { return (buffer, pending, nil) }
      let entries = table.removeAll()
      releaseDisposed()
      return (buffer, pending, entries)
    }
    withExtendedLifetime(released) {}
    TurnWaiter.wakeAll(waiters)
  }

  /// The current latest element; throws the terminal error, or `RxError.disposed`.
  @inlinable
  func latest() throws -> Element {
    try state.withLock { state -> Element in
      if state.isDisposed { throw RxError.disposed(object: name) }
      if case .error(let error) = state.terminal { throw error }
      guard let value = state.buffer.last else {
        streamsStop("\(name) has no value: a BehaviorSubject always holds one")
      }
      return value
    }
  }

  /// Atomically replaces the latest element with `transform(latest)` and emits it.
  ///
  /// `transform` runs with no lock held (it is user code, and may read the subject). It works on
  /// a copy of the latest element; the result is stored only if no other element was stored
  /// meanwhile, otherwise `transform` runs again on the newer element. So no update is lost, and
  /// `transform` may run more than once when updates race. If it throws, nothing changes and the
  /// error is thrown. (Typed throws rather than `rethrows`: with Swift 6.3 the `rethrows` form of
  /// this method, a throw inside the `withLock` closure, was miscompiled into a crash.)
  @inlinable
  func update<Failure: Error>(_ transform: (inout Element) throws(Failure) -> Void) throws(Failure)
    -> Element
  {
    while true {
      let (latest, version) = state.withLock { state -> (Element, Int) in
        guard let value = state.buffer.last else {
          streamsStop("\(name) has no value to update")
        }
        return (value, state.version)
      }
      var value = latest
      try transform(&value)
      var released: Element?
      let outcome = state.withLock { state -> (committed: Bool, action: SendAction) in
        if state.version != version { return (false, .queued) }
        if state.isDisposed || state.terminal != nil { return (true, .queued) }
        released = Self.replaceLatest(with: value, in: &state.buffer)
        state.version &+= 1
        return (true, send(.next(value), &state))
      }
      guard outcome.committed else { continue }
      perform(outcome.action)
      withExtendedLifetime(released) {}
      return value
    }
  }
}
