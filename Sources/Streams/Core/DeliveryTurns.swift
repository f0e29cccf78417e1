import StreamsShims

/// How a serializer's delivery claim passes between threads, so that no call delivers more than a
/// bounded number of other threads' events: the turn-taking shared by ``SubjectCore`` and
/// ``SerialOutbox``, kept in their lock-guarded state.
///
/// A serializer delivers one event at a time: the thread that finds it idle takes the claim and
/// delivers; a thread that finds it claimed queues its event. The claim holder delivers what was
/// queued, in order, in **turns**: a turn delivers at most ``budget`` queued events. A sender
/// that finds the backlog (the events queued plus those the current turn has delivered) past the
/// budget **waits**: its event is queued like any other and it parks on a ``TurnWaiter``. When a
/// turn ends with events still queued, the claim passes to the first waiter, which delivers the
/// next turn on its own thread; a waiter whose event a turn delivers is woken and returns. So
/// every sender's event is delivered exactly once, in the order the serializer accepted it, and:
///
/// - a call delivers its own event and at most ``budget`` queued ones. A sender that did not wait
///   found room for its event in the current turn (the backlog was below the budget), so only
///   waiters' events are left when a turn ends, and one of them takes over. Beyond the budget a
///   turn goes on only while no waiter is there to take over ("overtime"), delivering events that
///   were queued by senders not allowed to wait (below); any sender that may wait waits then.
/// - a sender waits at most for the current turn to end, plus the turns of the waiters before it.
///
/// **Who may wait.** Never the claim holder itself (an observer sending back into the serializer
/// it is being called from: the event is queued and the call returns, as before), and never a
/// thread whose waiting could close a cycle. Every serializer has a **rank**, increasing with its
/// creation (``streams_claim_rank_next()``); a thread delivering holds the ranks of the claims it
/// holds (``streams_claim_rank``, raised for the length of a delivery), and may wait at a
/// serializer only when the serializer's rank is above all of them. A waiting thread thus waits
/// for a holder of a higher rank than any it holds, and a chain of waits climbs in rank: it cannot
/// come back to its start, so no set of threads can wait for each other (the lock-ordering rule,
/// with the creation order as the order). A pipeline is subscribed after the subjects it reads, so
/// a subject's deliverer sending on into `merge`, `combineLatest` or `flatMap` (whose outboxes
/// are made at subscription) may wait there; a send against the order (a subscriber feeding back
/// into an older subject) is queued and returns, and the turn delivering it may run overtime.
///
/// A claim holder never waits for anything but the user code it calls; no lock is held while a
/// thread waits or delivers.
@usableFromInline
struct DeliveryTurns {
  /// The most queued events one turn delivers before handing the claim to a waiting sender: 128
  /// (the contention benchmark's figures for it are in Guides/Performance.md).
  @inlinable static var budget: Int { 128 }

  /// The serializer's rank (see above); 0 for one whose senders never wait (`observe(on:)`,
  /// whose claim holder is a scheduled action, not a caller).
  @usableFromInline let rank: Int
  /// Queued events the current turn has delivered (published by the claim holder under the lock).
  @usableFromInline var delivered = 0
  /// Items ever appended to the serializer's queue, and ever taken from it: a waiter's ticket is
  /// the number of its item, delivered once `taken` passes it.
  @usableFromInline var appended = 0
  @usableFromInline var taken = 0
  /// Senders waiting for their turn, in the order of their tickets.
  @usableFromInline var waiters = RingQueue<TurnWaiter>()

  /// Turn-taking for a new serializer, with a fresh rank (`ranked`) or none.
  @inlinable
  init(ranked: Bool = true) {
    rank = ranked ? streams_claim_rank_next() : 0
  }

  /// Whether the calling thread may wait at this serializer: the serializer has a rank, above every
  /// claim the thread holds, and the thread did not just take its claim (an outbox's `send` that
  /// claimed hands the event to the caller's drain, which has not begun).
  @inlinable
  var callerMayWait: Bool {
    rank > streams_claim_rank_get() && rank != streams_claim_taken_get()
  }

  /// Called by a sender under the lock after it appended one item to a queue now holding
  /// `backlog` items: counts the item and, when the backlog with what the turn delivered is past
  /// the budget and the caller may wait (`mayWait` and ``callerMayWait``), returns the waiter it
  /// must park on after unlocking (``TurnWaiter/wait()``).
  @inlinable
  mutating func appendedItem(backlog: Int, mayWait: Bool = true) -> TurnWaiter? {
    let ticket = appended
    appended &+= 1
    guard backlog + delivered > Self.budget, mayWait, callerMayWait else { return nil }
    return register(ticket)
  }

  /// Counts an item appended that no sender waits for (a subscription's table change).
  @inlinable
  mutating func appendedOther() {
    appended &+= 1
  }

  @inlinable
  mutating func register(_ ticket: Int) -> TurnWaiter {
    let waiter = TurnWaiter(ticket: ticket, rank: rank)
    waiters.append(waiter)
    return waiter
  }

  /// Called by the claim holder under the lock as it takes one item off the queue: the waiter
  /// whose event it is, if any, removed from the waiters, for the caller to wake as done
  /// (``TurnWaiter/wake(handingClaim:)``).
  @inlinable
  mutating func takeItem() -> TurnWaiter? {
    let ticket = taken
    taken &+= 1
    guard let first = waiters.first, first.ticket == ticket else { return nil }
    return waiters.popFirst()
  }

  /// Called by the claim holder under the lock, before it takes the next queued event, having
  /// delivered `count` in this turn: when the turn is over, hands the claim to the first waiter
  /// still waiting (waking it: a condition variable's signal, no user code) and returns it (a new
  /// turn begins); otherwise, or when no one waits, `nil` (the turn goes on).
  @inlinable
  mutating func turnEnds(after count: Int) -> TurnWaiter? {
    guard count >= Self.budget else { return nil }
    while let waiter = waiters.popFirst() {
      if waiter.wake(handingClaim: true) {
        delivered = 0
        return waiter
      }
      // It gave up waiting (``TurnWaiter/patience``): its event stays queued, for this turn.
    }
    return nil
  }

  /// The claim is released (the queue is empty): the next claim begins a turn.
  @inlinable
  mutating func released() {
    delivered = 0
  }

  /// The serializer drops its queue (disposed, failed): every waiter, to be woken after
  /// unlocking as done.
  @inlinable
  mutating func dropAll(queued count: Int) -> RingQueue<TurnWaiter> {
    taken &+= count
    delivered = 0
    return waiters.removeAll()
  }
}

/// A sender parked until its event is delivered or the claim is handed to it (see
/// ``DeliveryTurns``). Made under the serializer's lock, parked on after unlocking, woken once.
///
/// `@unchecked Sendable`: `ticket` and `rank` are immutable; the state is in the parker, behind
/// its own pthread mutex.
@usableFromInline
final class TurnWaiter: @unchecked Sendable {
  @usableFromInline let ticket: Int
  /// The serializer's rank, which a waiter handed the claim holds while it delivers.
  @usableFromInline let rank: Int
  @usableFromInline let parker: OpaquePointer

  @inlinable
  init(ticket: Int, rank: Int) {
    self.ticket = ticket
    self.rank = rank
    parker = streams_parker_create()
  }

  @inlinable
  deinit {
    streams_parker_destroy(parker)
  }

  /// How long a sender waits for its turn before it gives up and returns, leaving its event
  /// queued for the claim holder: 20 ms. A turn of 128 quick events takes microseconds, so a
  /// sender gives up only when the claim holder is held up inside an observer, for instance by
  /// a lock the waiting thread holds: the wait then cannot turn into a deadlock.
  @inlinable static var patience: Int64 { 20_000_000 }

  /// How a wait ended.
  @usableFromInline
  enum Outcome {
    /// The claim was handed to the waiter: it delivers now.
    case handed
    /// Its event was delivered in another thread's turn, or dropped (the serializer was disposed).
    case done
    /// ``patience`` ran out: its event stays queued for the claim holder.
    case gaveUp
  }

  /// Parks the calling thread until woken or until ``patience`` runs out.
  @inlinable
  func wait() -> Outcome {
    switch streams_parker_wait(parker, Self.patience) {
    case 2: .handed
    case 1: .done
    default: .gaveUp
    }
  }

  /// Wakes the waiter, handing it the claim or telling it its event is done; `false` when it had
  /// given up waiting (and nothing changed).
  @inlinable
  @discardableResult
  func wake(handingClaim: Bool) -> Bool {
    streams_parker_post(parker, handingClaim ? 2 : 1)
  }

  /// Wakes every waiter of `waiters` as done.
  @inlinable
  static func wakeAll(_ waiters: RingQueue<TurnWaiter>) {
    for waiter in waiters { waiter.wake(handingClaim: false) }
  }

  /// Keeps `waiter` for the calling thread's drain to wait on (see ``SerialOutbox``); an outbox's
  /// critical section registers at most one.
  @inlinable
  static func stash(_ waiter: TurnWaiter) {
    streams_turn_waiter_set(Unmanaged.passRetained(waiter).toOpaque())
  }

  /// Takes the waiter the calling thread's last `send` registered, if any.
  @inlinable
  static func takeStashed() -> TurnWaiter? {
    guard let pointer = streams_turn_waiter_get() else { return nil }
    streams_turn_waiter_set(nil)
    return Unmanaged<TurnWaiter>.fromOpaque(pointer).takeRetainedValue()
  }
}

/// The calling thread's claim rank (see ``DeliveryTurns``), raised for the length of a delivery.
@usableFromInline
enum ClaimRank {
  /// Raises the thread's rank to `rank` if it is higher; returns the previous rank, for ``leave(_:)``.
  @inlinable
  static func enter(_ rank: Int) -> Int {
    let saved = streams_claim_rank_get()
    if rank > saved { streams_claim_rank_set(rank) }
    return saved
  }

  /// Puts back the rank ``enter(_:)`` returned.
  @inlinable
  static func leave(_ saved: Int) {
    streams_claim_rank_set(saved)
  }

  /// The rank of the outbox claim the calling thread's last `send` took, cleared: its drain
  /// enters it.
  @inlinable
  static func takeClaimed() -> Int {
    let rank = streams_claim_taken_get()
    streams_claim_taken_set(0)
    return rank
  }
}
