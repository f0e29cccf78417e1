/// The state of one iterator of ``ObservableValues``: the buffer between the observable (the
/// producer, any thread) and the `for await` loop (the consumer, one task).
///
/// Every method is called with the storage's lock held and returns an action that the caller runs
/// after releasing the lock: resuming the consumer's continuation, disposing the upstream, calling
/// `onDrop`, releasing buffered elements. The state machine itself never calls out.
///
/// Invariants:
/// - `waiter != nil` implies the buffer is empty, no terminal event is pending and the phase is
///   `.active`.
/// - A terminal event received from the upstream is stored in `pending` until the consumer has
///   taken every buffered element (FIFO), then delivered once; the phase then becomes `.finished`.
/// - The upstream disposable is disposed exactly once: by the producer path when the upstream
///   terminates, by the cancellation path when the consumer is suspended, or by the consumer
///   itself (in `next()` or when the iterator is dropped) otherwise. The party that makes `next()`
///   return `nil` after a cancellation always disposes first.
@usableFromInline
struct ValuesStateMachine<Element> {
  /// What the consumer's continuation receives.
  @usableFromInline typealias Continuation = UnsafeContinuation<Result<Element?, any Error>, Never>

  @usableFromInline
  enum Phase: Sendable {
    /// No subscription yet: the iterator has not been asked for an element.
    case idle
    /// Subscribing or subscribed; elements flow.
    case active
    /// The consuming task was cancelled while not suspended; the consumer disposes the upstream
    /// on its next call to `next()` (or when the iterator is dropped).
    case cancelled
    /// `next()` returned `nil` or threw, or the iterator was dropped; nothing more happens.
    case finished
  }

  @usableFromInline var phase: Phase = .idle
  @usableFromInline var buffer = RingQueue<Element>()
  /// A terminal event received but not yet delivered: `nil` error means completion.
  @usableFromInline var pending: PendingTerminal?
  @usableFromInline var waiter: Continuation?
  @usableFromInline var upstream: (any Disposable)?
  /// The upstream sent a terminal event: elements after it are ignored, the disposable is
  /// disposed as soon as it is known.
  @usableFromInline var upstreamTerminated = false
  /// The consumer is inside its first `next()`, subscribing: it waits for an element as a
  /// suspended consumer does, so the first element sent during `subscribe` is handed to it
  /// whatever the limit (a `BehaviorSubject`'s current value reaches a `.bufferingNewest(0)` loop).
  @usableFromInline var subscribing = false
  /// The element handed to the subscribing consumer; it comes out before the buffer.
  @usableFromInline var handoff: Element?
  /// How many elements this iterator's policy dropped.
  @usableFromInline var dropped = 0
  /// The consuming task was cancelled before the sequence ended: the last `nil` means
  /// cancellation, not completion.
  @usableFromInline var wasCancelled = false
  @usableFromInline let limit: Int
  @usableFromInline let dropsIncoming: Bool

  @usableFromInline
  enum PendingTerminal: Sendable {
    case completed
    case failed(any Error)
  }

  @inlinable
  init(policy: AsyncBufferingPolicy) {
    switch policy.kind {
    case .unbounded:
      limit = Int.max
      dropsIncoming = false
    case .newest(let count):
      limit = count
      dropsIncoming = false
    case .oldest(let count):
      limit = count
      dropsIncoming = true
    }
  }

  // MARK: consumer

  @usableFromInline
  enum NextAction {
    /// Subscribe to the upstream (outside the lock), then report ``subscribed(_:)``.
    case subscribe
    /// Return this element.
    case element(Element)
    /// Dispose `dispose` (if any), then return `nil` or throw `error`.
    case end(dispose: (any Disposable)?, error: (any Error)?)
    /// Nothing is available: suspend and call ``suspend(_:)`` inside the continuation.
    case suspend
  }

  /// The consumer asks for an element without suspending.
  @inlinable
  mutating func next() -> NextAction {
    switch phase {
    case .active:
      if let element = handoff.take() ?? buffer.popFirst() { return .element(element) }
      if let terminal = pending {
        pending = nil
        phase = .finished
        return .end(dispose: nil, error: terminal.error)
      }
      return .suspend
    case .idle:
      phase = .active
      subscribing = true
      return .subscribe
    case .cancelled:
      phase = .finished
      let disposable = upstream
      upstream = nil
      return .end(dispose: disposable, error: nil)
    case .finished:
      return .end(dispose: nil, error: nil)
    }
  }

  /// Moves every buffered element into `batch` (which must be empty), handing the batch's spare
  /// capacity to the producer. Only for the unbounded policy, where taking many elements under one
  /// lock is indistinguishable from taking them one by one.
  @inlinable
  mutating func takeAll(into batch: inout RingQueue<Element>) -> Bool {
    guard phase == .active, limit == Int.max, handoff == nil, buffer.count > 1 else {
      return false
    }
    swap(&buffer, &batch)
    return true
  }

  @usableFromInline
  enum SuspendAction {
    /// Keep waiting: the continuation is stored.
    case none
    /// Resume at once with this result.
    case resume(Continuation, Result<Element?, any Error>)
    /// Dispose, then resume with `nil`.
    case disposeAndResume(Continuation, (any Disposable)?)
  }

  /// The consumer is about to suspend on `continuation`.
  @inlinable
  mutating func suspend(_ continuation: Continuation) -> SuspendAction {
    switch phase {
    case .active:
      if let element = handoff.take() ?? buffer.popFirst() {
        return .resume(continuation, .success(element))
      }
      if let terminal = pending {
        pending = nil
        phase = .finished
        return .resume(continuation, terminal.result())
      }
      if waiter != nil {
        streamsStop("ObservableValues: next() called while another next() is waiting")
      }
      waiter = continuation
      return .none
    case .cancelled:
      phase = .finished
      let disposable = upstream
      upstream = nil
      return .disposeAndResume(continuation, disposable)
    case .finished:
      return .resume(continuation, .success(nil))
    case .idle:
      streamsStop("ObservableValues internal error: suspended before subscribing")
    }
  }

  /// The consumer finished subscribing; returns the disposable to dispose at once when the
  /// upstream already terminated or the consumer was cancelled meanwhile.
  @inlinable
  mutating func subscribed(_ disposable: any Disposable) -> (any Disposable)? {
    subscribing = false
    if phase == .active && !upstreamTerminated {
      upstream = disposable
      return nil
    }
    return disposable
  }

  @usableFromInline
  enum CancelAction {
    case none
    /// Dispose, then resume the waiting consumer with `nil`.
    case disposeAndResume(Continuation, (any Disposable)?)
    /// Release these elements and the undelivered terminal event's error (outside the lock: their
    /// deinit may run user code).
    case release(RingQueue<Element>, Element?, PendingTerminal?)
  }

  /// The consuming task was cancelled.
  @inlinable
  mutating func cancelled() -> CancelAction {
    switch phase {
    case .idle:
      phase = .finished
      wasCancelled = true
      return .none
    case .active:
      wasCancelled = true
      if let waiter {
        self.waiter = nil
        phase = .finished
        let disposable = upstream
        upstream = nil
        return .disposeAndResume(waiter, disposable)
      }
      phase = .cancelled
      return .release(buffer.removeAll(), handoff.take(), pending.take())
    case .cancelled, .finished:
      return .none
    }
  }

  /// The iterator was dropped: returns what to dispose and release outside the lock.
  @inlinable
  mutating func iteratorDropped() -> (
    dispose: (any Disposable)?, release: (RingQueue<Element>, Element?, PendingTerminal?)
  ) {
    phase = .finished
    let disposable = upstream
    upstream = nil
    return (disposable, (buffer.removeAll(), handoff.take(), pending.take()))
  }

  // MARK: producer

  @usableFromInline
  enum ElementAction {
    /// Buffered, or ignored (after a terminal event, a cancellation or the end).
    case none
    /// Hand the element to the waiting consumer.
    case resume(Continuation, Element)
    /// The policy dropped this element (the new one, or the oldest buffered one).
    case dropped(Element)
  }

  /// The upstream sent an element.
  @inlinable
  mutating func element(_ element: Element) -> ElementAction {
    guard phase == .active, !upstreamTerminated else { return .none }
    if let waiter {
      self.waiter = nil
      return .resume(waiter, element)
    }
    if subscribing {
      subscribing = false
      handoff = element
      return .none
    }
    if buffer.count < limit {
      buffer.append(element)
      return .none
    }
    dropped += 1
    if dropsIncoming || limit == 0 { return .dropped(element) }
    let oldest = buffer.popFirst()!
    buffer.append(element)
    return .dropped(oldest)
  }

  @usableFromInline
  enum TerminalAction {
    case none
    /// Dispose the upstream (if known).
    case dispose((any Disposable)?)
    /// Dispose the upstream (if known), then resume the waiting consumer.
    case disposeAndResume(Continuation, Result<Element?, any Error>, (any Disposable)?)
  }

  /// The upstream sent `.error` or `.completed`.
  @inlinable
  mutating func terminal(_ terminal: PendingTerminal) -> TerminalAction {
    guard !upstreamTerminated else { return .none }
    upstreamTerminated = true
    let disposable = upstream
    upstream = nil
    guard phase == .active else { return .dispose(disposable) }
    if let waiter {
      self.waiter = nil
      phase = .finished
      return .disposeAndResume(waiter, terminal.result(), disposable)
    }
    pending = terminal
    return .dispose(disposable)
  }
}

extension ValuesStateMachine.PendingTerminal {
  @inlinable
  var error: (any Error)? {
    if case .failed(let error) = self { return error }
    return nil
  }

  @inlinable
  func result() -> Result<Element?, any Error> {
    switch self {
    case .completed: return .success(nil)
    case .failed(let error): return .failure(error)
    }
  }
}

// Every stored property is `Sendable` when the element is (the buffer, continuations, the upstream
// disposable, the error), so the lock in `ValuesStorage` may be shared across threads.
extension ValuesStateMachine: Sendable where Element: Sendable {}
