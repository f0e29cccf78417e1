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
///   waiters' events are left when a turn ends, and one of them takes over. The turns of one call
///   share the budget (``tookEvent(turnCount:)``): a call holding several claims, down a chain of
///   serializers, counts what it delivers at all of them, and may deliver beyond it only the
///   events already promised a place at a serializer before its budget ran out (so a chain of
///   two is bounded by twice the budget). Beyond that a turn goes on only while no waiter is there
///   to take over ("overtime"), delivering events that were queued by senders not allowed to
///   wait (below); any sender that may wait waits then.
/// - a sender waits at most for the current turn to end, plus the turns of the waiters before it,
///   and never longer than ``TurnWaiter/patience`` (20 ms): then it gives up and returns, its
///   event queued for the claim holder. A cycle of waits we cannot see (a sender holding a lock
///   that an observer of the claim holder needs) thus costs a pause, never a deadlock.
///
/// **Who may wait.** Never the claim holder itself (an observer sending back into the serializer
/// it is being called from: the event is queued and the call returns, as before), and never a
/// thread whose waiting could close a cycle through Streams. Every serializer has a **rank**
/// (``Order``): subjects increasing with their creation, operators above every subject and
/// decreasing with theirs (a subscription makes the downstream operator before the upstream ones
/// that feed it). A thread delivering holds the ranks of the claims it holds
/// (``streams_claim_rank``, raised for the length of a delivery), and may wait at a serializer
/// only when the serializer's rank is above all of them. A waiting thread thus waits for a holder
/// of a higher rank than any it holds, and a chain of waits climbs in rank: it cannot come back
/// to its start (the lock-ordering rule). So a subject's deliverer sending on into `merge`,
/// `combineLatest` or `flatMap`, or an inner operator into an outer one, may wait there; a send
/// against the order (an operator's subscriber feeding a subject, a subject feeding an older
/// one) is queued and returns, and the turn delivering it may run overtime.
///
/// A claim holder never waits for anything but the user code it calls and, at a serializer
/// ranked above its claims, its turn; no lock is held while a thread waits or delivers.
@usableFromInline
struct DeliveryTurns {
  /// The most queued events one turn delivers before handing the claim to a waiting sender: 128
  /// (the contention benchmark's figures for it are in Guides/Performance.md).
  @inlinable static var budget: Int { 128 }

  /// The serializer's rank (see above); 0 for one whose senders never wait (`observe(on:)`,
  /// whose claim holder is a scheduled action, not a caller).
  @usableFromInline let rank: Int

  /// Where a serializer's rank comes from.
  @usableFromInline
  enum Order {
    /// A subject or relay: increasing with creation.
    case source
    /// An operator (an outbox, a `share` connection): above every subject, and decreasing with
    /// creation, because a subscription makes the downstream operator before the upstream ones
    /// that feed it (an inner sequence of `flatMap` is subscribed after the outer one, too).
    case `operator`
    /// Senders never wait.
    case unranked
  }
  /// Queued events the current turn has delivered (published by the claim holder under the lock).
  @usableFromInline var delivered = 0
  /// Items ever appended to the serializer's queue, and ever taken from it: a waiter's ticket is
  /// the number of its item, delivered once `taken` passes it.
  @usableFromInline var appended = 0
  @usableFromInline var taken = 0
  /// Senders waiting for their turn, in the order of their tickets.
  @usableFromInline var waiters = RingQueue<TurnWaiter>()

  /// Turn-taking for a new serializer, with a fresh rank in `order`.
  @inlinable
  init(order: Order) {
    switch order {
    case .source: rank = streams_claim_rank_next()
    case .operator: rank = streams_claim_operator_rank_next()
    case .unranked: rank = 0
    }
  }

  /// Whether the calling thread may wait at this serializer: the serializer has a rank, above every
  /// claim the thread holds, counting the outbox claims its `send`s took whose drains have not
  /// begun (between a send and its drain, a disposal may run user code that sends).
  @inlinable
  var callerMayWait: Bool {
    rank > streams_claim_rank_get() && rank > streams_claim_taken_max()
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
  /// (``TurnWaiter/wakeDone()``): it is woken as its event is taken off the queue, and returns
  /// while its event is being delivered.
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
      if waiter.handClaim() {
        delivered = 0
        return waiter
      }
      // It gave up waiting (``TurnWaiter/patience``): its event stays queued, for this turn.
    }
    return nil
  }

  /// Called by the claim holder under the lock as it takes a queued event, the `turnCount`th of
  /// its turn here: counts it for the calling thread, whose turns at every serializer it holds
  /// share one budget (so a call holding two claims, an inner `merge`'s and the outer one's,
  /// delivers one turn in all), and publishes the turn's count for senders. Returns the count
  /// ``turnEnds(after:)`` compares with the budget.
  @inlinable
  mutating func tookEvent(turnCount: Int) -> Int {
    // An unranked outbox (`observe(on:)`) is delivered by scheduled actions, not in turns.
    guard rank != 0 else { return turnCount }
    let spent = streams_turn_spent_get() &+ 1
    streams_turn_spent_set(spent)
    delivered = Swift.max(turnCount, spent)
    return delivered
  }

  /// The count ``turnEnds(after:)`` compares with the budget before the next event: the larger
  /// of the turn's own and the calling thread's.
  @inlinable
  func spent(turnCount: Int) -> Int {
    Swift.max(turnCount, streams_turn_spent_get())
  }

  /// Called under the lock by a thread taking the claim: a new turn, counted from what the
  /// thread's call has already spent when it holds other claims (senders then find less room).
  @inlinable
  mutating func claimed() {
    delivered = streams_claim_rank_get() == 0 ? 0 : streams_turn_spent_get()
  }

  /// The claim is released (the queue is empty): the next claim begins a turn.
  @inlinable
  mutating func released() {
    delivered = 0
  }

  /// The serializer drops its queue (disposed, failed): every waiter, to be woken as done.
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

  /// How many waits of the calling thread ran out of ``patience``: each lets a claim holder
  /// deliver past its turn, so a test of the bound reads it on its senders' threads (a waiter
  /// gives up only when held up for 20 ms, which a loaded machine, ThreadSanitizer say, can do to
  /// any thread).
  static var gaveUpOnThisThread: Int { Trampoline.current.turnWaitsGivenUp }

  /// Parks the calling thread until woken or until ``patience`` runs out.
  @inlinable
  func wait() -> Outcome {
    switch streams_parker_wait(parker, Self.patience) {
    case 2: return .handed
    case 1: return .done
    default:
      Trampoline.currentUnretained._withUnsafeGuaranteedRef { $0.turnWaitsGivenUp &+= 1 }
      return .gaveUp
    }
  }

  /// Hands the waiter the claim (whether or not it has begun waiting: the thread that registered
  /// it parks on it right after its critical section, or, for an outbox, at its drain, which its
  /// caller runs next); `false` when it gave up waiting, and nothing changed.
  @inlinable
  func handClaim() -> Bool {
    streams_parker_post(parker, 2)
  }

  /// Tells the waiter its event was taken off the queue (or dropped): it returns.
  @inlinable
  func wakeDone() {
    _ = streams_parker_post(parker, 1)
  }

  /// Wakes every waiter of `waiters` as done.
  @inlinable
  static func wakeAll(_ waiters: RingQueue<TurnWaiter>) {
    for waiter in waiters { waiter.wakeDone() }
  }

  /// Keeps `waiter` for the calling thread's drain to wait on (see ``SerialOutbox``); an outbox's
  /// critical section registers at most one.
  @inlinable
  static func stash(_ waiter: TurnWaiter) {
    streams_turn_waiter_set(Unmanaged.passRetained(waiter).toOpaque())
  }

  /// Takes the waiter the calling thread's `send` registered at the serializer of `rank`, if the
  /// stashed one is that one (a drain of another outbox, run by user code between that `send` and
  /// its drain, leaves it to its own).
  @inlinable
  static func takeStashed(rank: @autoclosure () -> Int) -> TurnWaiter? {
    guard let pointer = streams_turn_waiter_get() else { return nil }
    let waiter = Unmanaged<TurnWaiter>.fromOpaque(pointer)
    guard waiter.takeUnretainedValue().rank == rank() else { return nil }
    streams_turn_waiter_set(nil)
    return waiter.takeRetainedValue()
  }
}

/// The calling thread's claim rank (see ``DeliveryTurns``), raised for the length of a delivery.
@usableFromInline
enum ClaimRank {
  /// Raises the thread's rank to `rank` if it is higher; returns the previous rank, for ``leave(_:)``.
  /// A thread's outermost claim begins a call, whose turns share one budget: the count of queued
  /// events it delivered starts again (``DeliveryTurns/tookEvent(turnCount:)``).
  @inlinable
  static func enter(_ rank: Int) -> Int {
    let saved = streams_claim_rank_get()
    if saved == 0 { streams_turn_spent_set(0) }
    if rank > saved { streams_claim_rank_set(rank) }
    return saved
  }

  /// Puts back the rank ``enter(_:)`` returned.
  @inlinable
  static func leave(_ saved: Int) {
    streams_claim_rank_set(saved)
  }

  /// The rank of the innermost outbox claim a `send` took on the calling thread whose drain has
  /// not begun: the drain now beginning enters it.
  @inlinable
  static func takeClaimed() -> Int {
    streams_claim_taken_pop()
  }
}
