/// The delivery claim of a ``SubjectCore``, as a state machine whose state lives in the core's
/// atomic word (beside its lock), so that an idle subject is claimed and released with one
/// compare-and-swap each and a delivery reads its conditions with one load.
///
/// The word's low two bits are the ``SubjectClaim/State``; above them three conditions, set under
/// the lock: ``SubjectClaim/removalsPending`` (a disposed subscription may still have an entry in
/// the table, so deliveries check each one), ``SubjectClaim/closed`` (terminated or disposed) and
/// ``SubjectClaim/disposed`` (a delivery under way stops). Every transition but the two lock-free
/// ones (``SubjectCore/claimIfIdle()``, ``SubjectCore/releaseIfUntouched()``) runs under the lock
/// and traps an impossible one with a message.
@usableFromInline
enum SubjectClaim {
  /// Who delivers.
  @usableFromInline
  enum State {
    /// Nobody: the next sender takes the claim.
    case idle
    /// A thread holds the claim.
    case delivering
    /// A thread holds the claim, and `pending` holds work for it.
    case deliveringWithWork

    @inlinable
    init(word: Int) {
      switch word & SubjectClaim.stateMask {
      case 0: self = .idle
      case SubjectClaim.delivering: self = .delivering
      case SubjectClaim.delivering | SubjectClaim.workQueued: self = .deliveringWithWork
      default:
        preconditionFailure("Streams: a subject's claim word \(word) has work with no holder")
      }
    }
  }

  @inlinable static var delivering: Int { 1 }
  @inlinable static var workQueued: Int { 2 }
  @inlinable static var stateMask: Int { 3 }
  @inlinable static var removalsPending: Int { 4 }
  @inlinable static var closed: Int { 8 }
  @inlinable static var disposed: Int { 16 }
}

extension SubjectCore {
  /// Where the claim stands now.
  @inlinable
  var claimState: SubjectClaim.State { SubjectClaim.State(word: state.loadWord()) }

  /// Lock-free: takes the claim of a subject that is idle with no condition set (the common
  /// `onNext` on a PublishSubject).
  @inlinable
  func claimIfIdle() -> Bool {
    state.compareExchangeWord(expected: 0, desired: SubjectClaim.delivering)
  }

  /// Lock-free, by the claim holder: releases the claim when nothing was queued and no condition
  /// was set meanwhile (a thread that queues work or closes the subject sets a bit first, which
  /// makes this fail, and the holder then settles under the lock).
  @inlinable
  func releaseIfUntouched() -> Bool {
    state.compareExchangeWord(expected: SubjectClaim.delivering, desired: 0)
  }

  /// Under the lock: takes the claim when nobody delivers (`true`); otherwise marks work as
  /// queued (`false`), and the caller appends its work to `pending` before unlocking.
  @inlinable
  func claimOrQueueWork() -> Bool {
    while true {
      let word = state.loadWord()
      switch word & SubjectClaim.stateMask {
      case 0:
        // Without the lock only the idle fast path changes the word (from 0): compare-and-swap.
        if state.compareExchangeWord(expected: word, desired: word | SubjectClaim.delivering) {
          return true
        }
      case SubjectClaim.delivering:
        // When this fails, the holder released the claim meanwhile: look again.
        if state.compareExchangeWord(expected: word, desired: word | SubjectClaim.workQueued) {
          return false
        }
      case SubjectClaim.delivering | SubjectClaim.workQueued:
        return false
      default:
        _ = SubjectClaim.State(word: word)  // traps: work queued with no holder
      }
    }
  }

  /// Under the lock, by the claim holder: work was queued for itself (a second event behind the
  /// one it delivers).
  @inlinable
  func markWorkQueued() {
    let word = state.fetchOrWord(SubjectClaim.workQueued)
    precondition(
      word & SubjectClaim.delivering != 0, "Streams: work marked queued with nobody delivering")
  }

  /// Under the lock, by the claim holder, with nothing queued: releases the claim (a subscriber
  /// or disposer that held it for a table change).
  @inlinable
  func releaseHolding() {
    let word = state.loadWord()
    precondition(
      word & SubjectClaim.stateMask == SubjectClaim.delivering,
      "Streams: a subject's claim released by a thread that did not hold it, or with work queued")
    state.storeWord(word & ~SubjectClaim.delivering)
  }

  /// Under the lock, by the claim holder after taking work off the queue: keeps the claim
  /// (`keeps`: an event follows, or the claim was handed on) and notes whether work is left and
  /// removals are pending, or releases it.
  @inlinable
  func settle(keeps: Bool, workLeft: Bool, removalsPending: Bool) {
    let word = state.loadWord()
    precondition(
      SubjectClaim.State(word: word) != .idle,
      "Streams: a subject's queue taken by a thread that does not hold the claim")
    var next = word & ~(SubjectClaim.stateMask | SubjectClaim.removalsPending)
    if keeps { next |= SubjectClaim.delivering | (workLeft ? SubjectClaim.workQueued : 0) }
    if removalsPending { next |= SubjectClaim.removalsPending }
    state.storeWord(next)
  }

  /// Under the lock: a removal was queued for the claim holder.
  @inlinable
  func markRemovalsPending() {
    _ = state.fetchOrWord(SubjectClaim.removalsPending)
  }

  /// Under the lock: the subject terminated.
  @inlinable
  func markClosed() {
    _ = state.fetchOrWord(SubjectClaim.closed)
  }

  /// Under the lock: the subject is disposed. Returns `true` when nobody delivered, having taken
  /// the claim for the caller to let the table go and ``releaseDisposed()``; otherwise the holder
  /// does that when it next looks at the queue.
  @inlinable
  func markSubjectDisposed() -> Bool {
    let word =
      state.fetchOrWord(SubjectClaim.closed | SubjectClaim.disposed) | SubjectClaim.closed
      | SubjectClaim.disposed
    return word & SubjectClaim.delivering == 0
      && state.compareExchangeWord(expected: word, desired: word | SubjectClaim.delivering)
  }

  /// Under the lock, by the claim holder of a disposed subject: releases the claim for good.
  @inlinable
  func releaseDisposed() {
    state.storeWord(SubjectClaim.closed | SubjectClaim.disposed)
  }

  /// Lock-free: the subject was disposed (a replay or a gate's held-back events stop).
  @inlinable
  var isDisposedNow: Bool { state.loadWord() & SubjectClaim.disposed != 0 }
}
