extension SubjectCore {
  /// Holding the claim: delivers the queued events, at most one turn of them, then releases the
  /// claim or hands it to a waiting thread (``nextEvent(delivered:)``).
  @inlinable
  func deliverQueued() {
    var count = 0
    while let event = nextEvent(delivered: count) {
      count &+= 1
      deliver(event)
    }
  }

  /// Called by the delivering thread, which has delivered `count` queued events in this turn, when
  /// its work is done: applies the queued table changes, then returns the next queued event (the
  /// claim stays), or returns `nil` having released the claim or handed it on: to the subscriber
  /// whose entry is a hand-off point, or, once the turn is over, to the first waiting sender
  /// (``DeliveryTurns``). A disposed subject drops what is queued and the observer table instead.
  ///
  /// The table changes up to the next event are applied here, all of them within one critical
  /// section (they run no user code: adding appends an entry, removing hands the entry back to be
  /// released below), and when no event follows, the claim is released in the same section. So
  /// a delivering thread returns once the events queued by senders are delivered, however fast
  /// other threads subscribe and dispose meanwhile: each such change costs it one table operation
  /// under a lock it takes once per event. (Applying them one per lock round, as it once did, four
  /// threads churning subscriptions outpaced it and its `onNext` never returned.) Removed entries
  /// and dropped work are released, and waiters woken, with no lock held.
  @inlinable
  func nextEvent(delivered count: Int) -> Event<Element>? {
    // Nothing was queued and nothing changed: release without the lock. A thread that queues
    // work or closes the subject sets a bit first, which makes this fail.
    if releaseIfUntouched() { return nil }
    var dropped: (RingQueue<Work>, ObserverTable<Element>.Entries)?
    var removed = ObserverTable<Element>.Entries()
    // A waiter whose event this takes (woken as done after unlocking), and one handed the claim
    // (woken under the lock, where it must be known whether it still waits).
    var done: TurnWaiter?
    var handedTo: TurnWaiter?
    let event = state.withLock { state -> Event<Element>? in
      // Holding the claim and the lock, nobody else changes the word but to set the closed bit
      // (under the lock too).
      if state.isDisposed {
        // Disposed while this thread delivered: the queued work is not done and the observers
        // go, released below with no lock held (`dispose()` woke the waiters).
        dropped = (state.pending, table.removeAll())
        state.pending = RingQueue()
        state.pendingRemovals = 0
        releaseDisposed()
        return nil
      }
      var next: Event<Element>?
      while next == nil, handedTo == nil, let work = state.pending.first {
        if case .deliver = work,
          let waiter = state.turns.turnEnds(after: state.turns.spent(turnCount: count))
        {
          handedTo = waiter  // the turn is over: the waiter delivers the next one
          break
        }
        _ = state.pending.popFirst()
        let owner = state.turns.takeItem()
        switch work {
        case .deliver(let event):
          next = event
          done = owner
          // Published at once: a sender's backlog must count the event being delivered.
          _ = state.turns.tookEvent(turnCount: count &+ 1)
        case .add(let observer, let subscription, let handOff):
          if let handOff, handOff.handClaim() {
            // The subscriber delivers its replay holding the claim, and adds its entry itself.
            // (One that gave up waiting delivers it through the gate its entry holds: below.)
            handedTo = handOff
          } else if subscription.isActive {
            // Checked under the lock, where `unsubscribe` marks it: exact. A subscription
            // disposed before it joined hands its observer (often the only reference to the
            // caller's closures) to be released with the removed ones, after unlocking.
            table.append(observer, subscription)
          } else {
            removed.append((observer, subscription))
          }
        case .remove(let subscription):
          state.pendingRemovals -= 1
          if let entry = table.remove(subscription) { removed.append(entry) }
        }
      }
      let keeps = next != nil || handedTo != nil
      if !keeps { state.turns.released() }
      // A claim released later by the lock-free compare-and-swap leaves the turn's count behind;
      // the next claim taken under the lock starts it again (`claimed()`), and one taken without
      // it publishes its own count with its first queued event. Until then a sender may find
      // less room than there is, and wait (it is woken when its event is taken).
      settle(
        keeps: keeps, workLeft: !state.pending.isEmpty, removalsPending: state.pendingRemovals != 0)
      return next
    }
    withExtendedLifetime(dropped) {}
    withExtendedLifetime(removed) {}
    done?.wakeDone()
    return event
  }
}
